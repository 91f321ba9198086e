// The demo app in Chromium against the real server process: every handler page a person goes through, from sign-up
// with e-mail verification to account deletion, each method of signing in, the second factor, teams across two
// browsers, and the redirect rules. Each step saves a screenshot to test-output/demo-flows/.

import * as OTPAuth from "otpauth";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible } from "./axe.ts";
import { type DemoSetup, startDemoSetup } from "./demo-app.ts";
import { addVirtualAuthenticator, continueAfterSignUp } from "./harness.ts";

const PASSWORD = "correct horse battery";

let setup: DemoSetup;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  setup = await startDemoSetup("demo-flows");
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await setup?.stop();
});

let people = 0;
/** An address no other test of this suite uses. */
const newEmail = (name: string) => `${name}-${++people}@example.com`;

async function open(options: { colorScheme?: "light" | "dark"; width?: number } = {}) {
  const opened = await setup.open(options);
  contexts.push(opened.context);
  return opened;
}

const at = (path: string) => `${setup.demo.url}${path}`;
const accountMenu = (page: Page) => page.getByRole("button", { name: /^Account menu of/ });

/** Waits for the demo's home page with someone signed in (the header's account menu). */
async function expectSignedInAtHome(page: Page) {
  await page.waitForURL(at("/"));
  await accountMenu(page).waitFor();
}

async function signUp(page: Page, email: string, password = PASSWORD) {
  await page.goto(at("/handler/sign-up"));
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Repeat password").fill(password);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await continueAfterSignUp(page);
}

