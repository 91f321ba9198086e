// The browser side of the OAuth flow (WIRE.md §3.6, §4.5): a PKCE pair whose verifier waits in the cookie
// `stack-oauth-outer-{state}` while the user is at the provider, the authorize URL, and reading the callback page.
// Cookies go through an injectable `document` so this runs (and is tested) outside a browser.

import { PUBLIC_CLIENT_SECRET } from "@gatehouse/contract/headers";
import { type KnownError, knownErrorFromWire } from "@gatehouse/contract/known-error";
import { statusOf } from "@gatehouse/contract/known-error-status";
import { parseCookies } from "./cookies.ts";

/** Anything with `document.cookie` semantics: reading gives `a=1; b=2`, writing sets one cookie. */
export type CookieDocument = { cookie: string };

const VERIFIER_COOKIE_PREFIX = "stack-oauth-outer-";
/** How long the user may spend at the provider (PRODUCT.md §9); Stack's SDK uses the same name and lifetime. */
const VERIFIER_MAX_AGE_SECONDS = 3600;
/** What `client_secret` carries for a project without publishable keys (WIRE.md §4.5). */

function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** 32 random bytes as base64url: 43 characters of [A-Za-z0-9_-], the 256 bits RFC 7636 §7.1 recommends. */
const randomString = () => base64Url(globalThis.crypto.getRandomValues(new Uint8Array(32)));

/** The S256 challenge of a verifier: base64url(SHA-256(verifier)) (RFC 7636 §4.2). */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

/** A fresh flow: the client `state` and a PKCE pair. */
export async function createPkcePair(): Promise<{ state: string; verifier: string; challenge: string }> {
  const verifier = randomString();
  return { state: randomString(), verifier, challenge: await pkceChallenge(verifier) };
}

/** Whether the current page is https: cookies are then Secure (on http, a Secure cookie would not be stored). */
const onHttpsPage = () =>
  (globalThis as { location?: { protocol?: string } }).location?.protocol === "https:";

const cookieAttributes = (maxAgeSeconds: number, secure: boolean) =>
  `; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;

const readCookie = (document: CookieDocument, name: string) =>
  parseCookies(document.cookie).get(name) ?? null;

/** Keeps the verifier under the state until the callback page reads it (Stack's `saveVerifierAndState`). */
export function saveVerifier(
  document: CookieDocument,
  state: string,
  verifier: string,
  secure = onHttpsPage(),
): void {
  const value = encodeURIComponent(verifier);
  document.cookie = `${VERIFIER_COOKIE_PREFIX}${state}=${value}${cookieAttributes(VERIFIER_MAX_AGE_SECONDS, secure)}`;
}

export type AuthorizeOptions = {
  provider: string;
  projectId: string;
  publishableClientKey?: string;
  /** The absolute URL of the app's OAuth-callback page. */
  redirectUri: string;
  errorRedirectUrl: string;
  /** Where to go after the callback (returned by the token exchange). */
  afterCallbackRedirectUrl?: string;
  type: "authenticate" | "link";
  /** The signed-in user's access token: required to link, and upgrades an anonymous user on authenticate. */
  token?: string | null;
  /** Extra provider scopes, space-separated. */
  providerScope?: string;
  state: string;
  codeChallenge: string;
};

/**
 * `/auth/oauth/authorize/{provider}?…` (the path under /api/v1, for the transport) with the query of WIRE.md §4.5, in
 * JSON mode: the SDK fetches it and sends the browser to the `location` it answers.
 */
export function authorizePath(options: AuthorizeOptions): string {
  const redirectUri = new URL(options.redirectUri);
  // The server appends its own code and state; stale ones would be ambiguous.
  redirectUri.searchParams.delete("code");
  redirectUri.searchParams.delete("state");
  const query = new URLSearchParams();
  query.set("client_id", options.projectId);
  query.set("client_secret", options.publishableClientKey ?? PUBLIC_CLIENT_SECRET);
  query.set("redirect_uri", redirectUri.toString());
  query.set("scope", "legacy");
  query.set("state", options.state);
  query.set("grant_type", "authorization_code");
  query.set("code_challenge", options.codeChallenge);
  query.set("code_challenge_method", "S256");
  query.set("response_type", "code");
  query.set("type", options.type);
  query.set("error_redirect_url", options.errorRedirectUrl);
  if (options.token) query.set("token", options.token);
  if (options.afterCallbackRedirectUrl)
    query.set("after_callback_redirect_url", options.afterCallbackRedirectUrl);
  if (options.providerScope) query.set("provider_scope", options.providerScope);
  query.set("stack_response_mode", "json");
  return `/auth/oauth/authorize/${encodeURIComponent(options.provider.toLowerCase())}?${query}`;
}

/** The same as an absolute URL; `baseUrl` is the Gatehouse origin, without /api/v1. */
export function authorizeUrl(options: AuthorizeOptions & { baseUrl: string }): string {
  return `${options.baseUrl.replace(/\/+$/, "")}/api/v1${authorizePath(options)}`;
}

export type OAuthCallback = {
  code: string;
  state: string;
  verifier: string;
  /** The callback page without `code` and `state`: the `redirect_uri` for the token exchange and for history. */
  redirectUri: string;
};

/**
 * Reads the callback page at `url`. Null when `code` or `state` is missing or no verifier cookie matches the state
 * (an old page from history, a flow that expired or already finished): the page then does nothing. The cookie is
 * deleted once read, so each flow completes once. A known error the server put in the query is thrown.
 */
export function readOAuthCallback(url: string | URL, document: CookieDocument): OAuthCallback | null {
  const page = new URL(url);
  const query = page.searchParams;
  const errorCode = query.get("errorCode");
  const message = query.get("message");
  if (errorCode && message) throw callbackError(errorCode, message, query.get("details"));

  const code = query.get("code");
  const state = query.get("state");
  if (!code || !state) return null;
  const cookieName = `${VERIFIER_COOKIE_PREFIX}${state}`;
  const verifier = readCookie(document, cookieName);
  if (!verifier) return null;
  document.cookie = `${cookieName}=${cookieAttributes(0, page.protocol === "https:")}`;

  query.delete("code");
  query.delete("state");
  page.hash = "";
  return { code, state, verifier, redirectUri: page.toString() };
}

/** The known error of a failed callback (WIRE.md §4.5: `errorCode`, `message`, `details` as JSON). */
function callbackError(code: string, message: string, details: string | null): KnownError {
  let parsed: unknown;
  try {
    parsed = details ? JSON.parse(details) : undefined;
  } catch {
    parsed = undefined;
  }
  const status = statusOf(code) ?? 400;
  return knownErrorFromWire(status, {
    code,
    message,
    details: parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : undefined,
  });
}
