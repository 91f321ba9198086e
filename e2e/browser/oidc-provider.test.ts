// Gatehouse as an OpenID Provider, in Chromium against the real server process: a client registered over the admin
// API, openid-client (the relying party) builds the authorization address with PKCE, the browser signs in on the
// demo app's handler pages and allows on the consent page; the relying party exchanges the code and reads userinfo.
// A second authorization passes the consent page without a click (remembered). A second relying party of another
// implementation (passport-openidconnect, passport-rp/server.mjs) signs in too. Screenshots: test-output/oidc-provider/.
import { createServer, type Server } from "node:http";
import { freePort } from "@gatehouse/server/testing/server-process";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoSetup, startDemoSetup } from "./demo-app.ts";
import { openIdClient, startPassportRp } from "./oidc-rp.ts";

const USER = { email: "olga@example.com", password: "olga's password", name: "Olga Op" };

let setup: DemoSetup;
let rp: Awaited<ReturnType<typeof openIdClient>>;
let config: oidc.Configuration;
let callback: string;
let wiki: Server;
let userId: string;
/** Whoever waits for the next request to the wiki's callback. */
let reached: (url: URL) => void = () => {};

beforeAll(async () => {
  setup = await startDemoSetup("oidc-provider");
  userId = await setup.demoAppWithUser(USER);
  // The relying party's callback: a loopback server of the test's own that hands the address reached to the test.
  wiki = createServer((req, res) => {
    reached(new URL(req.url ?? "/", callback));
    res.writeHead(200, { "content-type": "text/html" }).end("<title>Wiki</title><h1>Back at the wiki</h1>");
  });
  await new Promise<void>((resolve) => wiki.listen(0, "127.0.0.1", resolve));
  const address = wiki.address();
  callback = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/callback`;
  const client = await setup.call(
    "POST",
    "/oidc-provider/clients",
    setup.admin,
    {
      display_name: "Team Wiki",
      type: "confidential",
      redirect_uris: [callback],
      allowed_scopes: ["openid", "profile", "email"],
    },
    201,
  );
  // Registered with the default client_secret_basic, the only method the token endpoint then takes.
  rp = await openIdClient(
    `${setup.server.baseUrl}/api/v1/projects/${setup.projectId}/oidc`,
    String(client.client_id),
    String(client.client_secret),
    callback,
  );
  config = rp.config;
}, 180_000);

afterAll(async () => {
  await setup?.stop();
  await new Promise((resolve) => wiki?.close(resolve));
});

const authorization = () => rp.authorization();

/** The next address the browser reaches at the wiki's callback. */
function nextCallback(): Promise<URL> {
  return new Promise<URL>((resolve) => {
    reached = resolve;
  });
}

const exchange = (reached: URL, auth: Awaited<ReturnType<typeof authorization>>) =>
  rp.exchange(reached, auth);

describe("signing in to an app through the project (OpenID Provider)", () => {
  it("signs in, asks consent with the app's name and scopes, and the app gets an id_token and userinfo", async () => {
    const { page } = await setup.open();
    const waitCallback = nextCallback();

    const first = await authorization();
    await page.goto(first.url.href);
    // Signed out: the consent page sends the browser to sign in first.
    await page.getByLabel("E-mail", { exact: true }).fill(USER.email);
    await page.getByLabel("Password", { exact: true }).fill(USER.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await page.getByRole("heading", { name: "Sign in to Team Wiki" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/handler/oidc-consent");
    await page.getByText("Team Wiki asks to:").waitFor();
    const scopes = await page.getByRole("listitem").allTextContents();
    expect(scopes).toEqual([
      "Know who you are",
      "See your name and profile picture",
      "See your e-mail address",
    ]);
    await setup.screenshot(page, "consent");
    await page.getByRole("button", { name: "Allow" }).click();

    const back = await waitCallback;
    expect(back.searchParams.get("code")).toBeTruthy();
    await page.getByRole("heading", { name: "Back at the wiki" }).waitFor();
    const tokens = await exchange(back, first);
    const claims = tokens.claims();
    expect(claims?.nonce).toBe(first.nonce);
    expect(claims?.aud).toBe(config.clientMetadata().client_id);
    const sub = String(claims?.sub);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, sub);
    expect(info).toMatchObject({ sub, email: USER.email, email_verified: true, name: USER.name });

    // Again, with the same browser: signed in, the scopes granted before, so no consent is asked.
    const waitAgain = nextCallback();
    const consentAsked: string[] = [];
    page.on("response", async (response) => {
      if (!response.url().includes("/oidc-provider/interactions/") || response.request().method() !== "GET")
        return;
      const body = (await response.json().catch(() => ({}))) as { consent_required?: boolean };
      consentAsked.push(String(body.consent_required));
    });
    const second = await authorization();
    await page.goto(second.url.href);
    const reachedAgain = await waitAgain;
    await setup.screenshot(page, "back-without-consent");
    // The provider may skip our consent page altogether; if it shows it, the page has nothing to ask.
    expect(consentAsked.filter((asked) => asked !== "false")).toEqual([]);
    const again = await exchange(reachedAgain, second);
    expect(again.claims()?.sub).toBe(sub);
  }, 90_000);
});

describe("a second relying party: passport-openidconnect in an Express app", () => {
  let app: Awaited<ReturnType<typeof startPassportRp>> | undefined;
  afterAll(() => {
    app?.stop();
  });

  it("signs in through Chromium with a client_secret_post client and gets the user's profile", async () => {
    const port = await freePort();
    const rpBase = `http://127.0.0.1:${port}`;
    const client = await setup.call(
      "POST",
      "/oidc-provider/clients",
      setup.admin,
      {
        display_name: "Passport App",
        type: "confidential",
        redirect_uris: [`${rpBase}/callback`],
        allowed_scopes: ["openid", "profile", "email"],
        token_endpoint_auth_method: "client_secret_post",
      },
      201,
    );
    app = await startPassportRp(
      `${setup.server.baseUrl}/api/v1/projects/${setup.projectId}/oidc`,
      String(client.client_id),
      String(client.client_secret),
      port,
    );

    // A fresh browser: signs in on our page, then allows the new app.
    const { page } = await setup.open();
    await page.goto(`${rpBase}/login`);
    await page.getByLabel("E-mail", { exact: true }).fill(USER.email);
    await page.getByLabel("Password", { exact: true }).fill(USER.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Sign in to Passport App" }).waitFor();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${rpBase}/me`);
    // passport-openidconnect builds its profile from the id_token: the subject is our user's id.
    const me = JSON.parse((await page.textContent("body")) ?? "null") as { id: string };
    await setup.screenshot(page, "passport-signed-in");
    expect(me.id).toBe(userId);
  }, 90_000);
});
