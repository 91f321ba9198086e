// "Sign in with GitHub" with no keys at all (WIRE.md §4.5, [GO] development provider): a real server process whose
// operator turned test identities on (GATEHOUSE_DEVELOPMENT_OAUTH=*, every project but the internal one), an app
// page on another loopback origin that does what Stack Auth's SDK does (PKCE pair in the browser, authorize in json
// mode, token exchange on the callback page), and Chromium clicking through the development provider's page, whose
// content security policy lets its forms lead back to the app. The internal project gets no stand-in, and a test
// identity never signs in to an account that already uses its address. Screenshots: test-output/oauth-development/.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, operatorProject, startIsolatedServer } from "../support.ts";
import { launchChromium, screenshotDir } from "./harness.ts";

/** The app: a sign-in button, and the OAuth-callback page that exchanges the code and greets the user. */
const APP_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Example app</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem; color: #1f2328; }
  button { font: inherit; padding: .5rem 1rem; border-radius: 6px; border: 1px solid #1f2328; background: #24292f;
    color: #fff; cursor: pointer; }
  #status { font-size: 1.15rem; font-weight: 600; }
</style>
</head>
<body>
<h1>Example app</h1>
<p id="status">Signed out</p>
<button id="github" type="button">Sign in with GitHub</button>
<script type="module">
const config = JSON.parse(sessionStorage.getItem("config") ?? "null") ?? Object.fromEntries(new URLSearchParams(location.search));
sessionStorage.setItem("config", JSON.stringify(config));
const callbackUrl = location.origin + "/handler/oauth-callback";
const status = document.getElementById("status");
const b64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");

document.getElementById("github").addEventListener("click", async () => {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  const state = b64url(crypto.getRandomValues(new Uint8Array(16)));
  sessionStorage.setItem("oauth", JSON.stringify({ verifier, state }));
  const query = new URLSearchParams({
    client_id: config.project, client_secret: config.pck, redirect_uri: callbackUrl, scope: "legacy", state,
    grant_type: "authorization_code", code_challenge: challenge, code_challenge_method: "S256",
    response_type: "code", stack_response_mode: "json",
  });
  const res = await fetch(config.api + "/api/v1/auth/oauth/authorize/github?" + query);
  const body = await res.json();
  if (!res.ok) { status.textContent = "Authorize failed: " + body.code; return; }
  location.assign(body.location);
});

if (location.pathname === "/handler/oauth-callback") {
  const params = new URLSearchParams(location.search);
  const pending = JSON.parse(sessionStorage.getItem("oauth") ?? "null");
  sessionStorage.removeItem("oauth");
  if (params.get("error")) {
    status.textContent = "Sign-in failed: " + params.get("errorCode");
  } else if (!pending || params.get("state") !== pending.state) {
    status.textContent = "State mismatch";
  } else {
    const res = await fetch(config.api + "/api/v1/auth/oauth/token", {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "authorization_code", client_id: config.project, client_secret: config.pck,
        code: params.get("code"), redirect_uri: callbackUrl, code_verifier: pending.verifier,
      }),
    });
    const tokens = await res.json();
    const me = await (await fetch(config.api + "/api/v1/users/me", { headers: {
      "x-stack-access-type": "client", "x-stack-project-id": config.project,
      "x-stack-publishable-client-key": config.pck, "x-stack-access-token": tokens.access_token,
    } })).json();
    status.textContent = "Signed in as " + me.display_name + " <" + me.primary_email + ">" +
      (tokens.is_new_user ? " (new user)" : " (returning user)");
  }
}
</script>
</body>
</html>`;

let gatehouse: Awaited<ReturnType<typeof startIsolatedServer>>;
let server: RunningServer;
let app: Server;
let appOrigin: string;
let browser: Browser;
let screenshots: string;
/** The app's project: GitHub on shared keys, which the development provider stands in for. */
let project: { id: string; pck: string; admin: Record<string, string> };

const call = apiCaller(() => server);

beforeAll(async () => {
  // No OAuth keys; test identities on for every project but the internal one, which offers GitHub too.
  gatehouse = await startIsolatedServer("oauth-development", {
    GATEHOUSE_DEVELOPMENT_OAUTH: "*",
    STACK_SEED_INTERNAL_PROJECT_OAUTH_PROVIDERS: "github",
  });
  server = gatehouse.server;
  const { projectId, admin } = await operatorProject(server, {
    display_name: "Example app",
    config: { allow_localhost: true, oauth_providers: [{ id: "github", type: "shared", enabled: true }] },
  });
  const keySet = await call("POST", "/internal/api-keys", admin, {
    description: "example app",
    expires_at_millis: Date.now() + 24 * 3600 * 1000,
    has_publishable_client_key: true,
    has_secret_server_key: false,
    has_super_secret_admin_key: false,
  });
  project = { id: projectId, pck: String(keySet.publishable_client_key), admin };
  app = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(APP_PAGE));
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appOrigin = `http://localhost:${(app.address() as AddressInfo).port}`;
  browser = await launchChromium();
  screenshots = await screenshotDir("oauth-development");
});

