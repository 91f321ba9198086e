// @vitest-environment happy-dom
// The pages reached from e-mailed links and the small handler pages, against a real server: forgot password (no
// enumeration) and reset with the e-mailed code, e-mail verification on a button press, the magic-link callback
// (with the MFA step), the mfa page, sign-out, and the error page from the query.
import { cleanup, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderWithApp, visit } from "../../test-support/render.tsx";
import { EmailVerification } from "./email-verification.tsx";
import { ErrorPage } from "./error-page.tsx";
import { ForgotPassword } from "./forgot-password.tsx";
import { MagicLinkCallback } from "./magic-link-callback.tsx";
import { MfaPage } from "./mfa-step.tsx";
import { PasswordReset } from "./password-reset.tsx";
import { SignOut } from "./sign-out.tsx";
import { createUser, liveSuite, PASSWORD, totpNow, uniqueEmail } from "./test-helpers.ts";

const live = liveSuite();

describe("forgot password and reset", () => {
  it("answers alike for unknown e-mails and sends known ones a link", async () => {
    const user = userEvent.setup();
    visit("/handler/forgot-password");
    await renderWithApp(live.newApp(), <ForgotPassword />);
    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(screen.getByText("This field is required.")).toBeTruthy();
    const unknown = uniqueEmail("nobody");
    await user.type(screen.getByLabelText("E-mail"), unknown);
    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      `If an account exists for ${unknown}, we sent it a link to reset the password.`,
    );
    cleanup();

    const email = uniqueEmail("forgot");
    await createUser(live, email);
    await renderWithApp(live.newApp(), <ForgotPassword />);
    await user.type(screen.getByLabelText("E-mail"), email);
    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      `If an account exists for ${email}, we sent it a link to reset the password.`,
    );
    expect(await live.codeFromEmail(email)).toMatch(/^[a-z0-9]+$/);
  });

  it("checks the link first, then sets the new password with the product's checks", async () => {
    const email = uniqueEmail("reset");
    await createUser(live, email);
    const sent = await live.newApp().sendForgotPasswordEmail(email);
    expect(sent.status).toBe("ok");
    const code = await live.codeFromEmail(email);
    visit(`/handler/password-reset?code=${code}`);
    const user = userEvent.setup();
    await renderWithApp(live.newApp(), <PasswordReset />);
    const password = await screen.findByLabelText("New password");
    await user.type(password, "short");
    await user.click(screen.getByRole("button", { name: "Set password" }));
    expect(screen.getByText("Password too short. Minimum length is 8.")).toBeTruthy();
    await user.clear(password);
    await user.type(password, "a new password");
    await user.type(screen.getByLabelText("Repeat new password"), "another one");
    await user.click(screen.getByRole("button", { name: "Set password" }));
    expect(screen.getByText("Passwords do not match.")).toBeTruthy();
    await user.clear(screen.getByLabelText("Repeat new password"));
    await user.type(screen.getByLabelText("Repeat new password"), "a new password");
    await user.click(screen.getByRole("button", { name: "Set password" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      "Your password has been changed. You can now sign in with it.",
    );
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/handler/sign-in");
    const signIn = await live
      .newApp()
      .signInWithCredential({ email, password: "a new password", noRedirect: true });
    expect(signIn.status).toBe("ok");
    cleanup();

    // The same link again: used.
    await renderWithApp(live.newApp(), <PasswordReset />);
    expect((await screen.findByRole("alert")).textContent).toBe("This link has already been used.");
    expect(screen.getByRole("link", { name: "Request a new link" }).getAttribute("href")).toBe(
      "/handler/forgot-password",
    );
  });

  it("says an unknown or missing code is not valid", async () => {
    visit("/handler/password-reset?code=notacode");
    await renderWithApp(live.newApp(), <PasswordReset />);
    expect((await screen.findByRole("alert")).textContent).toBe("This link is not valid.");
    expect(screen.queryByLabelText("New password")).toBeNull();
    cleanup();
    visit("/handler/password-reset");
    await renderWithApp(live.newApp(), <PasswordReset />);
    expect(screen.getByRole("alert").textContent).toBe(
      "This link is incomplete. Make sure you opened the whole link from the e-mail.",
    );
  });
});

