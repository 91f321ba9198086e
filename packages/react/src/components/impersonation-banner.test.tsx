// @vitest-environment happy-dom
// Impersonation against a real server: the SDK's server user opens an impersonation session (createSession with
// isImpersonation), the client app takes it over only when the server lists it as one, the impersonation page does
// so from a dashboard link, and the banner shows while it lasts and ends it.
import { StackAdminApp, type StackClientApp } from "@gatehouse/sdk";
import { cleanup, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useIsImpersonation } from "../hooks.ts";
import { ImpersonationPage } from "../pages/impersonation.tsx";
import { createLive, inProcessFetch, type LiveSetup } from "../test-support/live.ts";
import { renderWithApp, visit } from "../test-support/render.tsx";
import { ImpersonationBanner } from "./impersonation-banner.tsx";

const HOUR = 3600 * 1000;
let live: LiveSetup;
let admin: StackAdminApp;

beforeAll(async () => {
  live = await createLive();
  admin = new StackAdminApp({
    projectId: live.keys.projectId,
    superSecretAdminKey: live.keys.sak,
    baseUrl: "http://localhost:8102",
    fetch: inProcessFetch(live.server),
  });
});
afterAll(() => live.close());
afterEach(cleanup);

/** A user of the project (made by the admin app) and the admin's server view of them. */
async function targetUser(displayName: string) {
  const email = `${crypto.randomUUID()}@example.com`;
  return admin.createUser({ primaryEmail: email, displayName, primaryEmailAuthEnabled: true });
}

/** The tokens of a session the admin app opens for the user. */
async function sessionOf(displayName: string, isImpersonation: boolean) {
  const user = await targetUser(displayName);
  const session = await user.createSession({ expiresInMillis: HOUR, isImpersonation });
  return session.getTokens();
}

/** A fresh client app (its own memory store), signed in with an admin-made impersonation of a new user. */
async function impersonating(displayName: string): Promise<StackClientApp> {
  const app = live.newApp();
  expect(await app.signInWithImpersonation(await sessionOf(displayName, true), { noRedirect: true })).toBe(
    true,
  );
  return app;
}

describe("the SDK", () => {
  it("takes over an impersonation session, and says so on the current session", async () => {
    const app = await impersonating("Grace");
    const user = await app.getUser({ or: "throw" });
    expect(user.displayName).toBe("Grace");
    expect(await user.currentSession.isImpersonation()).toBe(true);
    // The impersonated user's own sessions never show it; the admin's view does.
    const target = await admin.getUser(user.id);
    expect((await target?.getActiveSessions())?.map((s) => s.isImpersonation)).toEqual([true]);
  });

  it("refuses an ordinary session's tokens (a crafted link) and keeps the visitor signed out", async () => {
    const app = live.newApp();
    expect(await app.signInWithImpersonation(await sessionOf("Linus", false), { noRedirect: true })).toBe(
      false,
    );
    expect(await app.getUser()).toBeNull();
    const ended = { accessToken: "x.y.z", refreshToken: "0".repeat(45) };
    expect(await app.signInWithImpersonation(ended, { noRedirect: true })).toBe(false);
  });

  it("reports an ordinary sign-in as no impersonation", async () => {
    const app = live.newApp();
    const email = `${crypto.randomUUID()}@example.com`;
    await app.signUpWithCredential({ email, password: "correct horse battery", noRedirect: true });
    expect(await (await app.getUser({ or: "throw" })).currentSession.isImpersonation()).toBe(false);
  });
});

describe("<ImpersonationBanner>", () => {
  it("names the user while the session is an impersonation, and End signs out", async () => {
    const app = await impersonating("Ada Lovelace");
    const user = await app.getUser({ or: "throw" });
    const { refreshToken } = await user.currentSession.getTokens();
    await renderWithApp(app, <ImpersonationBanner />);
    const banner = await screen.findByRole("complementary", { name: "Impersonation" });
    expect(banner.textContent).toContain("You are signed in as Ada Lovelace by impersonation.");
    await userEvent.click(screen.getByRole("button", { name: "End the impersonation of Ada Lovelace" }));
    await waitFor(() => expect(screen.queryByRole("complementary")).toBeNull());
    expect(await app.getUser()).toBeNull();
    // Ended at the server too: the handed-over refresh token no longer works.
    const again = live.newApp();
    expect(
      await again.signInWithImpersonation({ accessToken: "x.y.z", refreshToken: refreshToken ?? "" }),
    ).toBe(false);
  });

  it("shows nothing for an ordinary session or a signed-out visitor", async () => {
    // The banner's own check, read beside it: once it says false, the banner has decided too.
    function Check() {
      return <p>impersonation: {String(useIsImpersonation())}</p>;
    }
    const app = live.newApp();
    const both = (
      <>
        <ImpersonationBanner />
        <Check />
      </>
    );
    await renderWithApp(app, both);
    await screen.findByText("impersonation: false");
    expect(screen.queryByRole("complementary")).toBeNull();
    cleanup();
    const email = `${crypto.randomUUID()}@example.com`;
    await app.signUpWithCredential({ email, password: "correct horse battery", noRedirect: true });
    await renderWithApp(app, both);
    await screen.findByText("impersonation: false");
    expect(screen.queryByRole("complementary")).toBeNull();
    expect(screen.queryByText(/by impersonation/)).toBeNull();
  });
});

describe("the impersonation page", () => {
  it("signs in from the link's fragment, clears it from the address bar, and goes on to afterSignIn", async () => {
    const tokens = await sessionOf("Margaret", true);
    const app = live.newApp({ afterSignIn: "/notes" });
    const fragment = new URLSearchParams({
      access_token: tokens.accessToken,
      refresh_token: tokens.refreshToken,
    });
    visit(`/handler/impersonation#${fragment}`);
    await renderWithApp(app, <ImpersonationPage />);
    expect(window.location.hash).toBe("");
    await waitFor(() => expect(live.navigations.at(-1)).toBe("/notes"));
    expect((await app.getUser({ or: "throw" })).displayName).toBe("Margaret");
  });

  it("refuses a link without an impersonation session", async () => {
    const tokens = await sessionOf("Barbara", false);
    const app = live.newApp();
    const fragment = new URLSearchParams({
      access_token: tokens.accessToken,
      refresh_token: tokens.refreshToken,
    });
    visit(`/handler/impersonation#${fragment}`);
    await renderWithApp(app, <ImpersonationPage />);
    expect(await screen.findByRole("alert")).toHaveProperty(
      "textContent",
      expect.stringContaining("does not hold an impersonation session"),
    );
    expect(await app.getUser()).toBeNull();
  });
});
