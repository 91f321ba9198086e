// What an app and its user's browser do around Gatehouse's OAuth endpoints, for tests: a PKCE pair and a state, the
// authorize URL the app opens, the callback the provider sends the browser to, and the token exchange the app makes
// with the code the callback brings back. Redirects are followed by hand, so a test sees every hop (the provider's
// pages, the callback, the app's redirect URI). The provider's own pages are each test's business: the development
// provider in routes/oauth.test.ts, a real OpenID Connect provider in oauth/oidc-provider.test.ts.
// First the plain pieces (PKCE, URLs, form bodies, cookies), then oauthClient(): the requests against a test server.
import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { expectJson } from "./expect-error.ts";
import { accessHeaders, type ProjectKeys, type TestServer, uniqueIp } from "./test-server.ts";

export const TOKEN_PATH = "/api/v1/auth/oauth/token";

export type PkcePair = { verifier: string; challenge: string };

export function pkcePair(): PkcePair {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export type AuthorizeOptions = {
  projectId: string;
  clientSecret: string;
  redirectUri: string;
  pkce: PkcePair;
  state?: string;
  type?: "authenticate" | "link";
  token?: string;
  providerScope?: string;
  errorRedirectUri?: string;
  afterCallbackRedirectUrl?: string;
  responseMode?: "json" | "redirect";
  /** Overrides or removes (undefined) parameters, for tests of bad requests. */
  override?: Record<string, string | undefined>;
};

/** `/api/v1/auth/oauth/authorize/{provider}?…` as the Stack SDK builds it. */
export function authorizePath(providerId: string, o: AuthorizeOptions): string {
  const params: Record<string, string | undefined> = {
    client_id: o.projectId,
    client_secret: o.clientSecret,
    redirect_uri: o.redirectUri,
    scope: "legacy",
    state: o.state ?? randomBytes(16).toString("hex"),
    grant_type: "authorization_code",
    code_challenge: o.pkce.challenge,
    code_challenge_method: "S256",
    response_type: "code",
    type: o.type,
    token: o.token,
    provider_scope: o.providerScope,
    error_redirect_uri: o.errorRedirectUri,
    after_callback_redirect_url: o.afterCallbackRedirectUrl,
    stack_response_mode: o.responseMode,
    ...o.override,
  };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `/api/v1/auth/oauth/authorize/${providerId}?${query}`;
}

/** The token endpoint's form body for the authorization_code grant. */
export function codeGrantBody(input: {
  projectId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  verifier: string;
}): URLSearchParams {
  return new URLSearchParams({
    grant_type: "authorization_code",
    client_id: input.projectId,
    client_secret: input.clientSecret,
    code: input.code,
    redirect_uri: input.redirectUri,
    code_verifier: input.verifier,
  });
}

/** The cookies a response sets, as a Cookie header value (name=value pairs only). */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** The path and query of an absolute URL on the test server. */
export function local(url: string | URL): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** The error the callback reported on the redirect URI it sent the user to. */
export function landingError(landing: URL) {
  return {
    error: landing.searchParams.get("error"),
    errorCode: landing.searchParams.get("errorCode"),
    details: JSON.parse(landing.searchParams.get("details") ?? "null"),
  };
}

export type OAuthTokens = {
  access_token: string;
  refresh_token: string;
  is_new_user: boolean;
  after_callback_redirect_url: string | null;
};
export type OAuthUser = {
  id: string;
  primary_email: string | null;
  primary_email_verified: boolean;
  display_name: string | null;
  oauth_providers: { id: string; account_id: string; email: string | null }[];
};

/** A trip through the provider, back on the app's redirect URI: where it landed, and the app's PKCE pair and state. */
export type Landing = { landing: URL; pkce: PkcePair; state: string };

/**
 * The requests of an app whose OAuth redirect URI is `redirectUri`, against the test server `server()` answers (a
 * getter: suites create their server in beforeAll). Each request comes from a new client address, so the per-IP
 * limits stay out of the way.
 */
export function oauthClient(server: () => TestServer, redirectUri: string) {
  const get = (path: string, headers: Record<string, string> = {}) =>
    server().request(path, { headers: { "x-forwarded-for": uniqueIp(), ...headers } });

  const postForm = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    server().request(path, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": uniqueIp(),
        ...headers,
      },
      body: new URLSearchParams(form),
    });

  const postJson = (path: string, body: unknown, headers: Record<string, string>) =>
    server().request(path, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "x-forwarded-for": uniqueIp() },
      body: JSON.stringify(body),
    });

  /** The app opening the authorize URL of `providerId` for a project, with its redirect URI and `extra` on top. */
  const authorize = (
    providerId: string,
    keys: ProjectKeys,
    pkce: PkcePair,
    extra: Partial<AuthorizeOptions> = {},
  ) =>
    get(
      authorizePath(providerId, {
        projectId: keys.projectId,
        clientSecret: keys.pck,
        redirectUri,
        pkce,
        ...extra,
      }),
    );

  /** Follows the provider's redirect to Gatehouse's callback: answers where the callback sends the user. */
  async function followCallback(callback: string | URL, cookie: string): Promise<URL> {
    const answer = await get(local(callback), { cookie });
    expect(answer.status, await answer.clone().text()).toBe(303);
    return new URL(answer.headers.get("location") ?? "");
  }

  /** The app's token exchange for a code. */
  const exchange = (keys: ProjectKeys, code: string, verifier: string, redirect = redirectUri) =>
    postForm(
      TOKEN_PATH,
      Object.fromEntries(
        codeGrantBody({
          projectId: keys.projectId,
          clientSecret: keys.pck,
          code,
          redirectUri: redirect,
          verifier,
        }),
      ),
    );

  /** The app's refresh_token grant. */
  const refresh = (keys: ProjectKeys, refreshToken: string) =>
    postForm(TOKEN_PATH, {
      grant_type: "refresh_token",
      client_id: keys.projectId,
      client_secret: keys.pck,
      refresh_token: refreshToken,
    });

  async function me(keys: ProjectKeys, accessToken: string): Promise<OAuthUser> {
    return expectJson<OAuthUser>(
      await get("/api/v1/users/me", {
        ...accessHeaders("client", keys),
        "x-stack-access-token": accessToken,
      }),
    );
  }

  /** The end of a sign-in: the landing carries the app's state and a code, exchanged for tokens and their user. */
  async function redeem(keys: ProjectKeys, { landing, pkce, state }: Landing) {
    expect(landing.searchParams.get("error"), landing.toString()).toBeNull();
    expect(landing.searchParams.get("state")).toBe(state);
    const code = landing.searchParams.get("code") ?? "";
    const tokens = await expectJson<OAuthTokens>(await exchange(keys, code, pkce.verifier));
    return { tokens, user: await me(keys, tokens.access_token), code, pkce };
  }

  /** A user the server created, whose e-mail signs in with a password; answers their id. */
  async function existingUser(keys: ProjectKeys, email: string, verified: boolean): Promise<string> {
    const user = await expectJson<{ id: string }>(
      await postJson(
        "/api/v1/users",
        {
          primary_email: email,
          primary_email_verified: verified,
          primary_email_auth_enabled: true,
          password: "correct horse battery",
        },
        accessHeaders("server", keys),
      ),
      201,
    );
    return user.id;
  }

  /** A session the server opened for a user (no sign-in); answers its access token. */
  async function sessionFor(keys: ProjectKeys, userId: string): Promise<string> {
    const session = await expectJson<{ access_token: string }>(
      await postJson("/api/v1/auth/sessions", { user_id: userId }, accessHeaders("server", keys)),
    );
    return session.access_token;
  }

  return {
    get,
    postForm,
    postJson,
    authorize,
    followCallback,
    exchange,
    refresh,
    redeem,
    existingUser,
    sessionFor,
  };
}