afterAll(async () => {
  await browser?.close();
  app?.close();
  await gatehouse?.stop();
});

/** The app page for a project, in a fresh browser context. */
async function openApp(projectId = project.id, pck = project.pck) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const config = new URLSearchParams({ api: server.baseUrl, project: projectId, pck });
  await page.goto(`${appOrigin}/?${config}`);
  return { context, page };
}

async function signInWithGitHub(choose: (page: import("playwright-core").Page) => Promise<void>) {
  const { context, page } = await openApp();
  await page.getByRole("button", { name: "Sign in with GitHub" }).click();
  await page.waitForURL(`${server.baseUrl}/api/v1/auth/oauth/development/github?**`);
  await expect(page.getByRole("heading", { name: "Test sign-in for GitHub" }).isVisible()).resolves.toBe(
    true,
  );
  await expect(page.getByText("Test stand-in · not GitHub").isVisible()).resolves.toBe(true);
  await choose(page);
  await page.waitForURL(`${appOrigin}/handler/oauth-callback?**`);
  const status = page.locator("#status");
  await status.filter({ hasNotText: "Signed out" }).waitFor();
  return { page, context, status: (await status.textContent()) ?? "" };
}

describe("the GitHub button on shared keys without keys of the instance", () => {
  it("signs a developer up as a test identity, then in again as the same user", async () => {
    const first = await signInWithGitHub(async (page) => {
      await page.screenshot({ path: join(screenshots, "1-development-provider.png"), fullPage: true });
      await page.getByRole("button", { name: /Continue as Ada Lovelace/ }).click();
    });
    expect(first.status).toBe("Signed in as Ada Lovelace <ada@example.com> (new user)");
    await first.page.screenshot({ path: join(screenshots, "2-signed-in.png") });
    await first.context.close();

    const again = await signInWithGitHub((page) =>
      page.getByRole("button", { name: /Continue as Ada Lovelace/ }).click(),
    );
    expect(again.status).toBe("Signed in as Ada Lovelace <ada@example.com> (returning user)");
    await again.context.close();
  });

  it("takes a typed identity, and reports a refusal back to the app", async () => {
    const typed = await signInWithGitHub(async (page) => {
      await page.getByLabel("E-mail").fill("dev@example.org");
      await page.getByLabel("Name").fill("Dev Eloper");
      await page.getByRole("button", { name: "Continue", exact: true }).click();
    });
    expect(typed.status).toBe("Signed in as Dev Eloper <dev@example.org> (new user)");
    await typed.context.close();

    const denied = await signInWithGitHub((page) => page.getByRole("button", { name: /Cancel/ }).click());
    expect(denied.status).toBe("Sign-in failed: OAUTH_PROVIDER_ACCESS_DENIED");
    await denied.page.screenshot({ path: join(screenshots, "3-denied.png") });
    await denied.context.close();
  });

  it("never signs a test identity in to the account that already uses its address", async () => {
    await call(
      "POST",
      "/users",
      project.admin,
      { primary_email: "owner@example.org", primary_email_verified: true, primary_email_auth_enabled: true },
      201,
    );
    const taken = await signInWithGitHub(async (page) => {
      await page.getByLabel("E-mail").fill("owner@example.org");
      await page.getByRole("button", { name: "Continue", exact: true }).click();
    });
    expect(taken.status).toBe("Sign-in failed: CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE");
    await taken.page.screenshot({ path: join(screenshots, "4-address-taken.png") });
    await taken.context.close();
  });

  it("has no stand-in for the internal project, whose first user becomes the operator", async () => {
    const { context, page } = await openApp("internal", server.keys.pck);
    await page.getByRole("button", { name: "Sign in with GitHub" }).click();
    const status = page.locator("#status");
    await status.filter({ hasNotText: "Signed out" }).waitFor();
    expect(await status.textContent()).toBe("Authorize failed: OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    await context.close();
  });
});
