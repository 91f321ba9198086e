// OAuth sign-in against a real OpenID Connect provider (the `oidc-provider` package in its own process on loopback,
// testing/oidc-provider-server.ts), configured as a project's generic `oidc` provider (WIRE.md §4.5, §4.17, §7).
// Gatehouse finds the provider by discovery and talks to it over real HTTP (token, userinfo, refresh); the test
// plays the browser: authorize, the provider's login and consent pages, the callback, the token exchange.
// Covers sign-up and sign-in with the provider's profile, linking, the merge rules, the callback's failures, the
// single use of both codes, an unreachable provider, and connected-account tokens (real, scoped, refreshed, sealed).
// The same flow through the built-in development provider is in routes/oauth.test.ts (which cannot link: its
// identities are unverified and never join an existing account).
import { KnownErrors } from "@gatehouse/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../crypto/secret-box.ts";
import { oauthAccounts } from "../db/schema.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  type AuthorizeOptions,
  cookiesOf,
  landingError,
  local,
  oauthClient,
  pkcePair,
} from "../testing/oauth-client.ts";
import {
  type OidcProvider,
  type ProviderChoice,
  startOidcProvider,
  throughOidcProvider,
} from "../testing/oidc-provider-process.ts";
import { freePort } from "../testing/server-process.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  TEST_BASE_URL,
  TEST_SECRET,
  type TestServer,
  uniqueEmail,
} from "../testing/test-server.ts";

const APP = "https://app.example.com";
const REDIRECT_URI = `${APP}/handler/oauth-callback`;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
/** The provider's access tokens live two minutes, so the clock can outrun them. */
const PROVIDER_ACCESS_TOKEN_TTL_S = 120;

let server: TestServer;
let provider: OidcProvider;

beforeAll(async () => {
  [server, provider] = await Promise.all([
    createTestServer(),
    startOidcProvider({
      accessTokenTtlSeconds: PROVIDER_ACCESS_TOKEN_TTL_S,
      redirectUris: [`${TEST_BASE_URL}/api/v1/auth/oauth/callback/oidc-corp`],
    }),
  ]);
});
afterAll(async () => {
  await provider?.stop();
  await server?.deps.emailWorker.stop();
  await server?.close();
});

// The app's requests, the same for every provider (testing/oauth-client.ts); the provider's pages are below.
const { get, postJson, authorize, followCallback, exchange, refresh, redeem, existingUser } = oauthClient(
  () => server,
  REDIRECT_URI,
);

/** A project's entry for an OpenID Connect provider. */
const oidcEntry = (of: OidcProvider, id = "oidc", issuerUrl = of.issuer) => ({
  id,
  type: "standard" as const,
  enabled: true,
  client_id: of.clientId,
  client_secret: of.clientSecret,
  issuer_url: issuerUrl,
});

async function newProject(config: Record<string, unknown> = {}): Promise<ProjectKeys> {
  const { keys } = await server.createProject(
    {
      displayName: "OIDC project",
      config: {
        oauth_providers: [oidcEntry(provider)],
        domains: [{ domain: APP, handler_path: "/handler" }],
        ...config,
      },
    },
    { expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) },
  );
  return keys;
}

/** A login name (the provider's account id) no other test uses. */
let logins = 0;
const uniqueLogin = (prefix = "user") => `${prefix}-${++logins}-${Math.random().toString(36).slice(2, 8)}`;
const emailOf = (login: string) => `${login}@oidc.example.com`;

type FlowOptions = Partial<AuthorizeOptions> & {
  provider?: string;
  /** Runs between the provider's redirect and the callback. */
  beforeCallback?: () => void | Promise<void>;
};

