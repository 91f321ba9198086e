// The normal flows of an app made on Stack's UI, as a person goes through them, shared by the suites of the React
// (Vite) app and the Next.js app: sign-up with a password, sign-out, sign-in, every section of Stack's account
// settings, a team with an invitation that its invitee accepts, and sign-out. Each step fails only when the page does
// not do what a person expects; the API answers and errors recorded meanwhile are judged at the end (stack-app-suite.ts).
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import * as OTPAuth from "otpauth";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { addVirtualAuthenticator, arriveAt } from "./harness.ts";
import { lastEmail, type PageRecord, recordPage, standInForStripe } from "./stack-app-setup.ts";

export type FlowContext = {
  server: RunningServer;
  appUrl: string;
  context: BrowserContext;
  page: Page;
  record: PageRecord;
  screenshot: (page: Page, label: string) => Promise<void>;
};

const PASSWORD = "a long enough password 1";
const NEW_PASSWORD = "another long password 2";

/** Every 20-byte random value the page draws: Stack's MFA section draws the TOTP secret that way, in the page. */
export const CAPTURE_TOTP_SECRETS = `(() => {
  const draw = crypto.getRandomValues.bind(crypto);
  window.__randomBytes20 = [];
  crypto.getRandomValues = (array) => {
    const result = draw(array);
    if (array.byteLength === 20) window.__randomBytes20.push(Array.from(new Uint8Array(array.buffer, array.byteOffset, 20)));
    return result;
  };
})();`;

/**
 * The shown one of what `locator` finds: Stack's account settings render both a desktop and a mobile layout and
 * hide one with CSS, so every text of a section is there twice.
 */
function shown(locator: Locator): Locator {
  return locator.filter({ visible: true }).first();
}

async function step(flow: FlowContext, name: string) {
  flow.record.step = name;
}

/** Opens one section of Stack's account settings (its sidebar navigates by the URL's hash). */
async function openSection(flow: FlowContext, id: string, title: string) {
  const { page } = flow;
  await shown(page.getByRole("button", { name: title, exact: true })).click();
  await followHash(flow, id);
  await shown(page.getByRole("heading", { name: title, exact: true })).waitFor();
}

/**
 * Waits for Stack's account settings to reach `#id` by its own sidebar's navigation (a router push of the bare hash).
 * Under Next.js 16 that push left the URL as it was, which is why the Next.js app is pinned to Next.js 15.
 */
async function followHash(flow: FlowContext, id: string) {
  await flow.page.waitForURL((url) => url.hash === `#${id}`, { timeout: 15_000, waitUntil: "commit" });
}

async function signedInAs(page: Page, email: string) {
  await page.getByText(`Signed in as ${email}`).waitFor();
}

/** Stack's sign-in and sign-up pages show the OTP ("Email") tab first when OTP is on: a person picks the password. */
async function passwordTab(page: Page) {
  await page.getByRole("tab", { name: "Email & Password" }).click();
}

