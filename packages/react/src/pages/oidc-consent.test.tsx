// @vitest-environment happy-dom
// The OpenID Provider's consent page against a real server: an app's pending sign-in (an interaction stored by the
// project's provider, as its authorization endpoint would) shows the app's name, logo and scopes; Allow grants them
// and sends the browser back through the provider; a missing or unknown request says so.
import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, visit } from "../test-support/render.tsx";
import { liveSuite, PASSWORD, uniqueEmail } from "./auth/test-helpers.ts";
import { OidcConsent } from "./oidc-consent.tsx";

const live = liveSuite();

async function signedIn() {
  const app = live.newApp();
  const result = await app.signUpWithCredential({
    email: uniqueEmail("oidc"),
    password: PASSWORD,
    noRedirect: true,
  });
  if (result.status === "error") throw result.error;
  return { app, userId: (await app.getUser({ or: "throw" })).id };
}

/** An app's sign-in waiting at the consent step, as the provider's authorization endpoint leaves it. */
async function pendingSignIn(scope: string, extra: Record<string, unknown> = {}) {
  const client = await live.admin("POST", "/oidc-provider/clients", {
    display_name: "Wiki",
    type: "confidential",
    redirect_uris: ["https://rp.example.com/callback"],
    logo_url: "https://rp.example.com/logo.png",
    ...extra,
  });
  const provider = await live.server.deps.oidcProvider.providerFor(live.keys.projectId);
  const uid = `test-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const returnTo = `http://localhost:8102/api/v1/projects/${live.keys.projectId}/oidc/auth/${uid}`;
  const interaction = new provider.Interaction(uid, {
    params: { client_id: client.client_id, scope, redirect_uri: "https://rp.example.com/callback" },
    prompt: { name: "consent", reasons: ["op_scopes_missing"], details: {} },
    returnTo,
  });
  await interaction.save(600);
  return { uid, returnTo, clientId: client.client_id as string };
}

describe("OIDC consent page", () => {
  it("shows the app and its scopes, and Allow grants them and continues through the provider", async () => {
    const { app, userId } = await signedIn();
    const { uid, returnTo, clientId } = await pendingSignIn("openid email");
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    visit(`/handler/oidc-consent?interaction_id=${uid}`);
    await renderWithApp(app, <OidcConsent />);
    expect(await screen.findByRole("heading", { name: "Sign in to Wiki" })).toBeTruthy();
    expect(screen.getByText("See your e-mail address")).toBeTruthy();
    expect(screen.getByText("Know who you are")).toBeTruthy();
    expect(document.querySelector("img")?.getAttribute("src")).toBe("https://rp.example.com/logo.png");
    await userEvent.click(screen.getByRole("button", { name: "Allow" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(returnTo));
    const grants = await live.server.deps.oidcProvider.interactions.grants(live.keys.projectId, userId);
    expect(grants).toEqual([expect.objectContaining({ client_id: clientId, scopes: ["openid", "email"] })]);
  });

  it("continues without a click for a first-party app", async () => {
    const { app } = await signedIn();
    const { uid, returnTo } = await pendingSignIn("openid profile", { first_party: true });
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    visit(`/handler/oidc-consent?interaction_id=${uid}`);
    await renderWithApp(app, <OidcConsent />);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(returnTo));
    expect(screen.queryByRole("button", { name: "Allow" })).toBeNull();
  });

  it("says so when the link has no request, or the request is unknown", async () => {
    const { app } = await signedIn();
    visit("/handler/oidc-consent");
    const { unmount } = await renderWithApp(app, <OidcConsent />);
    expect(await screen.findByText(/has no sign-in request/)).toBeTruthy();
    unmount();
    visit("/handler/oidc-consent?interaction_id=nope");
    await renderWithApp(app, <OidcConsent />);
    expect(await screen.findByText(/sign-in request has expired/)).toBeTruthy();
  });
});