/** Authorize, then the provider's pages: the provider's redirect to Gatehouse's callback, not yet followed. */
async function toCallback(keys: ProjectKeys, choice: ProviderChoice, options: FlowOptions = {}) {
  const pkce = pkcePair();
  const state = `client-state-${Math.random()}`;
  const responseMode = options.responseMode ?? "json";
  const authorized = await authorize(options.provider ?? "oidc", keys, pkce, {
    state,
    ...options,
    responseMode,
  });
  let location: string;
  let cookie = "";
  if (responseMode === "json") {
    location = (await expectJson<{ location: string }>(authorized)).location;
  } else {
    expect(authorized.status, await authorized.clone().text()).toBe(307);
    location = authorized.headers.get("location") ?? "";
    cookie = cookiesOf(authorized);
  }
  const callback = await throughOidcProvider(location, choice);
  expect(callback.origin + callback.pathname).toBe(
    `${TEST_BASE_URL}/api/v1/auth/oauth/callback/${options.provider ?? "oidc"}`,
  );
  return { callback, cookie, pkce, state, location: new URL(location) };
}

/** The whole browser trip: answers where the callback sends the user (the app's redirect URI). */
async function throughProvider(keys: ProjectKeys, choice: ProviderChoice, options: FlowOptions = {}) {
  const started = await toCallback(keys, choice, options);
  await options.beforeCallback?.();
  return { ...started, landing: await followCallback(started.callback, started.cookie) };
}

/** Sign-in (or link) through the provider, to the tokens and the user they belong to. */
async function signIn(keys: ProjectKeys, login: string, options: FlowOptions = {}) {
  const trip = await throughProvider(keys, { login }, options);
  expect(trip.landing.origin + trip.landing.pathname).toBe(REDIRECT_URI);
  return redeem(keys, trip);
}

/** The known error the callback reported on the app's redirect URI, which then carries no code. */
function errorOnRedirectUri(landing: URL) {
  expect(landing.origin + landing.pathname).toBe(REDIRECT_URI);
  expect(landing.searchParams.get("code")).toBeNull();
  return landingError(landing);
}

