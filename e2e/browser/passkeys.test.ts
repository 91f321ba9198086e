// Passkeys in a real browser (WIRE.md §4.4, §7): Chromium with a virtual platform authenticator (Chrome DevTools
// Protocol) runs an app page that registers a passkey against the real server process and signs in with it
// without naming the user; a page on an origin the project does not trust is refused. Screenshots of each step go to
// test-output/passkeys/. Chromium must be installed (CI: apt-get install chromium); without it the suite fails.
import { join } from "node:path";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, type Json, operatorProject, startIsolatedServer } from "../support.ts";
import { addVirtualAuthenticator, launchChromium, screenshotDir } from "./harness.ts";
import { type PasskeyDemo, type StepResult, startPageServer } from "./passkey-page.ts";

const PASSWORD = "correct horse battery";

let gatehouse: Awaited<ReturnType<typeof startIsolatedServer>>;
let server: RunningServer;
let pageServer: Awaited<ReturnType<typeof startPageServer>>;
let browser: Browser;
let screenshots: string;

beforeAll(async () => {
  gatehouse = await startIsolatedServer("passkeys");
  server = gatehouse.server;
  pageServer = await startPageServer();
  browser = await launchChromium();
  screenshots = await screenshotDir("passkeys");
});

afterAll(async () => {
  await browser?.close();
  await pageServer?.close();
  await gatehouse?.stop();
});

const call = apiCaller(() => server);

/** A project with passkeys on, made the way the dashboard makes one: its admin headers and a publishable key. */
async function createPasskeyProject() {
  const { projectId, project, admin } = await operatorProject(server, {
    display_name: "Passkey shop",
    config: { passkey_enabled: true },
  });
  const keySet = await call("POST", "/internal/api-keys", admin, {
    description: "shop web app",
    expires_at_millis: Date.now() + 24 * 3600 * 1000,
    has_publishable_client_key: true,
    has_secret_server_key: false,
    has_super_secret_admin_key: false,
  });
  return { projectId, admin, config: project.config as Json, pck: String(keySet.publishable_client_key) };
}

type Project = Awaited<ReturnType<typeof createPasskeyProject>>;

/** A page of the app on `origin`, in a fresh browser context with its own virtual platform authenticator. */
async function openApp(project: Project, host: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { cdp, authenticatorId } = await addVirtualAuthenticator(context, page);
  const origin = `http://${host}:${pageServer.port}`;
  const query = new URLSearchParams({ api: server.baseUrl, project: project.projectId, pck: project.pck });
  await page.goto(`${origin}/?${query}`);
  await expectStatus(page, "Ready: signed out");
  return { page, cdp, authenticatorId, origin, close: () => context.close() };
}

/** Runs one of the page's steps (`window.demo`). */
function step<K extends keyof PasskeyDemo>(page: Page, name: K, ...args: Parameters<PasskeyDemo[K]>) {
  return page.evaluate(
    ([name, args]) => {
      const demo = (
        globalThis as unknown as { demo: Record<string, (...a: unknown[]) => Promise<StepResult>> }
      ).demo;
      return demo[name]!(...args);
    },
    [name, args] as const,
  );
}

async function expectStatus(page: Page, text: string) {
  expect(await page.textContent("#status")).toBe(text);
}

const screenshot = (page: Page, name: string) => page.screenshot({ path: join(screenshots, `${name}.png`) });

async function credentialsOf(cdp: CDPSession, authenticatorId: string) {
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  return credentials;
}

/** A known-error answer of a page step, with the passkey error's `details.message`. */
function expectRefusal(result: StepResult, code: string, message: string) {
  expect(result).toEqual({
    status: 400,
    body: { code, message, error: message, details: { message } },
  });
}

