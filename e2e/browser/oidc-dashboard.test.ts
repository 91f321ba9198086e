// Issue 20's story in Chromium, from the dashboard: the operator registers two confidential apps on the OAuth apps
// screen (name, the relying party's redirect URI, scopes with offline_access, a logo; one sending its secret by HTTP
// Basic, one in the request body) and copies each secret the page shows once. openid-client signs a user in with PKCE
// against the first: the consent page shows the app's name, logo and scopes the first time and not the second. The
// passport-openidconnect app signs the same user in with the second. The user's account settings list both under
// Connected apps; Remove access ends the first's grant, and its refresh token is refused afterwards.
// Screenshots: test-output/oidc-dashboard/.
import { createServer, type Server } from "node:http";
import { freePort } from "@gatehouse/server/testing/server-process";
import * as oidc from "openid-client";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible } from "./axe.ts";
import { dashboardBuild, signInThere } from "./dashboard-page.ts";
import { type DemoSetup, startDemoSetup } from "./demo-app.ts";
import { openIdClient, startPassportRp } from "./oidc-rp.ts";

const USER = { email: "olga@example.com", password: "olga's password", name: "Olga Op" };
const OPERATOR = { email: "operator@example.com", password: "operator password 1" };
// A 1×1 PNG, the wiki's logo.
const LOGO = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

let setup: DemoSetup;
let wiki: Server;
let wikiBase: string;
let passportPort: number;
let issuer: string;
let userId: string;
let operator: Page;
let user: Page;
/** Whoever waits for the next request to the wiki's callback. */
let reached: (url: URL) => void = () => {};
const registered: Record<string, { id: string; secret: string }> = {};

beforeAll(async () => {
  setup = await startDemoSetup("oidc-dashboard", { GATEHOUSE_DASHBOARD_DIR: await dashboardBuild() });
  issuer = `${setup.server.baseUrl}/api/v1/projects/${setup.projectId}/oidc`;
  userId = await setup.demoAppWithUser(USER);
  // The wiki: a loopback server of the test's own with the callback (handing the address reached to the test) and
  // the logo the operator registers.
  wiki = createServer((req, res) => {
    if (req.url === "/logo.png") {
      res.writeHead(200, { "content-type": "image/png" }).end(LOGO);
      return;
    }
    const url = new URL(req.url ?? "/", wikiBase);
    // Only the callback: the browser's own /favicon.ico request after the first callback page could otherwise
    // arrive while the second authorization waits, and be taken for its answer (seen in a full CI run).
    if (url.pathname !== "/callback") {
      res.writeHead(404).end();
      return;
    }
    reached(url);
    res.writeHead(200, { "content-type": "text/html" }).end("<title>Wiki</title><h1>Back at the wiki</h1>");
  });
  await new Promise<void>((resolve) => wiki.listen(0, "127.0.0.1", resolve));
  const address = wiki.address();
  wikiBase = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  passportPort = await freePort();
  operator = (await setup.open()).page;
  user = (await setup.open()).page;
}, 240_000);

afterAll(async () => {
  await setup?.stop();
  await new Promise((resolve) => wiki?.close(resolve));
});

/** The next address the browser reaches at the wiki's callback. */
function nextCallback(): Promise<URL> {
  return new Promise<URL>((resolve) => {
    reached = resolve;
  });
}

