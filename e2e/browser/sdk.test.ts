// Our SDK (@gatehouse/sdk) in a real browser against the real server process: the SDK bundled by esbuild as an app
// would bundle it, an app page on its own loopback origin (sdk-page.ts) and Chromium driving it. Covers the cookie
// token store (WIRE.md §3.6: names, formats, reading back after a reload, tabs kept in sync), OAuth through the
// development provider with `after_auth_return_to` and the after-sign-in/-up pages, passkeys with a virtual
// authenticator, and the refusal of an untrusted return target. Screenshots go to test-output/sdk/.
import { join } from "node:path";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, operatorProject, startIsolatedServer } from "../support.ts";
import { addVirtualAuthenticator, launchChromium, screenshotDir } from "./harness.ts";
import {
  configQuery,
  navigatingOnApp,
  onApp,
  type PageConfig,
  startSdkPageServer,
  waitForApp,
} from "./sdk-page.ts";

const PASSWORD = "correct horse battery";
/** How long another tab may take to see a sign-out (the cookie store re-reads every 100 ms). */
const TAB_SYNC_LIMIT_MS = 1000;

let gatehouse: Awaited<ReturnType<typeof startIsolatedServer>>;
let server: RunningServer;
let pageServer: Awaited<ReturnType<typeof startSdkPageServer>>;
let browser: Browser;
let screenshots: string;
let project: { projectId: string; publishableClientKey: string };

const call = apiCaller(() => server);

/** A project made as the dashboard makes one, with passkeys and GitHub (the development provider: no keys). */
async function createProject() {
  const { projectId, admin } = await operatorProject(server, {
    display_name: "SDK shop",
    config: {
      passkey_enabled: true,
      oauth_providers: [{ id: "github", type: "shared", enabled: true }],
    },
  });
  const keySet = await call("POST", "/internal/api-keys", admin, {
    description: "shop web app",
    expires_at_millis: Date.now() + 24 * 3600 * 1000,
    has_publishable_client_key: true,
    has_secret_server_key: false,
    has_super_secret_admin_key: false,
  });
  return { projectId, publishableClientKey: String(keySet.publishable_client_key) };
}

beforeAll(async () => {
  // Test identities for the shop's GitHub button (the development provider is only ever on when asked for).
  gatehouse = await startIsolatedServer("sdk-browser", { GATEHOUSE_DEVELOPMENT_OAUTH: "*" });
  server = gatehouse.server;
  pageServer = await startSdkPageServer();
  browser = await launchChromium();
  screenshots = await screenshotDir("sdk");
  project = await createProject();
});

afterAll(async () => {
  await browser?.close();
  await pageServer?.close();
  await gatehouse?.stop();
});

let emails = 0;
const uniqueEmail = (name: string) => `${name}-${Date.now()}-${++emails}@example.com`;

const screenshot = (page: Page, name: string) => page.screenshot({ path: join(screenshots, `${name}.png`) });

/** Uncaught errors of a context's pages (a failed SDK call started without awaiting lands here too). */
function collectPageErrors(context: BrowserContext): string[] {
  const errors: string[] = [];
  const watch = (page: Page) => page.on("pageerror", (error) => errors.push(error.message));
  context.pages().forEach(watch);
  context.on("page", watch);
  return errors;
}

/** Opens the app at `path` in `context`, handing it the project (and `urls`) through its config query. */
async function openApp(context: BrowserContext, path = "/", urls?: PageConfig["urls"]): Promise<Page> {
  const page = await context.newPage();
  const config: PageConfig = { api: server.baseUrl, ...project, urls };
  const separator = path.includes("?") ? "&" : "?";
  await page.goto(`${pageServer.origin}${path}${separator}${configQuery(config)}`);
  await waitForApp(page);
  return page;
}

/** Goes to another page of the app in the same tab (its config is in sessionStorage by now). */
async function goTo(page: Page, path: string): Promise<void> {
  await page.goto(`${pageServer.origin}${path}`);
  await waitForApp(page);
}

const statusOf = (page: Page) => page.textContent("#status");

/**
 * Waits for the page to get to `url`; when it does not, saves a screenshot `stuck-on-<path>.png` and fails with
 * where it stayed and what its status line says.
 */