async function signUp(page: Page, appUrl: string, email: string) {
  await page.goto(`${appUrl}/handler/sign-up`);
  await passwordTab(page);
  await page.getByRole("textbox", { name: "Email", exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Repeat Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
}

/** The steps, in order: each runs as one test of the suite, on the one page the suite opened. */
export function stackUiSteps(flow: () => FlowContext): [string, () => Promise<void>][] {
  const email = `stack-ui-${Date.now()}@example.com`;
  const invitee = `invitee-${Date.now()}@example.com`;
  let teamId = "";
  return [
    [
      "signs up with a password",
      async () => {
        const f = flow();
        await step(f, "sign-up");
        await signUp(f.page, f.appUrl, email);
        await arriveAt(f.page, `${f.appUrl}/`);
        await signedInAs(f.page, email);
        await f.screenshot(f.page, "signed-up");
      },
    ],
    [
      "signs out",
      async () => {
        const f = flow();
        await step(f, "sign-out");
        await f.page.goto(`${f.appUrl}/handler/sign-out`);
        await arriveAt(f.page, `${f.appUrl}/`);
        await f.page.getByText("Not signed in").waitFor();
        await f.screenshot(f.page, "signed-out");
      },
    ],
    [
      "signs in with the password",
      async () => {
        const f = flow();
        await step(f, "sign-in");
        await f.page.goto(`${f.appUrl}/handler/sign-in`);
        await passwordTab(f.page);
        await f.page.getByRole("textbox", { name: "Email", exact: true }).fill(email);
        await f.page.getByLabel("Password", { exact: true }).fill(PASSWORD);
        await f.screenshot(f.page, "sign-in");
        await f.page.getByRole("button", { name: "Sign In", exact: true }).click();
        await arriveAt(f.page, `${f.appUrl}/`);
        await signedInAs(f.page, email);
      },
    ],
    [
      "changes the display name on the profile",
      async () => {
        const f = flow();
        await step(f, "profile");
        await f.page.goto(`${f.appUrl}/handler/account-settings#profile`);
        await shown(f.page.getByRole("heading", { name: "My Profile", exact: true })).waitFor();
        // The section around the user name's description, and its edit button.
        const section = shown(
          f.page
            .getByText("This is a display name and is not used for authentication")
            .locator("xpath=ancestor::div[.//button][1]"),
        );
        await section.getByRole("button").click();
        await section.locator("input").fill("Stack UI person");
        await shown(f.page.getByRole("button", { name: "Save" })).click();
        await shown(f.page.getByText("Stack UI person")).waitFor();
        await f.screenshot(f.page, "profile");
      },
    ],
    [
      "verifies the e-mail from the inbox",
      async () => {
        const f = flow();
        await step(f, "emails");
        await openSection(f, "auth", "Emails & Auth");
        const row = f.page.getByRole("row").filter({ hasText: email });
        await row.getByText("Unverified").waitFor();
        const sentAfter = Date.now() - 1000;
        await row.getByRole("button", { name: "Open menu" }).click();
        await shown(f.page.getByRole("menuitem", { name: "Send verification email" })).click();
        const mail = await lastEmail(f.server, email, sentAfter);
        const link = mail.text.match(/https?:\/\/[^\s)>"]+/g)?.find((url) => url.startsWith(f.appUrl));
        if (!link) throw new Error(`No link to the app in the verification e-mail: ${mail.text}`);
        await f.page.goto(link);
        await shown(f.page.getByText("Do you want to verify your email?")).waitFor();
        await f.screenshot(f.page, "email-verification");
        await shown(f.page.getByRole("button", { name: "Verify" })).click();
        await shown(f.page.getByText("You email has been verified!")).waitFor();
        await f.page.goto(`${f.appUrl}/handler/account-settings#auth`);
        await shown(
          f.page.getByRole("row").filter({ hasText: email }).getByText("Used for sign-in"),
        ).waitFor();
        await f.screenshot(f.page, "emails-and-auth");
      },
    ],
    [
      "adds a second e-mail",
      async () => {
        const f = flow();
        await step(f, "add-email");
        await shown(f.page.getByRole("button", { name: "Add an email" })).click();
        await shown(f.page.getByPlaceholder("Enter email")).fill(`second-${email}`);
        await shown(f.page.getByRole("button", { name: "Add", exact: true })).click();
        await f.page
          .getByRole("row")
          .filter({ hasText: `second-${email}` })
          .waitFor();
      },
    ],
    [
      "updates the password",
      async () => {
        const f = flow();
        await step(f, "password");
        await shown(f.page.getByRole("button", { name: "Update password" })).click();
        await shown(f.page.getByLabel("Old password")).fill(PASSWORD);
        await shown(f.page.getByLabel("New password")).fill(NEW_PASSWORD);
        await shown(f.page.getByLabel("Repeat new password")).fill(NEW_PASSWORD);
        await shown(f.page.getByRole("button", { name: "Update Password" })).click();
        await shown(f.page.getByRole("button", { name: "Update password" })).waitFor();
      },
    ],
    [
      "registers a passkey",
      async () => {
        const f = flow();
        await step(f, "passkey");
        await addVirtualAuthenticator(f.context, f.page);
        await shown(f.page.getByRole("button", { name: "Add new passkey" })).click();
        await shown(f.page.getByText("Passkey registered")).waitFor();
      },
    ],
    [
      "turns on OTP sign-in",
      async () => {
        const f = flow();
        await step(f, "otp");
        await shown(f.page.getByRole("button", { name: "Enable OTP" })).click();
        await shown(f.page.getByText("OTP/magic link sign-in is currently enabled.")).waitFor();
      },
    ],
    [
      "turns on MFA with an authenticator code",
      async () => {
        const f = flow();
        await step(f, "mfa");
        await f.page.evaluate("window.__randomBytes20 = []");
        await shown(f.page.getByRole("button", { name: "Enable MFA" })).click();
        await shown(f.page.getByText("Scan this QR code with your authenticator app:")).waitFor();
        const drawn = (await f.page.evaluate("window.__randomBytes20")) as number[][];
        const secret = drawn.at(-1);
        if (!secret) throw new Error("The MFA section drew no 20-byte secret");
        const totp = new OTPAuth.TOTP({
          secret: new OTPAuth.Secret({ buffer: new Uint8Array(secret).buffer }),
        });
        await f.screenshot(f.page, "mfa-qr-code");
        await f.page.locator("input").filter({ visible: true }).last().fill(totp.generate());
        await shown(f.page.getByText("Multi-factor authentication is currently enabled.")).waitFor();
        await f.screenshot(f.page, "emails-and-auth-done");
      },
    ],
    [
      "switches a notification category",
      async () => {
        const f = flow();
        await step(f, "notifications");
        await openSection(f, "notifications", "Notifications");
        await shown(f.page.getByText("Choose which emails you want to receive")).waitFor();
        const toggle = shown(f.page.locator("[role=switch]:not([disabled])"));
        const before = await toggle.getAttribute("aria-checked");
        await toggle.click();
        await shown(
          f.page.locator(
            `[role=switch]:not([disabled])[aria-checked="${before === "true" ? "false" : "true"}"]`,
          ),
        ).waitFor();
        await f.screenshot(f.page, "notifications");
      },
    ],
    [
      "lists the active sessions",
      async () => {
        const f = flow();
        await step(f, "sessions");
        await openSection(f, "sessions", "Active Sessions");
        await shown(f.page.getByText("Current Session")).waitFor();
        await f.screenshot(f.page, "sessions");
      },
    ],
    [
      "creates an API key",
      async () => {
        const f = flow();
        await step(f, "api-keys");
        await openSection(f, "api-keys", "API Keys");
        await shown(f.page.getByRole("button", { name: "Create API Key" })).click();
        await shown(f.page.getByLabel("Description")).fill("CI key");
        await shown(f.page.getByRole("button", { name: "Create", exact: true })).click();
        await shown(f.page.getByText("Here is your API key.")).waitFor();
        await f.screenshot(f.page, "api-key-created");
        await shown(f.page.getByRole("checkbox")).click();
        await shown(f.page.getByRole("button", { name: "Close" })).click();
        await shown(f.page.getByRole("cell", { name: "CI key" })).waitFor();
        await f.screenshot(f.page, "api-keys");
      },
    ],
    [
      "shows the settings (no payments tab without payments)",
      async () => {
        const f = flow();
        await step(f, "settings");
        await openSection(f, "settings", "Settings");
        await shown(f.page.getByText("Danger zone")).waitFor();
        await shown(f.page.getByRole("button", { name: "Payments" })).waitFor({ state: "hidden" });
        await f.screenshot(f.page, "settings");
      },
    ],
    [
      "creates a team",
      async () => {
        const f = flow();
        await step(f, "team-creation");
        await openSection(f, "team-creation", "Create a team");
        await shown(f.page.locator("form input")).fill("Stack UI team");
        const created = f.page.waitForResponse(
          (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/v1/teams",
        );
        await shown(f.page.getByRole("button", { name: "Create", exact: true })).click();
        teamId = String(((await (await created).json()) as { id: string }).id);
        // Stack then opens the team's page (#team-<id>), by its sidebar's way of navigating.
        await followHash(f, `team-${teamId}`);
        await shown(f.page.getByText("Invite member")).waitFor();
        await f.screenshot(f.page, "team");
      },
    ],
    [
      "creates a team API key",
      async () => {
        const f = flow();
        await step(f, "team-api-keys");
        await shown(f.page.getByRole("button", { name: "Create API Key" })).click();
        await shown(f.page.getByLabel("Description")).fill("Team key");
        await shown(f.page.getByRole("button", { name: "Create", exact: true })).click();
        await shown(f.page.getByText("Here is your API key.")).waitFor();
        await shown(f.page.getByRole("checkbox")).click();
        await shown(f.page.getByRole("button", { name: "Close" })).click();
        await shown(f.page.getByRole("cell", { name: "Team key" })).waitFor();
      },
    ],
    [
      "invites a member, who joins",
      async () => {
        const f = flow();
        await step(f, "team-invitation");
        const sentAfter = Date.now() - 1000;
        await shown(f.page.getByPlaceholder("Email")).fill(invitee);
        await shown(f.page.getByRole("button", { name: "Invite User" })).click();
        await shown(f.page.getByRole("cell", { name: invitee })).waitFor();
        await f.screenshot(f.page, "team-invited");
        const mail = await lastEmail(f.server, invitee, sentAfter);
        const link = mail.text.match(/https?:\/\/[^\s)>"]+/g)?.find((url) => url.startsWith(f.appUrl));
        if (!link) throw new Error(`No link to the app in the invitation e-mail: ${mail.text}`);
        // The invitee, in a browser of their own, signs up and accepts.
        const context = await f.context.browser()!.newContext({ viewport: { width: 1280, height: 900 } });
        context.setDefaultTimeout(15_000);
        await standInForStripe(context);
        const page = await context.newPage();
        const theirs = recordPage(page);
        try {
          await signUp(page, f.appUrl, invitee);
          await signedInAs(page, invitee);
          await page.goto(link);
          await page.getByText("You are invited to join Stack UI team").waitFor();
          await f.screenshot(page, "invitation");
          await page.getByRole("button", { name: "Join" }).click();
          await page.getByText("You have successfully joined Stack UI team").waitFor();
          await f.screenshot(page, "invitee-joined");
        } finally {
          f.record.answers.push(...theirs.answers.map((a) => ({ ...a, step: "team-invitation (invitee)" })));
          f.record.pageErrors.push(...theirs.pageErrors);
          f.record.consoleErrors.push(...theirs.consoleErrors);
          await context.close();
        }
        // A fresh load: the inviter's page still holds the invitation list it fetched before.
        await f.page.goto(`${f.appUrl}/handler/account-settings#team-${teamId}`);
        await f.page.reload();
        await shown(f.page.getByText("No outstanding invitations")).waitFor();
        await f.screenshot(f.page, "team-joined");
      },
    ],
    [
      "signs out from the settings",
      async () => {
        const f = flow();
        await step(f, "final-sign-out");
        await openSection(f, "settings", "Settings");
        await shown(f.page.getByRole("button", { name: "Sign out" })).click();
        // The settings page wants a user: signed out, Stack sends it to sign-in (or its sign-out sends it home first).
        await f.page.getByText(/^(Sign in to your account|Not signed in)$/).waitFor();
        await f.screenshot(f.page, "after-sign-out");
        await f.page.goto(`${f.appUrl}/`);
        await f.page.getByText("Not signed in").waitFor();
        await f.screenshot(f.page, "final-sign-out");
      },
    ],
  ];
}
