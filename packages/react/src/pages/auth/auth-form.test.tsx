// @vitest-environment happy-dom
// Sign-in and sign-up against a real server: the methods each project config shows, the form checks and server
// errors in place, success with the redirect (and after_auth_return_to kept in links), the MFA step (with the app's
// code, or a recovery code that works once), the e-mail code,
// an already signed-in user, and an untrusted redirect target.
import { StackClientApp } from "@gatehouse/sdk";
import { cleanup, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { renderWithApp, visit } from "../../test-support/render.tsx";
import { Onboarding } from "../onboarding.tsx";
import { SignIn, SignUp } from "./auth-form.tsx";
import { createUser, liveSuite, PASSWORD, totpNow, uniqueEmail, wrongTotp } from "./test-helpers.ts";

describe("a project with e-mail and password and the e-mail code", () => {
  const live = liveSuite();
  beforeEach(() => visit("/handler/sign-in"));

  it("offers both methods as tabs, no OAuth or passkey, and a sign-up link", async () => {
    await renderWithApp(live.newApp(), <SignIn />);
    expect(screen.getByRole("heading", { name: "Sign in" })).toBeTruthy();
    expect(screen.getByRole("tab", { name: "E-mail & password", selected: true })).toBeTruthy();
    expect(screen.getByRole("tab", { name: "E-mail code", selected: false })).toBeTruthy();
    expect(screen.getByLabelText("Password")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Sign in with/ })).toBeNull();
    expect(screen.getByRole("link", { name: "Sign up" }).getAttribute("href")).toBe("/handler/sign-up");
    expect(screen.getByRole("link", { name: "Forgot password?" }).getAttribute("href")).toBe(
      "/handler/forgot-password",
    );
  });

  it("moves between the tabs with the arrow keys", async () => {
    const user = userEvent.setup();
    await renderWithApp(live.newApp(), <SignIn />);
    await user.click(screen.getByRole("tab", { name: "E-mail & password" }));
    await user.keyboard("{ArrowRight}");
    const magic = screen.getByRole("tab", { name: "E-mail code", selected: true });
    expect(document.activeElement).toBe(magic);
    expect(screen.queryByLabelText("Password")).toBeNull();
    await user.keyboard("{ArrowLeft}");
    expect(screen.getByRole("tab", { name: "E-mail & password", selected: true })).toBeTruthy();
    expect(screen.getByLabelText("Password")).toBeTruthy();
  });

  it("keeps after_auth_return_to in the links and goes there after signing in", async () => {
    const email = uniqueEmail("return");
    await createUser(live, email);
    visit("/handler/sign-in?after_auth_return_to=%2Fdashboard");
    const user = userEvent.setup();
    const app = live.newApp();
    await renderWithApp(app, <SignIn />);
    expect(screen.getByRole("link", { name: "Sign up" }).getAttribute("href")).toBe(
      "/handler/sign-up?after_auth_return_to=%2Fdashboard",
    );
    expect(screen.getByRole("link", { name: "Forgot password?" }).getAttribute("href")).toBe(
      "/handler/forgot-password?after_auth_return_to=%2Fdashboard",
    );
    await user.type(screen.getByLabelText("E-mail"), email);
    await user.type(screen.getByLabelText("Password"), PASSWORD);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(live.navigations).toEqual(["/dashboard"]));
    expect((await app.getUser())?.primaryEmail).toBe(email);
  });

  it("checks the fields before sending and focuses the first one in error", async () => {
    const user = userEvent.setup();
    await renderWithApp(live.newApp(), <SignIn />);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    const email = screen.getByLabelText("E-mail");
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getAllByText("This field is required.")).toHaveLength(2);
    await waitFor(() => expect(document.activeElement).toBe(email));
    await user.type(email, "not-an-email");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(screen.getByText("Enter a valid e-mail address.")).toBeTruthy();
  });

  it("says a wrong password in place", async () => {
    const email = uniqueEmail("wrong");
    await createUser(live, email);
    const user = userEvent.setup();
    await renderWithApp(live.newApp(), <SignIn />);
    await user.type(screen.getByLabelText("E-mail"), email);
    await user.type(screen.getByLabelText("Password"), "not the password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Wrong e-mail or password.");
    expect(live.navigations).toEqual([]);
  });

  it("shows the button busy while the sign-in is on its way", async () => {
    const email = uniqueEmail("pending");
    await createUser(live, email);
    // The live app's requests, held until the test lets them go.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const app = new StackClientApp({
      projectId: live.keys.projectId,
      publishableClientKey: live.keys.pck,
      baseUrl: "http://localhost:8102",
      tokenStore: "memory",
      redirectMethod: { navigate: (to: string) => void live.navigations.push(to) },
      fetch: async (input, init) => {
        const request = new Request(input as string, init);
        if (request.url.includes("/auth/password/sign-in")) await held;
        const url = new URL(request.url);
        return live.server.app.request(url.pathname + url.search, {
          method: request.method,
          headers: request.headers,
          body: request.method === "GET" ? undefined : await request.text(),
        });
      },
    });
    const user = userEvent.setup();
    await renderWithApp(app, <SignIn />);
    await user.type(screen.getByLabelText("E-mail"), email);
    await user.type(screen.getByLabelText("Password"), PASSWORD);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    const button = screen.getByRole("button", { name: "Sign in" });
    await waitFor(() => expect(button.getAttribute("aria-busy")).toBe("true"));
    release();
    await waitFor(() => expect(live.navigations).toEqual(["/"]));
    await waitFor(() => expect(button.getAttribute("aria-busy")).toBeNull());
  });

  it("asks for the authenticator code when the user has TOTP, and signs in with it", async () => {
    const email = uniqueEmail("mfa");
    await createUser(live, email, { totp: true });
    const user = userEvent.setup();
    const app = live.newApp();
    await renderWithApp(app, <SignIn />);
    await user.type(screen.getByLabelText("E-mail"), email);
    await user.type(screen.getByLabelText("Password"), PASSWORD);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("heading", { name: "Two-factor authentication" })).toBeTruthy();
    const code = screen.getByLabelText("Authentication code");
    expect(code.getAttribute("inputmode")).toBe("numeric");
    expect(code.getAttribute("autocomplete")).toBe("one-time-code");

    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(screen.getByText("Invalid TOTP code. Please check the code and try again.")).toBeTruthy();

    await user.type(code, wrongTotp(live));
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(code.getAttribute("aria-invalid")).toBe("true"));
    expect(live.navigations).toEqual([]);
    expect(await app.getUser()).toBeNull();

    await user.clear(code);
    await user.type(code, totpNow(live));
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(live.navigations).toEqual(["/"]));
    expect((await app.getUser())?.primaryEmail).toBe(email);
  });

  it("signs in once with a recovery code instead of the app's code", async () => {
    const email = uniqueEmail("recovery");
    await createUser(live, email, { totp: true });
    const setup = live.newApp();
    const first = await setup.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    const attempt = first.status === "error" ? String(first.error.details?.attempt_code) : "";
    expect((await setup.signInWithMfa(totpNow(live), attempt, { noRedirect: true })).status).toBe("ok");
    const [recoveryCode] = await (await setup.getUser({ or: "throw" })).generateRecoveryCodes();

    const user = userEvent.setup();
    const toMfaStep = async () => {
      const app = live.newApp();
      await renderWithApp(app, <SignIn />);
      await user.type(screen.getByLabelText("E-mail"), email);
      await user.type(screen.getByLabelText("Password"), PASSWORD);
      await user.click(screen.getByRole("button", { name: "Sign in" }));
      await user.click(await screen.findByRole("button", { name: "Use a recovery code instead" }));
      return app;
    };
    const app = await toMfaStep();
    const field = screen.getByLabelText("Recovery code");
    expect(document.activeElement).toBe(field);
    expect(screen.queryByLabelText("Authentication code")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(screen.getByText("Enter a recovery code.")).toBeTruthy();

    // There and back: the app's code again, then the recovery code.
    await user.click(screen.getByRole("button", { name: "Use your authenticator app instead" }));
    expect(document.activeElement).toBe(screen.getByLabelText("Authentication code"));
    await user.click(screen.getByRole("button", { name: "Use a recovery code instead" }));

    await user.type(screen.getByLabelText("Recovery code"), "aaaaa-bbbbb");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("That recovery code is not valid or was already used.")).toBeTruthy();
    expect(screen.getByLabelText("Recovery code").getAttribute("aria-invalid")).toBe("true");
    expect(live.navigations).toEqual([]);

    await user.clear(screen.getByLabelText("Recovery code"));
    await user.type(screen.getByLabelText("Recovery code"), recoveryCode as string);
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(live.navigations).toEqual(["/"]));
    expect((await app.getUser())?.primaryEmail).toBe(email);

    // The same code a second time is refused.
    cleanup();
    live.navigations.length = 0;
    const again = await toMfaStep();
    await user.type(screen.getByLabelText("Recovery code"), recoveryCode as string);
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("That recovery code is not valid or was already used.")).toBeTruthy();
    expect(live.navigations).toEqual([]);
    expect(await again.getUser()).toBeNull();
  });

  it("signs in with the e-mailed code after sending it", async () => {
    const email = uniqueEmail("otp");
    const user = userEvent.setup();
    const app = live.newApp();
    await renderWithApp(app, <SignIn />);
    await user.click(screen.getByRole("tab", { name: "E-mail code" }));
    expect(screen.queryByLabelText("Password")).toBeNull();
    await user.click(screen.getByRole("button", { name: "E-mail me a code" }));
    expect(screen.getByText("This field is required.")).toBeTruthy();
    await user.type(screen.getByLabelText("E-mail"), email);
    await user.click(screen.getByRole("button", { name: "E-mail me a code" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      `We sent a sign-in link and a code to ${email}. Open the link, or enter the code here.`,
    );
    const otp = /Your code is (\w{6})/.exec((await live.lastEmail(email)).subject)?.[1] ?? "";
    expect(otp).toHaveLength(6);

    const field = screen.getByLabelText("Code from the e-mail");
    await user.type(field, "abc");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(screen.getByText("Enter the 6-character code from the e-mail.")).toBeTruthy();

    await user.clear(field);
    await user.type(field, otp.toUpperCase());
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    // A new user arriving by e-mail code goes to afterSignUp (here the default, home).
    await waitFor(() => expect(live.navigations).toEqual(["/"]));
    expect((await app.getUser())?.primaryEmail).toBe(email);
  });

  it("says so to a signed-in user, who may continue or sign out", async () => {
    const email = uniqueEmail("already");
    await createUser(live, email);
    const app = live.newApp();
    const signedIn = await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    expect(signedIn.status).toBe("ok");
    const user = userEvent.setup();
    await renderWithApp(app, <SignIn />);
    expect(screen.getByText(`You are already signed in as ${email}.`)).toBeTruthy();
    expect(screen.queryByLabelText("Password")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(live.navigations).toEqual(["/"]));
    await user.click(screen.getByRole("button", { name: "Sign out" }));
    expect(await screen.findByLabelText("Password")).toBeTruthy();
    expect(await app.getUser()).toBeNull();
  });

  it("names an untrusted redirect target instead of following it", async () => {
    const email = uniqueEmail("untrusted");
    await createUser(live, email);
    const user = userEvent.setup();
    await renderWithApp(live.newApp({ afterSignIn: "https://evil.example/next" }), <SignIn />);
    await user.type(screen.getByLabelText("E-mail"), email);
    await user.type(screen.getByLabelText("Password"), PASSWORD);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Redirect URL is not trusted: https://evil.example/next",
    );
    expect(live.navigations).toEqual([]);
  });

  describe("sign-up", () => {
    beforeEach(() => visit("/handler/sign-up"));

    it("checks the password's length and repetition with the product's texts", async () => {
      const user = userEvent.setup();
      await renderWithApp(live.newApp(), <SignUp />);
      expect(screen.getByRole("heading", { name: "Create an account" })).toBeTruthy();
      expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/handler/sign-in");
      await user.type(screen.getByLabelText("E-mail"), uniqueEmail("short"));
      await user.type(screen.getByLabelText("Password"), "short");
      await user.click(screen.getByRole("button", { name: "Sign up" }));
      expect(screen.getByText("Password too short. Minimum length is 8.")).toBeTruthy();
      await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText("Password")));

      await user.clear(screen.getByLabelText("Password"));
      await user.click(screen.getByLabelText("Password"));
      await user.paste("x".repeat(257));
      await user.click(screen.getByRole("button", { name: "Sign up" }));
      expect(screen.getByText("Password too long. Maximum length is 256.")).toBeTruthy();

      await user.clear(screen.getByLabelText("Password"));
      await user.type(screen.getByLabelText("Password"), PASSWORD);
      await user.type(screen.getByLabelText("Repeat password"), `${PASSWORD}!`);
      await user.click(screen.getByRole("button", { name: "Sign up" }));
      expect(screen.getByText("Passwords do not match.")).toBeTruthy();
      expect(live.navigations).toEqual([]);
    });

    it("says in place that a password appeared in a data breach", async () => {
      const user = userEvent.setup();
      await renderWithApp(live.newApp(), <SignUp />);
      await user.type(screen.getByLabelText("E-mail"), uniqueEmail("breached"));
      await user.type(screen.getByLabelText("Password"), "password123");
      await user.type(screen.getByLabelText("Repeat password"), "password123");
      await user.click(screen.getByRole("button", { name: "Sign up" }));
      expect((await screen.findByText(/appeared in a data breach/)).textContent).toBe(
        "This password has appeared in a data breach. Please choose a different one.",
      );
      expect(live.navigations).toEqual([]);
    });

    it("says an e-mail is taken, and signs a new one up", async () => {
      const taken = uniqueEmail("taken");
      await createUser(live, taken);
      const user = userEvent.setup();
      const app = live.newApp();
      await renderWithApp(app, <SignUp />);
      await user.type(screen.getByLabelText("E-mail"), taken);
      await user.type(screen.getByLabelText("Password"), PASSWORD);
      await user.type(screen.getByLabelText("Repeat password"), PASSWORD);
      await user.click(screen.getByRole("button", { name: "Sign up" }));
      expect((await screen.findByRole("alert")).textContent).toBe(
        "An account with this e-mail already exists.",
      );

      const fresh = uniqueEmail("fresh");
      await user.clear(screen.getByLabelText("E-mail"));
      await user.type(screen.getByLabelText("E-mail"), fresh);
      await user.click(screen.getByRole("button", { name: "Sign up" }));
      // The address is not verified yet: on to the onboarding page, whose notice lasts.
      await waitFor(() => expect(live.navigations).toEqual(["/handler/onboarding?signed_up=1"]));
      expect((await app.getUser())?.primaryEmail).toBe(fresh);
    });

    it("after sign-up, says where the verification link went until the person goes on to afterSignUp", async () => {
      visit("/handler/sign-up?after_auth_return_to=%2Fwelcome");
      const user = userEvent.setup();
      const app = live.newApp();
      await renderWithApp(app, <SignUp />);
      const email = uniqueEmail("notice");
      await user.type(screen.getByLabelText("E-mail"), email);
      await user.type(screen.getByLabelText("Password"), PASSWORD);
      await user.type(screen.getByLabelText("Repeat password"), PASSWORD);
      await user.click(screen.getByRole("button", { name: "Sign up" }));
      // The return target travels along to the onboarding page.
      const onboarding = "/handler/onboarding?signed_up=1&after_auth_return_to=%2Fwelcome";
      await waitFor(() => expect(live.navigations).toEqual([onboarding]));
      cleanup();
      visit(onboarding);
      await renderWithApp(app, <Onboarding />);
      const notice = `Your account is ready. We sent a link to ${email}: open it to verify your e-mail address.`;
      expect((await screen.findByRole("status")).textContent).toBe(notice);
      // It stays: nothing moves on by itself while the address is unverified.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(live.navigations).toEqual([onboarding]);
      await user.click(screen.getByRole("button", { name: "Continue" }));
      await waitFor(() => expect(live.navigations).toEqual([onboarding, "/welcome"]));
    });

    it("without a return target, goes on to afterSignUp (not afterSignIn) from the notice", async () => {
      const app = live.newApp({ afterSignIn: "/in", afterSignUp: "/new" });
      await app.signUpWithCredential({ email: uniqueEmail("new"), password: PASSWORD, noRedirect: true });
      visit("/handler/onboarding?signed_up=1");
      const user = userEvent.setup();
      await renderWithApp(app, <Onboarding />);
      await user.click(await screen.findByRole("button", { name: "Continue" }));
      await waitFor(() => expect(live.navigations).toEqual(["/new"]));
    });
  });
});