describe("signing in with an OpenID Connect provider", () => {
  it("sends the user to the authorization endpoint found by discovery, with Gatehouse's own state and PKCE", async () => {
    const keys = await newProject();
    const pkce = pkcePair();
    const res = await authorize("oidc", keys, pkce, { responseMode: "json" });
    const url = new URL((await expectJson<{ location: string }>(res)).location);
    expect(url.origin + url.pathname).toBe(`${provider.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: provider.clientId,
      redirect_uri: `${TEST_BASE_URL}/api/v1/auth/oauth/callback/oidc`,
      response_type: "code",
      scope: "openid email profile",
      code_challenge_method: "S256",
    });
    expect(url.searchParams.get("code_challenge")).not.toBe(pkce.challenge);
    expect(url.searchParams.get("state")).toMatch(/^[0-9a-z]{45}$/);
    // The client secret never travels through the browser.
    expect(url.toString()).not.toContain(provider.clientSecret);
  });

  it("signs a new user up with the provider's profile, then signs the same user in", async () => {
    const keys = await newProject();
    const login = uniqueLogin("ada");
    const first = await signIn(keys, login);
    expect(first.tokens.is_new_user).toBe(true);
    expect(first.user).toMatchObject({
      primary_email: emailOf(login),
      primary_email_verified: true,
      display_name: `OIDC ${login}`,
      profile_image_url: `${provider.issuer}/pictures/${login}.png`,
      oauth_providers: [{ id: "oidc", account_id: login, email: emailOf(login) }],
    });
    // Redirect mode, with the inner cookie, signs the same account in again.
    const second = await signIn(keys, login, { responseMode: "redirect" });
    expect(second.tokens.is_new_user).toBe(false);
    expect(second.user.id).toBe(first.user.id);
    expect(second.user.oauth_providers).toHaveLength(1);
  });

  it("serves an `oidc-<name>` provider as a separate provider at its own callback", async () => {
    const keys = await newProject({
      oauth_providers: [oidcEntry(provider), oidcEntry(provider, "oidc-corp")],
    });
    const login = uniqueLogin("corp");
    const corp = await signIn(keys, login, { provider: "oidc-corp" });
    expect(corp.user.oauth_providers).toEqual([
      { id: "oidc-corp", account_id: login, email: emailOf(login) },
    ]);
    // The same person at the `oidc` entry is another provider account, joined by the verified address.
    const plain = await signIn(keys, login);
    expect(plain.user.id).toBe(corp.user.id);
    expect(plain.user.oauth_providers.map((p) => p.id)).toEqual(["oidc-corp", "oidc"]);
  });

  it("links the provider account to a signed-in password user, who can then sign in with it", async () => {
    const keys = await newProject();
    const email = uniqueEmail("password");
    const signedUp = await expectJson<{ access_token: string; user_id: string }>(
      await postJson(
        "/api/v1/auth/password/sign-up",
        { email, password: "correct horse battery" },
        accessHeaders("client", keys),
      ),
    );
    const login = uniqueLogin("linked");
    const linked = await signIn(keys, login, { type: "link", token: signedUp.access_token });
    expect(linked.tokens.is_new_user).toBe(false);
    expect(linked.user).toMatchObject({
      id: signedUp.user_id,
      primary_email: email,
      oauth_providers: [{ id: "oidc", account_id: login, email: emailOf(login) }],
    });
    const again = await signIn(keys, login);
    expect(again.tokens.is_new_user).toBe(false);
    expect(again.user.id).toBe(signedUp.user_id);
    // Linking the same account again only refreshes its tokens.
    const relinked = await signIn(keys, login, { type: "link", token: signedUp.access_token });
    expect(relinked.user.id).toBe(signedUp.user_id);
    expect(relinked.user.oauth_providers).toHaveLength(1);
    // Another user cannot link the same provider account.
    const other = await server.signIn(keys.projectId);
    const taken = await throughProvider(keys, { login }, { type: "link", token: other.accessToken });
    expect(errorOnRedirectUri(taken.landing).errorCode).toBe(
      "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER",
    );
    // Nor can the user link a second account of the same provider.
    const second = await throughProvider(
      keys,
      { login: uniqueLogin("second") },
      { type: "link", token: signedUp.access_token },
    );
    expect(errorOnRedirectUri(second.landing).errorCode).toBe(
      "USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION",
    );
  });

  it("joins a verified provider address to the user who signs in with it (link_method)", async () => {
    const keys = await newProject();
    const login = uniqueLogin("known");
    const userId = await existingUser(keys, emailOf(login), true);
    const joined = await signIn(keys, login);
    expect(joined.tokens.is_new_user).toBe(false);
    expect(joined.user.id).toBe(userId);
    expect(joined.user.oauth_providers).toEqual([{ id: "oidc", account_id: login, email: emailOf(login) }]);
  });

  it("refuses to merge with an existing user whose address is unverified", async () => {
    const keys = await newProject();
    const login = uniqueLogin("claimed");
    await existingUser(keys, emailOf(login), false);
    const { landing } = await throughProvider(keys, { login });
    expect(errorOnRedirectUri(landing)).toEqual({
      error: "server_error",
      errorCode: "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      details: {
        type: "email",
        contact_channel_value: emailOf(login),
        would_work_if_email_was_verified: true,
      },
    });
  });

  it("refuses an address the provider does not vouch for when a user already signs in with it", async () => {
    const keys = await newProject();
    const login = uniqueLogin("unverified-mallory");
    const victim = await existingUser(keys, emailOf(login), true);
    const { landing } = await throughProvider(keys, { login });
    expect(errorOnRedirectUri(landing)).toEqual({
      error: "server_error",
      errorCode: "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      details: {
        type: "email",
        contact_channel_value: emailOf(login),
        would_work_if_email_was_verified: false,
      },
    });
    const accounts = await server.deps.db
      .select()
      .from(oauthAccounts)
      .where(eq(oauthAccounts.userId, victim));
    expect(accounts).toEqual([]);
    // Nobody else has the address: a new user with it, unverified as the provider says.
    const fresh = await signIn(await newProject(), uniqueLogin("unverified-alone"));
    expect(fresh.tokens.is_new_user).toBe(true);
    expect(fresh.user.primary_email_verified).toBe(false);
  });
});

describe("the callback's failures", () => {
  it("reports a cancelled consent or login as OAUTH_PROVIDER_ACCESS_DENIED on the redirect URI", async () => {
    const keys = await newProject();
    for (const cancelAt of ["consent", "login"] as const) {
      const { callback, landing } = await throughProvider(keys, { cancelAt, login: uniqueLogin("shy") });
      expect(callback.searchParams.get("error")).toBe("access_denied");
      expect(errorOnRedirectUri(landing)).toEqual({
        error: "server_error",
        errorCode: "OAUTH_PROVIDER_ACCESS_DENIED",
        details: {},
      });
      expect(landing.searchParams.get("message")).toBe(KnownErrors.OAUTH_PROVIDER_ACCESS_DENIED().message);
    }
  });

  it("refuses an unknown state, a used state, and a redirect-mode callback without its cookie", async () => {
    const keys = await newProject();
    const { callback, cookie } = await toCallback(
      keys,
      { login: uniqueLogin("state") },
      { responseMode: "redirect" },
    );
    const forged = new URL(callback);
    forged.searchParams.set("state", "x".repeat(45));
    await expectTextError(
      await get(local(forged), { cookie }),
      400,
      "Invalid OAuth state. Please try signing in again.",
    );
    await expectTextError(
      await get(local(callback)),
      400,
      "Inner OAuth cookie not found. Please try signing in again.",
    );
    expect((await get(local(callback), { cookie })).status).toBe(303);
    // The provider's redirect replayed: its state is used.
    await expectTextError(
      await get(local(callback), { cookie }),
      400,
      "Invalid OAuth state. Please try signing in again.",
    );
  });

  it("refuses a provider code in a flow it was not issued for, and a provider code used twice", async () => {
    const keys = await newProject();
    const login = uniqueLogin("graft");
    const a = await toCallback(keys, { login });
    const b = await toCallback(keys, { login });
    // A's code with B's state: the provider refuses it, since B's verifier does not match A's challenge.
    const grafted = new URL(a.callback);
    grafted.searchParams.set("state", b.callback.searchParams.get("state") ?? "");
    const refused = await get(local(grafted));
    expect(errorOnRedirectUri(new URL(refused.headers.get("location") ?? "")).errorCode).toBe(
      "OAUTH_PROVIDER_ACCESS_DENIED",
    );
    // A's own flow still works with it, once.
    const signedIn = new URL((await get(local(a.callback))).headers.get("location") ?? "");
    expect(signedIn.searchParams.get("code")).toMatch(/^[0-9a-z]{45}$/);
    // The same code in a third flow: the provider has used it already.
    const c = await toCallback(keys, { login });
    const reused = new URL(c.callback);
    reused.searchParams.set("code", a.callback.searchParams.get("code") ?? "");
    const again = await get(local(reused));
    expect(errorOnRedirectUri(new URL(again.headers.get("location") ?? "")).errorCode).toBe(
      "OAUTH_PROVIDER_ACCESS_DENIED",
    );
  });

  it("answers OUTER_OAUTH_TIMEOUT when the flow is older than 10 minutes", async () => {
    const keys = await newProject();
    const { landing } = await throughProvider(
      keys,
      { login: uniqueLogin("slow") },
      { beforeCallback: () => server.clock.advance(10 * MINUTE + SECOND) },
    );
    expect(errorOnRedirectUri(landing).errorCode).toBe("OUTER_OAUTH_TIMEOUT");
  });

  it("reports an unreachable provider as OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE", async () => {
    const doomed = await startOidcProvider({ accessTokenTtlSeconds: PROVIDER_ACCESS_TOKEN_TTL_S });
    try {
      const keys = await newProject({ oauth_providers: [oidcEntry(doomed)] });
      const { tokens } = await signIn(keys, uniqueLogin("stranded"));
      // The provider goes away while the next user is on its pages.
      const { landing } = await throughProvider(
        keys,
        { login: uniqueLogin("stranded") },
        { beforeCallback: () => doomed.stop() },
      );
      expect(errorOnRedirectUri(landing)).toEqual({
        error: "server_error",
        errorCode: "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE",
        details: {},
      });
      // A connected account's token cannot be renewed either.
      server.clock.advance(PROVIDER_ACCESS_TOKEN_TTL_S * SECOND + SECOND);
      const res = await postJson(
        "/api/v1/connected-accounts/me/oidc/access-token",
        {},
        {
          ...accessHeaders("client", keys),
          "x-stack-access-token": tokens.access_token,
        },
      );
      const body = await expectKnownError(res, "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE");
      expect(body.details).toEqual({ provider: "oidc", details: "The provider could not be reached." });
    } finally {
      await doomed.stop();
    }
  });

  it("answers OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE at authorize when discovery fails", async () => {
    const dead = `http://localhost:${await freePort()}`;
    const keys = await newProject({ oauth_providers: [oidcEntry(provider, "oidc", dead)] });
    const res = await authorize("oidc", keys, pkcePair(), { responseMode: "json" });
    await expectKnownError(res, "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE");
  });
});

describe("Gatehouse's authorization code after a provider sign-in", () => {
  it("is bound to the app's verifier; a wrong one leaves it usable", async () => {
    const keys = await newProject();
    const { landing, pkce } = await throughProvider(keys, { login: uniqueLogin("verifier") });
    const code = landing.searchParams.get("code") ?? "";
    await expectKnownError(await exchange(keys, code, pkcePair().verifier), "INVALID_AUTHORIZATION_CODE");
    expect((await exchange(keys, code, pkce.verifier)).status).toBe(200);
  });

  it("is used once; a replay is refused and ends the session the first exchange opened", async () => {
    const keys = await newProject();
    const { tokens, code, pkce } = await signIn(keys, uniqueLogin("replay"));
    await expectKnownError(await exchange(keys, code, pkce.verifier), "INVALID_AUTHORIZATION_CODE");
    await expectKnownError(await refresh(keys, tokens.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });
});

describe("connected accounts at an OpenID Connect provider", () => {
  const box = createSecretBox(TEST_SECRET, "oauth");
  const accountOf = async (userId: string) => {
    const [row] = await server.deps.db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, userId));
    if (!row) throw new Error(`No oauth_accounts row for ${userId}`);
    return row;
  };

  async function connected() {
    const keys = await newProject();
    const login = uniqueLogin("connected");
    const { tokens, user } = await signIn(keys, login);
    const client = { ...accessHeaders("client", keys), "x-stack-access-token": tokens.access_token };
    const tokenFor = (body: unknown = {}, path = "/api/v1/connected-accounts/me/oidc/access-token") =>
      postJson(path, body, client);
    return { keys, login, user, client, tokenFor };
  }

  it("hands out the provider's real access token, for the scopes the provider granted", async () => {
    const { login, user, client, tokenFor } = await connected();
    const { access_token } = await expectJson<{ access_token: string }>(await tokenFor(), 201);
    const info = await expectJson<Record<string, unknown>>(await provider.userinfo(access_token));
    expect(info).toMatchObject({ sub: login, email: emailOf(login), email_verified: true });
    expect(await provider.userinfo("not-a-token")).toHaveProperty("status", 401);

    const byAccount = await tokenFor(
      { scope: "openid email" },
      `/api/v1/connected-accounts/me/oidc/${login}/access-token`,
    );
    expect(await expectJson(byAccount, 201)).toEqual({ access_token });
    await expectKnownError(
      await tokenFor({ scope: "email offline_access" }),
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
    );
    await expectKnownError(
      await tokenFor({}, "/api/v1/connected-accounts/me/oidc/someone-else/access-token"),
      "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
    );
    expect(await expectJson(await get("/api/v1/connected-accounts/me", client))).toEqual({
      items: [{ user_id: user.id, provider: "oidc", provider_account_id: login }],
      is_paginated: false,
    });
  });

  it("keeps the provider's tokens sealed at rest", async () => {
    const { user, tokenFor } = await connected();
    const { access_token } = await expectJson<{ access_token: string }>(await tokenFor(), 201);
    const row = await accountOf(user.id);
    expect(row.sealedAccessToken).not.toBeNull();
    expect(row.sealedAccessToken).not.toContain(access_token);
    expect(box.open(row.sealedAccessToken ?? "")).toBe(access_token);
    expect(row.sealedRefreshToken).not.toBeNull();
    const refreshToken = box.open(row.sealedRefreshToken ?? "");
    expect(refreshToken).not.toBe("");
    expect(row.sealedRefreshToken).not.toContain(refreshToken);
    expect(row.grantedScopes?.split(" ").sort()).toEqual(["email", "openid", "profile"]);
  });

  it("renews an expired access token with the refresh token", async () => {
    const { user, tokenFor } = await connected();
    const first = (await expectJson<{ access_token: string }>(await tokenFor(), 201)).access_token;
    // The provider's expires_in, counted on Gatehouse's clock.
    expect((await accountOf(user.id)).accessTokenExpiresAt?.getTime()).toBe(
      server.clock.now().getTime() + PROVIDER_ACCESS_TOKEN_TTL_S * SECOND,
    );
    // More than a minute before expiry: the same token.
    server.clock.advance(PROVIDER_ACCESS_TOKEN_TTL_S * SECOND - MINUTE - SECOND);
    expect((await expectJson<{ access_token: string }>(await tokenFor(), 201)).access_token).toBe(first);
    server.clock.advance(MINUTE + 2 * SECOND);
    const renewed = (await expectJson<{ access_token: string }>(await tokenFor({ scope: "email" }), 201))
      .access_token;
    expect(renewed).not.toBe(first);
    expect((await provider.userinfo(renewed)).status).toBe(200);
    const row = await accountOf(user.id);
    expect(box.open(row.sealedAccessToken ?? "")).toBe(renewed);
    expect(row.accessTokenExpiresAt?.getTime()).toBeGreaterThan(server.clock.now().getTime());
    // The renewed token is handed out until it expires in turn.
    expect((await expectJson<{ access_token: string }>(await tokenFor(), 201)).access_token).toBe(renewed);
  });

  it("answers OAUTH_ACCESS_TOKEN_NOT_AVAILABLE when the provider refuses the refresh token", async () => {
    const { user, tokenFor } = await connected();
    const row = await accountOf(user.id);
    await provider.revoke(box.open(row.sealedRefreshToken ?? ""));
    // The stored access token is handed out until it expires...
    expect((await tokenFor()).status).toBe(201);
    server.clock.advance(PROVIDER_ACCESS_TOKEN_TTL_S * SECOND + SECOND);
    // ...and then cannot be renewed.
    const body = await expectKnownError(await tokenFor(), "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE");
    expect(body.details).toEqual({
      provider: "oidc",
      details: "The provider refused the refresh token; the user must sign in with the provider again.",
    });
  });

  it("still hands out a valid stored token while the provider is unreachable", async () => {
    const doomed = await startOidcProvider();
    try {
      const keys = await newProject({ oauth_providers: [oidcEntry(doomed)] });
      const { user } = await signIn(keys, uniqueLogin("offline"));
      // As the server: the user's own access token would expire with the clock moved on.
      const tokenFor = () =>
        postJson(
          `/api/v1/connected-accounts/${user.id}/oidc/access-token`,
          {},
          accessHeaders("server", keys),
        );
      const stored = (await expectJson<{ access_token: string }>(await tokenFor(), 201)).access_token;
      await doomed.stop();
      // Past the ten minutes Gatehouse keeps a discovery document, within the hour the token lives.
      server.clock.advance(11 * MINUTE);
      expect(await expectJson(await tokenFor(), 201)).toEqual({ access_token: stored });
    } finally {
      await doomed.stop();
    }
  });
});