describe("passkeys in Chromium", () => {
  it("registers a passkey on a trusted page and signs in with it; an untrusted page is refused", async () => {
    const project = await createPasskeyProject();
    expect(project.config).toMatchObject({ passkey_enabled: true, allow_localhost: true, domains: [] });

    // A trusted page: localhost, trusted because allow_localhost is on for new projects.
    const app = await openApp(project, "localhost");
    const email = "ada@example.com";
    const signedUp = await step(app.page, "signUp", email, PASSWORD);
    expect(signedUp.status).toBe(200);
    const userId = String(signedUp.body.user_id);
    await expectStatus(app.page, `Signed up as ${email} (user ${userId})`);
    await screenshot(app.page, "1-signed-up");

    const registered = await step(app.page, "registerPasskey");
    expect(registered.status).toBe(200);
    const [credential, ...others] = await credentialsOf(app.cdp, app.authenticatorId);
    expect(others).toEqual([]);
    expect(credential).toMatchObject({ rpId: "localhost", isResidentCredential: true });
    expect(Buffer.from(credential?.userHandle ?? "", "base64").toString("utf8")).toBe(userId);
    expect(Buffer.from(credential?.credentialId ?? "", "base64").toString("base64url")).toBe(
      registered.body.user_handle,
    );
    expect((await step(app.page, "me")).body).toMatchObject({ id: userId, passkey_auth_enabled: true });
    await expectStatus(
      app.page,
      `Passkey registered for ${email} (credential ${registered.body.user_handle})`,
    );
    await screenshot(app.page, "2-passkey-registered");

    await step(app.page, "signOut");
    expect((await step(app.page, "me")).body).toMatchObject({ code: "CANNOT_GET_OWN_USER_WITHOUT_USER" });
    await screenshot(app.page, "3-signed-out");

    const signedIn = await step(app.page, "signInWithPasskey");
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ user_id: userId, is_new_user: false });
    expect((await step(app.page, "me")).body).toMatchObject({ id: userId, primary_email: email });
    await expectStatus(app.page, `Signed in with a passkey as ${email} (user ${userId})`);
    await screenshot(app.page, "4-signed-in-with-passkey");

    // Localhost in general is no longer trusted, only this page's exact origin.
    const configured = await call("PATCH", "/projects/current", project.admin, {
      config: { allow_localhost: false, domains: [{ domain: app.origin, handler_path: "/handler" }] },
    });
    expect(configured.config).toMatchObject({ allow_localhost: false });
    expect(app.origin).toMatch(/^http:\/\/localhost:\d+$/);

    // The same app served from another origin, evil.localhost (Chromium resolves *.localhost to this machine).
    const untrusted = await openApp(project, "evil.localhost");
    const refusal = `The origin ${untrusted.origin} is not a trusted domain of this project.`;
    const mallory = await step(untrusted.page, "signUp", "mallory@example.com", PASSWORD);
    expect(mallory.status).toBe(200);
    // The browser makes the passkey (for RP id evil.localhost); Gatehouse refuses to register it.
    expectRefusal(await step(untrusted.page, "registerPasskey"), "PASSKEY_REGISTRATION_FAILED", refusal);
    expect(await credentialsOf(untrusted.cdp, untrusted.authenticatorId)).toMatchObject([
      { rpId: "evil.localhost" },
    ]);
    expect((await step(untrusted.page, "me")).body).toMatchObject({ passkey_auth_enabled: false });
    await expectStatus(
      untrusted.page,
      `Passkey registration failed: PASSKEY_REGISTRATION_FAILED: ${refusal}`,
    );
    await screenshot(untrusted.page, "5-untrusted-registration-refused");

    // Signing in there with that passkey is refused for the same reason, before anything else is looked at.
    await step(untrusted.page, "signOut");
    expectRefusal(await step(untrusted.page, "signInWithPasskey"), "PASSKEY_AUTHENTICATION_FAILED", refusal);
    expect((await step(untrusted.page, "me")).body).toMatchObject({
      code: "CANNOT_GET_OWN_USER_WITHOUT_USER",
    });
    await expectStatus(untrusted.page, `Passkey sign-in failed: PASSKEY_AUTHENTICATION_FAILED: ${refusal}`);
    await screenshot(untrusted.page, "6-untrusted-sign-in-refused");
    await untrusted.close();

    // The trusted page, now trusted through its domain entry, still signs in.
    await step(app.page, "signOut");
    expect((await step(app.page, "signInWithPasskey")).body).toMatchObject({ user_id: userId });
    await app.close();
  });
});
