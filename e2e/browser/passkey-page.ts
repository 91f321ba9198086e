// The app page of the passkey browser test, and the tiny HTTP server that serves it on loopback. The page does what
// an app built on Stack Auth's SDK does: it calls Gatehouse with fetch and the x-stack-* headers, puts its own
// hostname in place of the placeholder RP id, and runs the WebAuthn ceremonies with @simplewebauthn/browser (the
// ESM build from node_modules, the library the SDK uses). Each step shows its outcome in a status line, so a
// screenshot tells what happened. The test drives it through `window.demo`.
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join, normalize, sep } from "node:path";

/** What the page answers for each step: the HTTP status and JSON body of the last Gatehouse call. */
export type StepResult = { status: number; body: Record<string, unknown> };

/** The page's steps, as `window.demo`. */
export type PasskeyDemo = {
  signUp(email: string, password: string): Promise<StepResult>;
  registerPasskey(): Promise<StepResult>;
  me(): Promise<StepResult>;
  signOut(): Promise<StepResult>;
  signInWithPasskey(): Promise<StepResult>;
};

/** @simplewebauthn/browser's ESM directory, wherever npm put the package. */
function simpleWebAuthnEsmDir(): string {
  // The "require" export is <package>/script/index.js; the ESM build sits beside it in <package>/esm.
  return join(dirname(dirname(createRequire(import.meta.url).resolve("@simplewebauthn/browser"))), "esm");
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Passkey demo</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem; color: #1f2328; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
  #origin { color: #57606a; margin: 0 0 1rem; }
  #status { font-size: 1.15rem; font-weight: 600; padding: .75rem 1rem; border-radius: 6px; background: #ddf4ff; }
  #status.error { background: #ffebe9; color: #82071e; }
  #status.ok { background: #dafbe1; color: #116329; }
  ol { color: #57606a; font-size: .9rem; }
</style>
</head>
<body>
<h1>Gatehouse passkey demo</h1>
<p id="origin"></p>
<p id="status">Loading…</p>
<ol id="log"></ol>
<script type="module">
import { startAuthentication, startRegistration } from "/simplewebauthn/index.js";

const params = new URLSearchParams(location.search);
const api = params.get("api");
const headers = {
  "content-type": "application/json",
  "x-stack-access-type": "client",
  "x-stack-project-id": params.get("project"),
  "x-stack-publishable-client-key": params.get("pck"),
};
const PLACEHOLDER = "THIS_VALUE_WILL_BE_REPLACED.example.com";
let session = null;

document.getElementById("origin").textContent = "Page origin: " + location.origin;

function show(text, kind) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.className = kind;
  const item = document.createElement("li");
  item.textContent = text;
  document.getElementById("log").append(item);
}

async function call(method, path, body) {
  const token = session ? { "x-stack-access-token": session.access_token } : {};
  const res = await fetch(api + "/api/v1" + path, {
    method,
    headers: { ...headers, ...token },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Shows a failed call (its known-error code and message) and returns it. */
function failed(step, result) {
  show(step + " failed: " + result.body.code + ": " + result.body.message, "error");
  return result;
}

window.demo = {
  async signUp(email, password) {
    const result = await call("POST", "/auth/password/sign-up", { email, password });
    if (result.status !== 200) return failed("Sign-up", result);
    session = result.body;
    show("Signed up as " + email + " (user " + session.user_id + ")", "ok");
    return result;
  },

  async registerPasskey() {
    const initiated = await call("POST", "/auth/passkey/initiate-passkey-registration", {});
    if (initiated.status !== 200) return failed("Passkey registration", initiated);
    const { options_json, code } = initiated.body;
    if (options_json.rp.id !== PLACEHOLDER) throw new Error("Unexpected RP id " + options_json.rp.id);
    options_json.rp.id = location.hostname;
    const credential = await startRegistration({ optionsJSON: options_json });
    const result = await call("POST", "/auth/passkey/register", { credential, code });
    if (result.status !== 200) return failed("Passkey registration", result);
    show("Passkey registered for " + options_json.user.name + " (credential " + result.body.user_handle + ")", "ok");
    return result;
  },

  async me() {
    return call("GET", "/users/me");
  },

  async signOut() {
    const result = await call("DELETE", "/auth/sessions/current", {});
    session = null;
    show("Signed out", "");
    return result;
  },

  async signInWithPasskey() {
    const initiated = await call("POST", "/auth/passkey/initiate-passkey-authentication", {});
    if (initiated.status !== 200) return failed("Passkey sign-in", initiated);
    const { options_json, code } = initiated.body;
    if (options_json.rpId !== PLACEHOLDER) throw new Error("Unexpected RP id " + options_json.rpId);
    options_json.rpId = location.hostname;
    const authentication_response = await startAuthentication({ optionsJSON: options_json });
    const result = await call("POST", "/auth/passkey/sign-in", { authentication_response, code });
    if (result.status !== 200) return failed("Passkey sign-in", result);
    session = result.body;
    const me = await call("GET", "/users/me");
    show("Signed in with a passkey as " + me.body.primary_email + " (user " + session.user_id + ")", "ok");
    return result;
  },
};

show("Ready: signed out", "");
</script>
</body>
</html>
`;

/** Serves the page at `/` and the library under `/simplewebauthn/`, on 127.0.0.1 (reach it as localhost). */
export async function startPageServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const libraryDir = simpleWebAuthnEsmDir();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://page").pathname;
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
      return;
    }
    const file = normalize(join(libraryDir, path.slice("/simplewebauthn/".length)));
    if (!path.startsWith("/simplewebauthn/") || !file.startsWith(libraryDir + sep)) {
      res.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (content) => res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(content),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
