// The app of the SDK browser test (sdk.test.ts), and the tiny HTTP server that serves it on loopback: our SDK
// (@gatehouse/sdk) bundled for browsers by esbuild as `/sdk.js`, and one HTML page for every other path (`/`,
// `/orders`, every `/handler/*` page). The page makes a StackClientApp with the cookie token store and window
// redirects, exposes it as `window.app`, finishes OAuth on `/handler/oauth-callback`, and shows where it is and who is
// signed in, so a screenshot tells what happened. `<body data-state="ready">` says the app is up.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { HandlerUrls, StackClientApp } from "@gatehouse/sdk";
import { build } from "esbuild";
import type { JSHandle, Page } from "playwright-core";

/** What the page reads from its `?config=` query (JSON), kept in sessionStorage for the pages that follow. */
export type PageConfig = {
  /** The Gatehouse server's origin. */
  api: string;
  projectId: string;
  publishableClientKey: string;
  urls?: Partial<HandlerUrls>;
};

const SDK_ENTRY = fileURLToPath(new URL("../../packages/sdk/src/index.ts", import.meta.url));

/** The SDK as one ES module for browsers, built as an app's bundler would build it. */
async function bundleSdk(): Promise<string> {
  const result = await build({
    entryPoints: [SDK_ENTRY],
    bundle: true,
    format: "esm",
    platform: "browser",
    // Our packages from their source, as the workspace resolves them (dist/ need not be built).
    conditions: ["gatehouse-source"],
    write: false,
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error("esbuild produced no output for the SDK");
  return output.text;
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>SDK demo app</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem; color: #1f2328; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
  #where { color: #57606a; margin: 0 0 1rem; font-family: ui-monospace, monospace; }
  #status { font-size: 1.15rem; font-weight: 600; padding: .75rem 1rem; border-radius: 6px; background: #ddf4ff; }
  #status.ok { background: #dafbe1; color: #116329; }
  #status.error { background: #ffebe9; color: #82071e; }
</style>
</head>
<body data-state="loading">
<h1>Demo app on @gatehouse/sdk</h1>
<p id="where"></p>
<p id="status">Loading…</p>
<script type="module">
import { StackClientApp } from "/sdk.js";

const status = document.getElementById("status");
function show(text, kind) {
  status.textContent = text;
  status.className = kind;
}
// A failed SDK call the test started without awaiting (it navigates) shows here instead of vanishing.
addEventListener("unhandledrejection", (event) => show("Error: " + (event.reason?.message ?? event.reason), "error"));

// The config arrives once in the query; later pages (redirects, OAuth callback) read it from sessionStorage.
const query = new URLSearchParams(location.search);
if (query.has("config")) {
  sessionStorage.setItem("sdk-config", query.get("config"));
  query.delete("config");
  history.replaceState(null, "", location.pathname + (query.size ? "?" + query : "") + location.hash);
}
const config = JSON.parse(sessionStorage.getItem("sdk-config") ?? "null");
document.getElementById("where").textContent = "Page: " + location.pathname + location.search;

async function render() {
  try {
    const user = await app.getUser();
    const name = user?.displayName ? user.displayName + " " : "";
    if (user) show("Signed in as " + name + "<" + user.primaryEmail + ">", "ok");
    else show("Signed out", "");
  } catch (error) {
    show("Error: " + error.message, "error");
  }
}

let app;
if (!config) {
  show("No config: open the page with ?config=", "error");
} else {
  app = new StackClientApp({
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    baseUrl: config.api,
    urls: config.urls,
    tokenStore: "cookie",
    redirectMethod: "window",
  });
  window.app = app;
  if (location.pathname === "/handler/oauth-callback") {
    show("Finishing sign-in…", "");
    try {
      if (!(await app.callOAuthCallback())) show("Not an OAuth callback of this browser", "error");
    } catch (error) {
      show("Sign-in failed: " + error.message, "error");
    }
  } else {
    app.onUserChange(render);
    await render();
  }
  document.body.dataset.state = "ready";
}
</script>
</body>
</html>
`;

/** Serves `/sdk.js` and the app page on 127.0.0.1 (reach it as localhost); builds the SDK first. */
export async function startSdkPageServer(): Promise<{ origin: string; close: () => Promise<void> }> {
  const sdk = await bundleSdk();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://page").pathname;
    if (path === "/sdk.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(sdk);
    } else if (path === "/favicon.ico") {
      res.writeHead(404).end();
    } else {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The query that hands the page its config. */
export const configQuery = (config: PageConfig) => `config=${encodeURIComponent(JSON.stringify(config))}`;

/** Waits until the page's app is up (the OAuth callback page never gets there: it goes on). */
export async function waitForApp(page: Page): Promise<void> {
  await page.locator('body[data-state="ready"]').waitFor();
}

/**
 * Runs `fn(app, arg)` in the page, on its `window.app`; answers what `fn` answers (serializable values only). For
 * calls that navigate, `fn` should start the call without awaiting it.
 */
export async function onApp<R, A = undefined>(
  page: Page,
  fn: (app: StackClientApp, arg: A) => R | Promise<R>,
  arg?: A,
): Promise<R> {
  const handle = (await page.evaluateHandle(
    () => (globalThis as unknown as { app: StackClientApp }).app,
  )) as JSHandle<StackClientApp>;
  try {
    // Playwright's generic argument type cannot be matched against `A`; what is passed is exactly `arg`.
    return await handle.evaluate(fn as (app: StackClientApp, arg: unknown) => R | Promise<R>, arg);
  } finally {
    await handle.dispose();
  }
}

/** Runs a call that navigates (sign-out, sign-in with a redirect) and waits for the next page's app. */
export async function navigatingOnApp<A = undefined>(
  page: Page,
  fn: (app: StackClientApp, arg: A) => void,
  arg?: A,
): Promise<void> {
  const navigated = page.waitForEvent("framenavigated", (frame) => frame === page.mainFrame());
  await onApp(page, fn, arg);
  await navigated;
  await waitForApp(page);
}
