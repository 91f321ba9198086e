// @vitest-environment happy-dom
// The OAuth buttons and callback page against a real server and its development provider: a button starts the flow
// (the browser is sent to the provider), the provider's answer signs in once even under StrictMode, a page reached
// without a flow or with a callback error says so, and a TOTP user gets the MFA step with the callback's texts.
import { cleanup, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { StrictMode } from "react";
import { beforeEach, expect, it } from "vitest";
import { OAuthButton, OAuthButtonGroup, providerDisplayName } from "../../components/oauth-button.tsx";
import { renderWithApp, visit } from "../../test-support/render.tsx";
import { OAuthCallback } from "./oauth-callback.tsx";
import { liveSuite, TOTP_SECRET, totpNow, uniqueEmail, wrongTotp } from "./test-helpers.ts";

const live = liveSuite({ oauth_providers: [{ id: "github", type: "shared", enabled: true }] });
beforeEach(() => {
  visit("/handler/sign-in");
});

/** Clicks the GitHub button on sign-in and answers the provider's page as `email`: the app's callback URL. */
async function throughGitHub(email: string): Promise<URL> {
  const user = userEvent.setup();
  const app = live.newApp();
  const view = await renderWithApp(app, <OAuthButton provider="github" type="sign-in" />);
  const button = screen.getByRole("button", { name: "Sign in with GitHub" });
  await user.click(button);
  await waitFor(() => expect(live.navigations).toHaveLength(1));
  // Still busy: the browser is leaving for the provider.
  expect(button.getAttribute("aria-busy")).toBe("true");
  view.unmount();
  const page = new URL(live.navigations[0] ?? "");
  expect(page.pathname).toBe("/api/v1/auth/oauth/development/github");
  live.navigations.length = 0;
  const chosen = await live.server.request(page.pathname, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      state: page.searchParams.get("state") ?? "",
      code_challenge: page.searchParams.get("code_challenge") ?? "",
      redirect_uri: page.searchParams.get("redirect_uri") ?? "",
      action: "allow",
      email,
    }).toString(),
  });
  expect(chosen.status).toBe(303);
  const callback = new URL(chosen.headers.get("location") ?? "");
  const landed = await live.server.request(callback.pathname + callback.search);
  expect(landed.status).toBe(303);
  return new URL(landed.headers.get("location") ?? "");
}

it("names providers as they name themselves", () => {
  expect(providerDisplayName("github")).toBe("GitHub");
  expect(providerDisplayName("linkedin")).toBe("LinkedIn");
  expect(providerDisplayName("x")).toBe("X");
  expect(providerDisplayName("oidc")).toBe("OpenID Connect");
  expect(providerDisplayName("oidc-okta")).toBe("Okta");
});

it("shows a sign-up button per enabled provider", async () => {
  await renderWithApp(live.newApp(), <OAuthButtonGroup type="sign-up" />);
  expect(screen.getAllByRole("button").map((button) => button.textContent)).toEqual(["Sign up with GitHub"]);
});

it("signs in once from the provider's answer, even under StrictMode", async () => {
  const landing = await throughGitHub(uniqueEmail("oauth"));
  expect(landing.pathname).toBe("/handler/oauth-callback");
  visit(landing.pathname + landing.search);
  const app = live.newApp();
  await renderWithApp(
    app,
    <StrictMode>
      <OAuthCallback />
    </StrictMode>,
  );
  await waitFor(() => expect(live.navigations).toEqual(["/"]));
  expect(screen.getByRole("status", { name: "Signing you in…" })).toBeTruthy();
  expect(screen.queryByRole("alert")).toBeNull();
  expect(await app.getUser()).not.toBeNull();
});

it("says so when the page was not reached from a flow of this browser", async () => {
  visit("/handler/oauth-callback?code=abc&state=unknown");
  await renderWithApp(live.newApp(), <OAuthCallback />);
  expect((await screen.findByRole("alert")).textContent).toBe(
    "This page was not reached from a sign-in of this browser. Please sign in again.",
  );
  expect(screen.getByRole("link", { name: "Back to sign in" }).getAttribute("href")).toBe("/handler/sign-in");
});

it("shows a callback error reported in the query", async () => {
  visit("/handler/oauth-callback?errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=The+user+denied+access.");
  await renderWithApp(live.newApp(), <OAuthCallback />);
  expect((await screen.findByRole("alert")).textContent).toBe("Sign-in was cancelled at the provider.");
  expect(live.navigations).toEqual([]);
});

it("asks a TOTP user for the code, with the callback's text for a wrong one", async () => {
  const email = uniqueEmail("oauth-mfa");
  // The first sign-in creates the user; then they turn on TOTP.
  visit((await throughGitHub(email)).toString());
  const first = live.newApp();
  await renderWithApp(first, <OAuthCallback />);
  await waitFor(() => expect(live.navigations).toEqual(["/"]));
  const id = (await first.getUser())?.id;
  await live.admin("PATCH", `/users/${id}`, { totp_secret_base64: TOTP_SECRET });
  cleanup();
  live.navigations.length = 0;

  visit("/handler/sign-in");
  const landing = await throughGitHub(email);
  visit(landing.pathname + landing.search);
  const app = live.newApp();
  const user = userEvent.setup();
  await renderWithApp(app, <OAuthCallback />);
  expect(await screen.findByRole("heading", { name: "Two-factor authentication" })).toBeTruthy();
  const code = screen.getByLabelText("Authentication code");
  await user.type(code, wrongTotp(live));
  await user.click(screen.getByRole("button", { name: "Verify" }));
  expect(await screen.findByText("Invalid TOTP code. Please try signing in again.")).toBeTruthy();
  expect(await app.getUser()).toBeNull();

  await user.clear(code);
  await user.type(code, totpNow(live));
  await user.click(screen.getByRole("button", { name: "Verify" }));
  await waitFor(() => expect(live.navigations).toEqual(["/"]));
  expect((await app.getUser())?.id).toBe(id);
});