async function reach(page: Page, url: string | ((url: URL) => boolean)): Promise<void> {
  try {
    await page.waitForURL(url, { timeout: 10_000 });
  } catch (error) {
    const status = await statusOf(page).catch(() => "(no status line)");
    await screenshot(page, `stuck-on${new URL(page.url()).pathname.replace(/\W+/g, "-")}`);
    throw new Error(`The page stayed on ${page.url()}: ${status}`, { cause: error });
  }
}

/** The signed-in user as the page's app reads it (`getUser()`), or null. */
function userOf(page: Page) {
  return onApp(page, async (app) => {
    const user = await app.getUser();
    return (
      user && {
        id: user.id,
        primaryEmail: user.primaryEmail,
        displayName: user.displayName,
        passkeyAuthEnabled: user.passkeyAuthEnabled,
        oauthProviders: user.oauthProviders,
      }
    );
  });
}

/** Signs up with a password, staying on the page; answers "ok" or the known error's code. */
function signUp(page: Page, email: string): Promise<string> {
  return onApp(
    page,
    async (app, credential) => {
      const result = await app.signUpWithCredential({ ...credential, noRedirect: true });
      return result.status === "ok" ? "ok" : result.error.code;
    },
    { email, password: PASSWORD },
  );
}

/** Signs out through the current user (the SDK then goes to afterSignOut) and waits for that page. */
async function signOut(page: Page): Promise<void> {
  await navigatingOnApp(page, (app) => {
    void app.getUser().then((user) => user?.signOut());
  });
}

/** A cookie's value as the page wrote it (percent-encoded like js-cookie does), decoded. */
async function cookieOf(context: BrowserContext, name: string) {
  const cookie = (await context.cookies(pageServer.origin)).find((c) => c.name === name);
  return cookie && { ...cookie, value: decodeURIComponent(cookie.value) };
}

/** The JWT payload, unverified. */
const jwtPayload = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;