async function fillSignIn(page: Page, email: string, password: string) {
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function signOutFromMenu(page: Page) {
  await accountMenu(page).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.getByRole("button", { name: "Sign in" }).first().waitFor();
}

/** A person with an account, signed in on the home page of a fresh browser; `verified` after following the link. */
async function signedInPerson(name: string, options: { verified?: boolean } = {}) {
  const { page, context } = await open();
  const email = newEmail(name);
  const sentAfter = Date.now();
  await signUp(page, email);
  await expectSignedInAtHome(page);
  if (options.verified) {
    await page.goto(await setup.linkFromEmail(email, sentAfter));
    await page.getByRole("button", { name: "Verify e-mail" }).click();
    await page.getByText("Your e-mail has been verified.").waitFor();
    await page.goto(at("/"));
  }
  return { page, context, email };
}

describe("the demo app in Chromium", () => {
  it("signs a newcomer up, verifies the e-mail from the inbox and reaches account settings", async () => {
    const { page } = await open();
    await page.goto(at("/"));
    await setup.screenshot(page, "home-signed-out");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL(/\/handler\/sign-up/);
    await setup.screenshot(page, "sign-up");

    // Mistakes are named in place before anything is sent.
    await page.getByLabel("E-mail", { exact: true }).fill("newcomer@example.com");
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByLabel("Repeat password").fill("short");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.getByText("Password too short. Minimum length is 8.").waitFor();
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password").fill(`${PASSWORD}!`);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.getByText("Passwords do not match.").waitFor();
    await setup.screenshot(page, "sign-up-errors");

    const sentAfter = Date.now();
    await page.getByLabel("Repeat password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    // The notice lasts on the onboarding page until the newcomer goes on.
    await page.getByText("Your account is ready. We sent a link to newcomer@example.com").waitFor();
    await setup.screenshot(page, "sign-up-verification-notice");
    await continueAfterSignUp(page);
    await expectSignedInAtHome(page);
    await setup.screenshot(page, "home-signed-in");

    const link = await setup.linkFromEmail("newcomer@example.com", sentAfter);
    expect(link).toContain("/handler/email-verification?code=");
    await page.goto(link);
    await setup.screenshot(page, "email-verification");
    await page.getByRole("button", { name: "Verify e-mail" }).click();
    await page.getByText("Your e-mail has been verified.").waitFor();

    await page.goto(at("/"));
    await accountMenu(page).click();
    await setup.screenshot(page, "user-menu");
    await page.getByRole("menuitem", { name: "Account settings" }).click();
    await page.waitForURL(at("/handler/account-settings"));
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    await setup.screenshot(page, "account-settings-profile");
    // One section at a time: the navigation shows the e-mails, and the URL names the section.
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "E-mails" }).click();
    await page.waitForURL(at("/handler/account-settings#account-emails"));
    await page.getByText("Verified", { exact: true }).waitFor();
    await setup.screenshot(page, "account-settings");
  });

  it("shows account settings in dark mode and on a 360 px phone", async () => {
    const email = newEmail("phone");
    const { page } = await open({ colorScheme: "dark", width: 360 });
    await signUp(page, email);
    await expectSignedInAtHome(page);
    await setup.screenshot(page, "home-dark-360");
    await page.goto(at("/handler/account-settings"));
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await setup.screenshot(page, "account-settings-dark-360");
    await page.goto(at("/handler/sign-in"));
    await setup.screenshot(page, "already-signed-in-dark-360");
  });

  it("shows onboarding, team creation, and API keys and notifications in account settings, accessibly", async () => {
    const { page, email } = await signedInPerson("compat");
    await page.goto(at("/handler/onboarding"));
    await page.getByText(`Verify your e-mail address ${email} to continue.`).waitFor();
    await setup.screenshot(page, "onboarding");
    await expectAccessible(page);

    await page.goto(at("/handler/team-creation"));
    await page.getByLabel("Team name").fill("Compat team");
    await setup.screenshot(page, "team-creation");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Create team" }).click();
    await expectSignedInAtHome(page);

    await page.goto(at("/handler/account-settings#account-api-keys"));
    const keys = page.getByRole("region", { name: "API keys", exact: true });
    await keys.getByLabel("Key description").fill("Deploys");
    await keys.getByRole("button", { name: "Create key" }).click();
    await keys.getByText(/shown only once/).waitFor();
    await keys.getByText("Deploys").waitFor();
    const sections = page.getByRole("navigation", { name: "Sections" });
    await sections.getByRole("link", { name: "Team API keys" }).click();
    await page.getByRole("region", { name: "API keys of Compat team" }).waitFor();
    await sections.getByRole("link", { name: "Notifications" }).click();
    await page.getByRole("checkbox", { name: "Marketing" }).click();
    await page.getByRole("checkbox", { name: "Transactional" }).waitFor();
    await setup.screenshot(page, "account-settings-keys-notifications");
    await expectAccessible(page);
  });

  it("signs out on the sign-out page and in again, naming a wrong password in place", async () => {
    const { page, email } = await signedInPerson("returning");
    // The handler's sign-out page signs out and goes to afterSignOut (home).
    await page.goto(at("/handler/sign-out"));
    await page.waitForURL(at("/"));
    await page.getByRole("button", { name: "Sign in" }).first().waitFor();
    await page.goto(at("/handler/sign-in"));
    await setup.screenshot(page, "sign-in");
    await fillSignIn(page, email, "not the password");
    await page.getByText("Wrong e-mail or password.").waitFor();
    await setup.screenshot(page, "sign-in-wrong-password");
    await fillSignIn(page, email, PASSWORD);
    await expectSignedInAtHome(page);
  });

  it("takes a signed-out visitor to sign in and back to the protected page (after_auth_return_to)", async () => {
    const { page, email } = await signedInPerson("protected");
    await signOutFromMenu(page);
    await page.goto(at("/protected"));
    await page.waitForURL(/\/handler\/sign-in\?after_auth_return_to=%2Fprotected/);
    await fillSignIn(page, email, PASSWORD);
    await page.waitForURL(at("/protected"));
    await page.getByRole("heading", { name: "Your notes" }).waitFor();
    await setup.screenshot(page, "protected-after-sign-in");
  });

  it("refuses an untrusted return target: the user lands on the app's own page instead", async () => {
    const { page, email } = await signedInPerson("untrusted");
    await signOutFromMenu(page);
    await page.goto(
      at(`/handler/sign-in?after_auth_return_to=${encodeURIComponent("https://evil.example/steal")}`),
    );
    await fillSignIn(page, email, PASSWORD);
    await expectSignedInAtHome(page);
    expect(new URL(page.url()).origin).toBe(setup.demo.url);
  });

  it("resets a forgotten password through the e-mailed link", async () => {
    const { page, email } = await signedInPerson("forgetful");
    await signOutFromMenu(page);
    await page.goto(at("/handler/sign-in"));
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL(/\/handler\/forgot-password/);
    const sentAfter = Date.now();
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText(`If an account exists for ${email}`).waitFor();
    await setup.screenshot(page, "forgot-password-sent");

    await page.goto(await setup.linkFromEmail(email, sentAfter));
    await page.getByLabel("New password", { exact: true }).fill("a brand new password");
    await page.getByLabel("Repeat new password").fill("a brand new password");
    await setup.screenshot(page, "password-reset");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("Your password has been changed.").waitFor();
    await page.goto(at("/handler/sign-in"));
    await fillSignIn(page, email, "a brand new password");
    await expectSignedInAtHome(page);
  });

  it("signs in with the e-mailed link, and with the e-mailed code", async () => {
    const { page, email } = await signedInPerson("magic", { verified: true });
    await signOutFromMenu(page);

    const requestCode = async () => {
      await page.goto(at("/handler/sign-in"));
      await page.getByRole("tab", { name: "E-mail code" }).click();
      const sentAfter = Date.now();
      await page.getByLabel("E-mail", { exact: true }).fill(email);
      await page.getByRole("button", { name: "E-mail me a code" }).click();
      await page.getByText(`We sent a sign-in link and a code to ${email}`).waitFor();
      return sentAfter;
    };

    const linkSentAfter = await requestCode();
    await setup.screenshot(page, "magic-link-sent");
    await page.goto(await setup.linkFromEmail(email, linkSentAfter));
    await setup.screenshot(page, "magic-link-callback");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectSignedInAtHome(page);

    await signOutFromMenu(page);
    const codeSentAfter = await requestCode();
    const mail = await setup.lastEmail(email, codeSentAfter);
    const otp = /\b([A-Z0-9]{6})\b/.exec(mail.subject)?.[1];
    expect(otp, mail.subject).toBeDefined();
    await page.getByLabel("Code from the e-mail").fill(otp as string);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectSignedInAtHome(page);
  });

  it("signs up through the development OAuth provider", async () => {
    const { page } = await open();
    await page.goto(at("/handler/sign-in"));
    await page.getByRole("button", { name: "Sign in with GitHub" }).click();
    await page.waitForURL(/\/api\/v1\/auth\/oauth\/development\/github/);
    await setup.screenshot(page, "oauth-development-provider");
    await page.getByRole("button", { name: /Continue as Ada Lovelace/ }).click();
    await expectSignedInAtHome(page);
    await expect(accountMenu(page).getAttribute("aria-label")).resolves.toContain("Ada Lovelace");
  });

  it("registers a passkey in account settings and signs in with it", async () => {
    const { page, context } = await signedInPerson("passkey");
    await addVirtualAuthenticator(context, page);
    await page.goto(at("/handler/account-settings#account-passkey"));
    await page.getByRole("button", { name: "Register a passkey" }).click();
    await page.getByText("You can sign in with a passkey.").waitFor();
    await setup.screenshot(page, "passkey-registered");

    await page.goto(at("/"));
    await signOutFromMenu(page);
    await page.goto(at("/handler/sign-in"));
    await page.getByRole("button", { name: "Sign in with passkey" }).click();
    await expectSignedInAtHome(page);
  });

  it("turns on an authenticator app, then asks for its code at sign-in", async () => {
    const { page, email } = await signedInPerson("totp");
    await page.goto(at("/handler/account-settings#account-mfa"));
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    const key = (await page.locator(".gh-code").first().textContent())?.replace(/\s/g, "") ?? "";
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key), digits: 6, period: 30 });
    await page
      .getByLabel("6-digit code from the app")
      .fill("000000" === totp.generate() ? "111111" : "000000");
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByText("This code is not right", { exact: false }).waitFor();
    await setup.screenshot(page, "totp-setup");
    await page.getByLabel("6-digit code from the app").fill(totp.generate());
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByText("On: signing in asks for a code").waitFor();
    await setup.screenshot(page, "totp-on");

    await page.goto(at("/"));
    await signOutFromMenu(page);
    await page.goto(at("/handler/sign-in"));
    await fillSignIn(page, email, PASSWORD);
    await page.getByLabel("Authentication code").waitFor();
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByText("Invalid TOTP code.", { exact: false }).waitFor();
    await setup.screenshot(page, "mfa-step");
    await page.getByLabel("Authentication code").fill(totp.generate());
    await page.getByRole("button", { name: "Verify" }).click();
    await expectSignedInAtHome(page);
  });

  it("creates a team, invites a second person who accepts in their own browser", async () => {
    const owner = await signedInPerson("owner");
    const guest = await signedInPerson("guest");

    await owner.page.goto(at("/handler/account-settings#account-teams"));
    await owner.page.getByLabel("New team name").fill("Rocket Club");
    await owner.page.getByRole("button", { name: "Create team" }).click();
    // The new team opens below the list.
    await owner.page.getByRole("button", { name: "Manage Rocket Club", pressed: true }).waitFor();
    const sentAfter = Date.now();
    await owner.page.getByLabel("Invite by e-mail").fill(guest.email);
    await owner.page.getByRole("button", { name: "Send invitation" }).click();
    await owner.page.getByText(`Invitation sent to ${guest.email}.`).waitFor();
    await setup.screenshot(owner.page, "team-invited");

    const link = await setup.linkFromEmail(guest.email, sentAfter);
    expect(link).toContain("/handler/team-invitation?code=");
    await guest.page.goto(link);
    await guest.page.getByText("You have been invited to join Rocket Club.").waitFor();
    await setup.screenshot(guest.page, "team-invitation");
    await guest.page.getByRole("button", { name: "Join Rocket Club" }).click();
    await guest.page.getByText("You joined Rocket Club.").waitFor();
    await guest.page.goto(at("/protected"));
    await guest.page.getByRole("listitem").filter({ hasText: "Rocket Club" }).waitFor();
    await setup.screenshot(guest.page, "protected-with-team");
  });

  it("deletes the account after the person confirms, and the account is gone", async () => {
    const { page, email } = await signedInPerson("leaving");
    await page.goto(at("/handler/account-settings#account-delete"));
    await page.getByLabel("Type DELETE to confirm").fill("DELETE");
    await setup.screenshot(page, "delete-account");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await page.waitForURL(at("/"));
    await page.getByRole("button", { name: "Sign in" }).first().waitFor();

    await page.goto(at("/handler/sign-in"));
    await fillSignIn(page, email, PASSWORD);
    await page.getByText("Wrong e-mail or password.").waitFor();
  });

  it("shows the error page for an unknown handler page and for an error the server sent back", async () => {
    const { page } = await open();
    await page.goto(at("/handler/no-such-page"));
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await page.getByText("There is no page at /handler/no-such-page.", { exact: false }).waitFor();
    await page.goto(at("/handler/error?errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=Denied"));
    await page.getByRole("heading", { name: "Something went wrong" }).waitFor();
    await setup.screenshot(page, "error-page");
  });
});