/** Registers a confidential app on the dashboard's OAuth apps screen and reads the id and secret shown once. */
async function register(name: string, redirect: string, method: "basic" | "post", shot?: string) {
  const form = operator.getByRole("region", { name: "Register an app" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel(/^Redirect URIs/).fill(redirect);
  await form.getByLabel(/^Logo URL/).fill(`${wikiBase}/logo.png`);
  await form.getByLabel("Type").selectOption("confidential");
  await form
    .getByLabel("How the app sends its secret")
    .selectOption(method === "basic" ? "client_secret_basic" : "client_secret_post");
  await form.getByLabel("offline_access (refresh tokens)").check();
  if (shot) {
    await setup.screenshot(operator, shot);
    await expectAccessible(operator);
  }
  await form.getByRole("button", { name: "Register app" }).click();
  const shown = (label: string) => operator.locator(`dt:text-is("${label}") + dd code`).innerText();
  await operator.getByText("Copy the client secret now. It will not be shown again.").waitFor();
  registered[name] = { id: await shown("Client id"), secret: await shown("Client secret") };
  await operator.getByRole("button", { name: "Done" }).click();
  await operator.getByRole("cell", { name, exact: true }).waitFor();
}

describe("an app registered in the dashboard signs users in through the project", () => {
  it("registers two confidential apps on the OAuth apps screen and shows each secret once", async () => {
    await operator.goto(`${setup.server.baseUrl}/dashboard/projects/${setup.projectId}/oauth-apps`);
    await signInThere(operator, OPERATOR.email, OPERATOR.password);
    await operator.getByRole("heading", { level: 1, name: "OAuth apps" }).waitFor();
    await operator.getByRole("region", { name: "Registered apps" }).getByText("No apps yet.").waitFor();
    await register("Team Wiki", `${wikiBase}/callback`, "basic", "register-form");
    await register("Passport App", `http://127.0.0.1:${passportPort}/callback`, "post");
    expect(registered["Team Wiki"]?.secret).toMatch(/\S{20,}/);
    // The secret is shown once: the list of apps does not have it.
    expect(await operator.locator("body").innerText()).not.toContain(registered["Team Wiki"]?.secret);
    const clients = await setup.call("GET", "/oidc-provider/clients", setup.admin);
    const wikiClient = (clients.items as { client_id: string; [key: string]: unknown }[]).find(
      (client) => client.client_id === registered["Team Wiki"]?.id,
    );
    expect(wikiClient).toMatchObject({
      type: "confidential",
      token_endpoint_auth_method: "client_secret_basic",
      redirect_uris: [`${wikiBase}/callback`],
      allowed_scopes: ["openid", "profile", "email", "offline_access"],
      logo_url: `${wikiBase}/logo.png`,
    });
  }, 90_000);

  let refreshToken = "";
  let rp: Awaited<ReturnType<typeof openIdClient>>;

  it("signs in with openid-client and PKCE, asking consent with the app's name, logo and scopes only once", async () => {
    const wikiApp = registered["Team Wiki"];
    if (!wikiApp) throw new Error("Team Wiki was not registered");
    rp = await openIdClient(issuer, wikiApp.id, wikiApp.secret, `${wikiBase}/callback`);
    // A refresh token: offline_access, asked with prompt=consent (OIDC Core §11; without it the scope is ignored).
    const first = await rp.authorization("openid profile email offline_access", "consent");
    const waitCallback = nextCallback();
    await user.goto(first.url.href);
    await user.getByLabel("E-mail", { exact: true }).fill(USER.email);
    await user.getByLabel("Password", { exact: true }).fill(USER.password);
    await user.getByRole("button", { name: "Sign in", exact: true }).click();
    await user.getByRole("heading", { name: "Sign in to Team Wiki" }).waitFor();
    await user.getByText("Team Wiki asks to:").waitFor();
    expect(await user.getByRole("listitem").allTextContents()).toEqual([
      "Know who you are",
      "See your name and profile picture",
      "See your e-mail address",
      "Stay signed in while you are away",
    ]);
    // The logo at its own size (a 1×1 image is not blown up to the card's width).
    const logo = await user.locator(`img[src="${wikiBase}/logo.png"]`).boundingBox();
    expect(logo).toMatchObject({ width: 48, height: 48 });
    await setup.screenshot(user, "consent");
    await expectAccessible(user);
    await user.getByRole("button", { name: "Allow" }).click();
    const back = await waitCallback;
    const tokens = await rp.exchange(back, first);
    expect(tokens.claims()?.sub).toBe(userId);
    expect(tokens.refresh_token).toBeTruthy();
    refreshToken = String(tokens.refresh_token);
    const info = await oidc.fetchUserInfo(rp.config, tokens.access_token, userId);
    expect(info).toMatchObject({ email: USER.email, name: USER.name });

    // Again: signed in and the scopes granted, so no consent is asked (the provider may pass through the consent
    // page, which then has nothing to ask and continues at once).
    const consentAsked: string[] = [];
    user.on("response", async (response) => {
      if (!response.url().includes("/oidc-provider/interactions/") || response.request().method() !== "GET")
        return;
      const body = (await response.json().catch(() => ({}))) as { consent_required?: boolean };
      consentAsked.push(String(body.consent_required));
    });
    const second = await rp.authorization();
    const waitAgain = nextCallback();
    // Until the answer arrives only: the consent page, with nothing to ask, sends the browser on by script, which
    // may be before its own load event, and a goto that waits for that event is then "interrupted by another
    // navigation" (seen in full runs, where the page is slower to load).
    await user.goto(second.url.href, { waitUntil: "commit" });
    const again = await rp.exchange(await waitAgain, second);
    expect(again.claims()?.sub).toBe(userId);
    expect(consentAsked.filter((asked) => asked !== "false")).toEqual([]);
  }, 90_000);

  it("signs the same user in to the passport app with the second app registered the same way", async () => {
    const passportApp = registered["Passport App"];
    if (!passportApp) throw new Error("Passport App was not registered");
    const passport = await startPassportRp(issuer, passportApp.id, passportApp.secret, passportPort);
    try {
      await user.goto(`${passport.url}/login`);
      // Already signed in: only the new app's consent is asked.
      await user.getByRole("heading", { name: "Sign in to Passport App" }).waitFor();
      await user.getByRole("button", { name: "Allow" }).click();
      await user.waitForURL(`${passport.url}/me`);
      const me = JSON.parse((await user.textContent("body")) ?? "null") as { id: string };
      expect(me.id).toBe(userId);
    } finally {
      passport.stop();
    }
  }, 60_000);

  it("lists both under Connected apps, and Remove access makes the wiki's refresh token refused", async () => {
    // The refresh token works before.
    const refreshed = await oidc.refreshTokenGrant(rp.config, refreshToken);
    refreshToken = String(refreshed.refresh_token);
    await user.goto(`${setup.demo.url}/handler/account-settings`);
    await user
      .getByRole("navigation", { name: "Sections" })
      .getByRole("link", { name: "Connected apps" })
      .click();
    const section = user.getByRole("region", { name: "Connected apps" });
    await section.getByText("Team Wiki", { exact: true }).waitFor();
    await section.getByText("Passport App", { exact: true }).waitFor();
    await setup.screenshot(user, "connected-apps");
    // Each app's logo sits beside its name, also when its list of scopes is long.
    const wikiRow = section.getByRole("listitem").filter({ hasText: "Team Wiki" });
    const avatarBox = await wikiRow.locator(".gh-avatar").boundingBox();
    const nameBox = await wikiRow.getByText("Team Wiki", { exact: true }).boundingBox();
    expect(nameBox?.x ?? 0).toBeGreaterThan((avatarBox?.x ?? 0) + (avatarBox?.width ?? 0));
    const wikiItem = section.getByRole("listitem").filter({ hasText: "Team Wiki" });
    await wikiItem.getByRole("button", { name: "Remove access" }).click();
    await wikiItem.getByRole("button", { name: "Remove access" }).click();
    await wikiItem.waitFor({ state: "detached" });
    await section.getByText("Passport App", { exact: true }).waitFor();
    await expect(oidc.refreshTokenGrant(rp.config, refreshToken)).rejects.toMatchObject({
      error: "invalid_grant",
    });
  }, 60_000);
});