describe("@gatehouse/sdk in Chromium", () => {
  it("keeps the session in cookies: read back after a reload, shared with a second tab, signed out in both", async () => {
    const context = await browser.newContext();
    const errors = collectPageErrors(context);
    const tab = await openApp(context);
    expect(await statusOf(tab)).toBe("Signed out");
    expect(await userOf(tab)).toBeNull();

    const email = uniqueEmail("cookie");
    const before = Date.now();
    expect(await signUp(tab, email)).toBe("ok");
    const user = await userOf(tab);
    expect(user).toMatchObject({ primaryEmail: email, passkeyAuthEnabled: false });
    const userId = String(user?.id);
    await expect.poll(() => statusOf(tab)).toBe(`Signed in as <${email}>`);
    await screenshot(tab, "1-signed-up");

    // WIRE.md §3.6: the structured refresh cookie and the access cookie, on the page's origin, over http without
    // `__Host-` and Secure.
    const refreshCookie = await cookieOf(context, `stack-refresh-${project.projectId}--default`);
    expect(refreshCookie).toMatchObject({ path: "/", sameSite: "Lax", secure: false, httpOnly: false });
    const refresh = JSON.parse(refreshCookie?.value ?? "null") as {
      refresh_token: string;
      updated_at_millis: number;
    };
    expect(refresh).toEqual({ refresh_token: expect.any(String), updated_at_millis: expect.any(Number) });
    expect(refresh.updated_at_millis).toBeGreaterThanOrEqual(before);
    expect(refresh.updated_at_millis).toBeLessThanOrEqual(Date.now());
    expect(refreshCookie?.expires).toBeGreaterThan(Date.now() / 1000 + 31_536_000 - 120);
    const accessCookie = await cookieOf(context, "stack-access");
    expect(accessCookie).toMatchObject({ path: "/", sameSite: "Lax", secure: false });
    expect(accessCookie?.expires).toBeGreaterThan(Date.now() / 1000 + 86_400 - 120);
    const [accessRefresh, accessToken] = JSON.parse(accessCookie?.value ?? "null") as [string, string];
    expect(accessRefresh).toBe(refresh.refresh_token);
    expect(jwtPayload(accessToken)).toMatchObject({ sub: userId });
    const tokens = await onApp(tab, async (app) => (await app.getUser())?.currentSession.getTokens());
    expect(tokens).toEqual({ accessToken, refreshToken: refresh.refresh_token });

    // A reload starts a new app, which reads the session back from the cookies.
    await tab.reload();
    await waitForApp(tab);
    expect(await userOf(tab)).toMatchObject({ id: userId, primaryEmail: email });
    expect(await statusOf(tab)).toBe(`Signed in as <${email}>`);

    // A second tab of the same browser is signed in as the same user.
    const other = await openApp(context);
    expect(await userOf(other)).toMatchObject({ id: userId });
    expect(await statusOf(other)).toBe(`Signed in as <${email}>`);
    await screenshot(other, "2-second-tab-signed-in");

    // Signing out in the second tab ends the session on the server and clears the cookies…
    await signOut(other);
    expect(other.url()).toBe(`${pageServer.origin}/`);
    expect(await statusOf(other)).toBe("Signed out");
    expect(await cookieOf(context, `stack-refresh-${project.projectId}--default`)).toBeUndefined();
    expect(await cookieOf(context, "stack-access")).toBeUndefined();
    const refused = await fetch(`${server.baseUrl}/api/v1/auth/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: refresh.refresh_token,
        client_id: project.projectId,
        client_secret: project.publishableClientKey,
      }),
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED" });

    // …and the first tab, never reloaded, sees it within a second.
    const elapsed = await onApp(
      tab,
      async (app, limit) => {
        const start = performance.now();
        while ((await app.getUser()) !== null && performance.now() - start < limit) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return performance.now() - start;
      },
      TAB_SYNC_LIMIT_MS,
    );
    expect(elapsed).toBeLessThan(TAB_SYNC_LIMIT_MS);
    expect(await userOf(tab)).toBeNull();
    await expect.poll(() => statusOf(tab)).toBe("Signed out");
    await screenshot(tab, "3-first-tab-signed-out-by-second");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("signs in with GitHub (development provider) and returns to the page that asked", async () => {
    const context = await browser.newContext();
    const errors = collectPageErrors(context);
    const page = await openApp(context);
    expect(
      await onApp(page, (app) => ({ afterSignIn: app.urls.afterSignIn, afterSignUp: app.urls.afterSignUp })),
    ).toEqual({ afterSignIn: "/", afterSignUp: "/" });

    // A page that needs a user sends the browser to sign in, remembering where it was.
    await goTo(page, "/orders?x=1");
    expect(await statusOf(page)).toBe("Signed out");
    await navigatingOnApp(page, (app) => void app.redirectToSignIn());
    expect(page.url()).toBe(`${pageServer.origin}/handler/sign-in?after_auth_return_to=%2Forders%3Fx%3D1`);

    await onApp(page, (app) => void app.signInWithOAuth("github"));
    await reach(page, `${server.baseUrl}/api/v1/auth/oauth/development/github?**`);
    await screenshot(page, "4-development-provider");
    await page.getByRole("button", { name: /Continue as Ada Lovelace/ }).click();
    // The callback page exchanges the code and goes on to the page that asked for sign-in.
    await reach(page, `${pageServer.origin}/orders?x=1`);
    await waitForApp(page);
    expect(await userOf(page)).toMatchObject({
      primaryEmail: "ada@example.com",
      displayName: "Ada Lovelace",
      oauthProviders: [{ id: "github" }],
    });
    expect(await statusOf(page)).toBe("Signed in as Ada Lovelace <ada@example.com>");
    await screenshot(page, "5-oauth-back-on-orders");
    // The PKCE verifier cookie was consumed.
    const cookieNames = (await context.cookies(pageServer.origin)).map((c) => c.name);
    expect(cookieNames.filter((name) => name.startsWith("stack-oauth-outer-"))).toEqual([]);
    expect(cookieNames).toContain(`stack-refresh-${project.projectId}--default`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lands a new OAuth user on afterSignUp and a returning one on afterSignIn", async () => {
    /** Signs in with GitHub from `path` as the identity `choose` picks; answers the page it ends on. */
    async function oauthFrom(
      path: string,
      urls: PageConfig["urls"],
      choose: (page: Page) => Promise<void>,
    ): Promise<{ path: string; status: string | null; errors: string[] }> {
      const context = await browser.newContext();
      const errors = collectPageErrors(context);
      const page = await openApp(context, path, urls);
      await onApp(page, (app) => void app.signInWithOAuth("github"));
      await reach(page, `${server.baseUrl}/api/v1/auth/oauth/development/github?**`);
      await choose(page);
      await reach(
        page,
        (url) => url.origin === pageServer.origin && url.pathname !== "/handler/oauth-callback",
      );
      await waitForApp(page);
      const url = new URL(page.url());
      const status = await statusOf(page);
      await context.close();
      return { path: url.pathname + url.search, status, errors };
    }
    const typedIdentity = (email: string, name: string) => async (page: Page) => {
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Name").fill(name);
      await page.getByRole("button", { name: "Continue", exact: true }).click();
    };

    // Default URLs: afterSignUp = afterSignIn = home "/", not the page sign-in started on.
    const newcomer = uniqueEmail("newcomer");
    expect(await oauthFrom("/pricing", undefined, typedIdentity(newcomer, "New Comer"))).toEqual({
      path: "/",
      status: `Signed in as New Comer <${newcomer}>`,
      errors: [],
    });

    // Distinct pages: a new identity lands on afterSignUp, a returning one on afterSignIn.
    const urls = { afterSignIn: "/dashboard", afterSignUp: "/welcome" };
    expect(
      await oauthFrom("/pricing", urls, (page) =>
        page.getByRole("button", { name: /Continue as Grace Hopper/ }).click(),
      ),
    ).toEqual({ path: "/welcome", status: "Signed in as Grace Hopper <grace@example.com>", errors: [] });
    expect(
      await oauthFrom("/pricing", urls, (page) =>
        page.getByRole("button", { name: /Continue as Grace Hopper/ }).click(),
      ),
    ).toEqual({ path: "/dashboard", status: "Signed in as Grace Hopper <grace@example.com>", errors: [] });
  }, 60_000);

  it("registers a passkey and signs in with it", async () => {
    const context = await browser.newContext();
    const errors = collectPageErrors(context);
    const page = await openApp(context);
    const { cdp, authenticatorId } = await addVirtualAuthenticator(context, page);

    const email = uniqueEmail("passkey");
    expect(await signUp(page, email)).toBe("ok");
    const user = await userOf(page);
    expect(user).toMatchObject({ primaryEmail: email, passkeyAuthEnabled: false });
    const userId = String(user?.id);

    const registered = await onApp(page, async (app) => {
      const result = await (await app.getUser())?.registerPasskey();
      return result && (result.status === "ok" ? "ok" : `${result.error.code}: ${result.error.message}`);
    });
    expect(registered).toBe("ok");
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ rpId: "localhost", isResidentCredential: true });
    expect(Buffer.from(credentials[0]?.userHandle ?? "", "base64").toString("utf8")).toBe(userId);
    expect(await userOf(page)).toMatchObject({ id: userId, passkeyAuthEnabled: true });
    await screenshot(page, "6-passkey-registered");

    await signOut(page);
    expect(await userOf(page)).toBeNull();

    const signedIn = await onApp(page, async (app) => {
      const result = await app.signInWithPasskey({ noRedirect: true });
      return result.status === "ok" ? "ok" : `${result.error.code}: ${result.error.message}`;
    });
    expect(signedIn).toBe("ok");
    expect(await userOf(page)).toMatchObject({ id: userId, primaryEmail: email, passkeyAuthEnabled: true });
    await expect.poll(() => statusOf(page)).toBe(`Signed in as <${email}>`);
    await screenshot(page, "7-signed-in-with-passkey");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("ignores an untrusted after_auth_return_to and goes to afterSignIn", async () => {
    const email = uniqueEmail("return-to");
    const setup = await browser.newContext();
    expect(await signUp(await openApp(setup), email)).toBe("ok");
    await setup.close();

    const context = await browser.newContext();
    const errors = collectPageErrors(context);
    const page = await openApp(
      context,
      "/handler/sign-in?after_auth_return_to=https%3A%2F%2Fevil.example.com",
    );
    expect(new URL(page.url()).searchParams.get("after_auth_return_to")).toBe("https://evil.example.com");
    await navigatingOnApp(page, (app, credential) => void app.signInWithCredential(credential), {
      email,
      password: PASSWORD,
    });
    expect(page.url()).toBe(`${pageServer.origin}/`);
    expect(await statusOf(page)).toBe(`Signed in as <${email}>`);
    await screenshot(page, "8-untrusted-return-to-ignored");
    expect(errors).toEqual([]);
    await context.close();
  });
});