describe("a project with only the e-mail code", () => {
  const live = liveSuite({ credential_enabled: false });
  beforeEach(() => visit("/handler/sign-in"));

  it("shows no password field and no tabs", async () => {
    await renderWithApp(live.newApp(), <SignIn />);
    expect(screen.queryByLabelText("Password")).toBeNull();
    expect(screen.queryByRole("tab")).toBeNull();
    expect(screen.getByLabelText("E-mail")).toBeTruthy();
    expect(screen.getByRole("button", { name: "E-mail me a code" })).toBeTruthy();
  });
});

describe("a project with OAuth and passkeys, password only, sign-up disabled", () => {
  const live = liveSuite({
    magic_link_enabled: false,
    passkey_enabled: true,
    sign_up_enabled: false,
    oauth_providers: [
      { id: "github", type: "shared", enabled: true },
      { id: "google", type: "shared", enabled: true },
    ],
  });
  beforeEach(() => visit("/handler/sign-in"));

  it("shows a button per provider, the passkey button, the password form, and no sign-up link", async () => {
    await renderWithApp(live.newApp(), <SignIn />);
    expect(screen.getByRole("button", { name: "Sign in with GitHub" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Sign in with Google" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Sign in with passkey" })).toBeTruthy();
    expect(screen.getByLabelText("Password")).toBeTruthy();
    expect(screen.queryByRole("tab")).toBeNull();
    expect(screen.queryByRole("button", { name: "E-mail me a code" })).toBeNull();
    expect(screen.queryByRole("link", { name: "Sign up" })).toBeNull();
  });

  it("says when the browser cannot use passkeys", async () => {
    const user = userEvent.setup();
    await renderWithApp(live.newApp(), <SignIn />);
    await user.click(screen.getByRole("button", { name: "Sign in with passkey" }));
    expect((await screen.findByRole("alert")).textContent).toBe("This browser does not support passkeys.");
  });

  it("shows a message instead of the sign-up form", async () => {
    visit("/handler/sign-up");
    await renderWithApp(live.newApp(), <SignUp />);
    expect(screen.getByText("Creating new accounts is not enabled for this site.")).toBeTruthy();
    expect(screen.queryByLabelText("Password")).toBeNull();
    expect(screen.queryByRole("button", { name: /Sign up with/ })).toBeNull();
    expect(screen.getByRole("link", { name: "Back to sign in" }).getAttribute("href")).toBe(
      "/handler/sign-in",
    );
  });
});
