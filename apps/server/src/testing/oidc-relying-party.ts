// The relying party's side of the OpenID Provider suites (oidc-provider/*.test.ts): a project with a trusted domain,
// client registration over the admin API, openid-client configured against the project's issuer, and the browser's
// hops through authorize and our consent step (the handler page's API calls, made as the page would).
import { serve } from "@hono/node-server";
import * as oidc from "openid-client";
import { expect } from "vitest";
import { freePort } from "./server-process.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueIp,
  withToken,
} from "./test-server.ts";

export const APP = "https://app.example.com";
export const CALLBACK = "https://rp.example.com/callback";

/** The suite's server and the origin it listens on. */
export type OpSuite = { server: TestServer; base: string };

/** A test server whose app listens on a loopback port (oidc-provider answers on Node's request and response). */
export async function startOpSuite(
  options: { webhookAllowPrivateUrls?: boolean } = {},
): Promise<OpSuite & { close: () => Promise<void> }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await createTestServer({ ...options, baseUrl: base });
  const http = serve({ fetch: server.app.fetch, port, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => http.once("listening", () => resolve()));
  return {
    server,
    base,
    async close() {
      // fetch keeps connections alive; close them, or the server would wait for them.
      if ("closeAllConnections" in http) http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await server.close();
    },
  };
}

export type Project = { keys: ProjectKeys; issuer: string };

export async function project({ server, base }: OpSuite): Promise<Project> {
  const { keys } = await server.createProject({
    config: { domains: [{ domain: APP, handler_path: "/handler" }] },
  });
  return { keys, issuer: `${base}/api/v1/projects/${keys.projectId}/oidc` };
}

export async function api(
  { server }: OpSuite,
  p: Project,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await server.request(path, {
    method,
    headers: {
      ...accessHeaders("admin", p.keys),
      "content-type": "application/json",
      "x-forwarded-for": uniqueIp(),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function registerClient(s: OpSuite, p: Project, extra: Record<string, unknown> = {}) {
  const created = await api(s, p, "POST", "/api/v1/oidc-provider/clients", {
    display_name: "Wiki",
    type: "confidential",
    redirect_uris: [CALLBACK],
    allowed_scopes: ["openid", "profile", "email", "offline_access"],
    logo_url: "https://rp.example.com/logo.png",
    ...extra,
  });
  expect(created.status).toBe(201);
  return created.body as { client_id: string; client_secret: string | null };
}

/** openid-client for a client registered with the defaults: its secret in the Authorization header (basic). */
export async function rp(p: Project, client: { client_id: string; client_secret: string | null }) {
  const auth = client.client_secret ? oidc.ClientSecretBasic(client.client_secret) : undefined;
  return oidc.discovery(new URL(p.issuer), client.client_id, client.client_secret ?? undefined, auth, {
    execute: [oidc.allowInsecureRequests],
  });
}

/** openid-client for a client registered with id_token_signed_response_alg RS256 (it expects RS256 id_tokens). */
export function rs256Rp(p: Project, client: { client_id: string; client_secret: string | null }) {
  return oidc.discovery(
    new URL(p.issuer),
    client.client_id,
    { client_secret: client.client_secret ?? "", id_token_signed_response_alg: "RS256" },
    oidc.ClientSecretBasic(client.client_secret ?? ""),
    { execute: [oidc.allowInsecureRequests] },
  );
}

/** A tiny cookie jar for the browser's hops through the provider. */
export class Browser {
  cookies = new Map<string, string>();
  async get(url: string): Promise<Response> {
    const res = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = (pair ?? "").split("=");
      if (name) this.cookies.set(name.trim(), value.join("="));
    }
    return res;
  }
  /** Follows redirects while they stay on the provider; returns the first location elsewhere. */
  async follow(url: string, issuer: string): Promise<string> {
    let location = url;
    for (let hop = 0; hop < 10 && location.startsWith(issuer); hop++) {
      const res = await this.get(location);
      const next = res.headers.get("location");
      if (!next) throw new Error(`no redirect from ${location}: ${res.status} ${await res.text()}`);
      location = new URL(next, location).href;
    }
    return location;
  }
}

export type Started = { browser: Browser; verifier: string; nonce: string; state: string; callback: URL };

/** The whole front channel: authorize, our consent step as the handler page drives it, back to the app. */
export async function signIn(
  s: OpSuite,
  p: Project,
  config: oidc.Configuration,
  user: { accessToken: string },
  options: { scope?: string; browser?: Browser } = {},
): Promise<Started & { consent: Record<string, unknown> }> {
  const browser = options.browser ?? new Browser();
  const verifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: options.scope ?? "openid profile email offline_access",
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    nonce,
    state,
    prompt: "consent",
  });
  const consentPage = new URL(await browser.follow(url.href, p.issuer));
  expect(consentPage.origin + consentPage.pathname).toBe(`${APP}/handler/oidc-consent`);
  const interactionId = consentPage.searchParams.get("interaction_id") ?? "";
  const asUser = { ...accessHeaders("client", p.keys), ...withToken(user.accessToken) };
  const consent = await api(
    s,
    p,
    "GET",
    `/api/v1/oidc-provider/interactions/${interactionId}`,
    undefined,
    asUser,
  );
  expect(consent.status).toBe(200);
  const accepted = await api(
    s,
    p,
    "POST",
    `/api/v1/oidc-provider/interactions/${interactionId}/accept`,
    {},
    asUser,
  );
  expect(accepted.status).toBe(200);
  const callback = new URL(await browser.follow(String(accepted.body.redirect_url), p.issuer));
  return { browser, verifier, nonce, state, callback, consent: consent.body };
}

export const exchange = (config: oidc.Configuration, s: Started, verifier = s.verifier) =>
  oidc.authorizationCodeGrant(config, s.callback, {
    pkceCodeVerifier: verifier,
    expectedNonce: s.nonce,
    expectedState: s.state,
  });

/**
 * Expects an invalid_client refusal: in the JSON body, or for a client that sent HTTP Basic, in the 401's
 * WWW-Authenticate challenge (RFC 6749 §5.2), which openid-client reports as a challenge error.
 */
export async function expectInvalidClient(pending: Promise<unknown>): Promise<void> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e as { error?: string; cause?: Array<{ parameters?: { error?: string } }> },
  );
  expect(error?.error ?? error?.cause?.[0]?.parameters?.error).toBe("invalid_client");
}