describe("e-mail verification", () => {
  it("verifies only on the button, and says a used link was used", async () => {
    const email = uniqueEmail("verify");
    const signedUp = await live
      .newApp()
      .signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
    expect(signedUp.status).toBe("ok");
    const code = await live.codeFromEmail(email);
    const isVerified = async () => {
      const list = await live.admin("GET", `/users?query=${encodeURIComponent(email)}`);
      return (list.items as { primary_email: string; primary_email_verified: boolean }[]).find(
        (item) => item.primary_email === email,
      )?.primary_email_verified;
    };
    visit(`/handler/email-verification?code=${code}`);
    const user = userEvent.setup();
    await renderWithApp(live.newApp(), <EmailVerification />);
    expect(await isVerified()).toBe(false);
    await user.click(screen.getByRole("button", { name: "Verify e-mail" }));
    expect((await screen.findByRole("status")).textContent).toBe("Your e-mail has been verified.");
    expect(await isVerified()).toBe(true);
    cleanup();

    await renderWithApp(live.newApp(), <EmailVerification />);
    await user.click(screen.getByRole("button", { name: "Verify e-mail" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "This link has already been used. Your e-mail is probably verified already.",
    );
    expect(screen.getByRole("link", { name: "Go home" }).getAttribute("href")).toBe("/");
  });

  it("says an unknown code is not valid", async () => {
    visit("/handler/email-verification?code=notacode");
    const user = userEvent.setup();
    await renderWithApp(live.newApp(), <EmailVerification />);
    await user.click(screen.getByRole("button", { name: "Verify e-mail" }));
    expect((await screen.findByRole("alert")).textContent).toBe("This link is not valid.");
  });
});

describe("magic-link callback", () => {
  it("signs in on confirmation, and refuses the used link", async () => {
    const email = uniqueEmail("magic");
    await createUser(live, email);
    const sent = await live.newApp().sendMagicLinkEmail(email);
    expect(sent.status).toBe("ok");
    visit(`/handler/magic-link-callback?code=${await live.codeFromEmail(email)}`);
    const user = userEvent.setup();
    const app = live.newApp();
    await renderWithApp(app, <MagicLinkCallback />);
    expect(await app.getUser()).toBeNull();
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(live.navigations).toEqual(["/"]));
    expect((await app.getUser())?.primaryEmail).toBe(email);
    cleanup();

    await renderWithApp(live.newApp(), <MagicLinkCallback />);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "This sign-in link has already been used. Request a new one.",
    );
    expect(screen.getByRole("link", { name: "Back to sign in" })).toBeTruthy();
  });

  it("shows the MFA step for a TOTP user", async () => {
    const email = uniqueEmail("magic-mfa");
    await createUser(live, email, { totp: true });
    expect((await live.newApp().sendMagicLinkEmail(email)).status).toBe("ok");
    visit(`/handler/magic-link-callback?code=${await live.codeFromEmail(email)}`);
    const user = userEvent.setup();
    const app = live.newApp();
    await renderWithApp(app, <MagicLinkCallback />);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await user.type(await screen.findByLabelText("Authentication code"), totpNow(live));
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(live.navigations).toEqual(["/"]));
    expect((await app.getUser())?.primaryEmail).toBe(email);
  });
});

describe("the mfa page", () => {
  it("takes the attempt code from the query, and says when there is none", async () => {
    const email = uniqueEmail("mfa-page");
    await createUser(live, email, { totp: true });
    const paused = await live.newApp().signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    if (paused.status !== "error") throw new Error("expected the MFA pause");
    const attemptCode = String(paused.error.details?.attempt_code);
    visit(`/handler/mfa?attempt_code=${attemptCode}`);
    const user = userEvent.setup();
    const app = live.newApp();
    await renderWithApp(app, <MfaPage />);
    await user.type(screen.getByLabelText("Authentication code"), totpNow(live));
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(live.navigations).toEqual(["/"]));
    expect((await app.getUser())?.primaryEmail).toBe(email);
    cleanup();

    // The attempt is spent: the step says to sign in again.
    await renderWithApp(live.newApp(), <MfaPage />);
    await user.type(screen.getByLabelText("Authentication code"), totpNow(live, -1));
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect((await screen.findByRole("alert")).textContent).toContain(
      "This sign-in attempt has expired. Please sign in again.",
    );
    cleanup();

    visit("/handler/mfa");
    await renderWithApp(live.newApp(), <MfaPage />);
    expect(screen.getByRole("alert").textContent).toContain(
      "This page was opened without a sign-in attempt.",
    );
  });
});

describe("sign-out", () => {
  it("signs out once and goes to afterSignOut", async () => {
    const email = uniqueEmail("out");
    await createUser(live, email);
    const app = live.newApp({ afterSignOut: "/bye" });
    expect((await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe(
      "ok",
    );
    visit("/handler/sign-out");
    await renderWithApp(app, <SignOut />);
    expect(screen.getByRole("status", { name: "Signing out…" })).toBeTruthy();
    await waitFor(() => expect(live.navigations).toEqual(["/bye"]));
    expect(await app.getUser()).toBeNull();
  });

  it("goes to afterSignOut at once when nobody is signed in", async () => {
    visit("/handler/sign-out");
    await renderWithApp(live.newApp(), <SignOut />);
    await waitFor(() => expect(live.navigations).toEqual(["/"]));
  });
});

describe("the error page", () => {
  it("words a known error of the query in this app's words", async () => {
    visit("/handler/error?errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=Access+denied.&details=%7B%7D");
    await renderWithApp(live.newApp(), <ErrorPage />);
    expect(screen.getByRole("heading", { name: "Something went wrong" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toBe("Sign-in was cancelled at the provider.");
    expect(screen.getByText("Error code: OAUTH_PROVIDER_ACCESS_DENIED")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Go home" }).getAttribute("href")).toBe("/");
  });

  it("shows the server's message for other codes, and the prop's message", async () => {
    visit("/handler/error?errorCode=SOME_OTHER_ERROR&message=The+server+said+no.");
    await renderWithApp(live.newApp(), <ErrorPage />);
    expect(screen.getByRole("alert").textContent).toBe("The server said no.");
    cleanup();
    visit("/handler/unknown-page");
    await renderWithApp(live.newApp(), <ErrorPage message="Page not found." />);
    expect(screen.getByRole("alert").textContent).toBe("Page not found.");
  });
});
