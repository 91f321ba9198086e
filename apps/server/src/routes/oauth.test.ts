// OAuth sign-in through the development provider (WIRE.md §3.5, §4.5, §4.17, [GO] development provider), over
// HTTP hop by hop as a browser and an app make them: authorize, the provider's page, the callback, the token
// exchange. Covers the authorize checks, the callback's failures (state, cookie, denial, timeout), the code's
// single use and PKCE binding, the development identity's limits (switched on per instance, unverified, never joins
// or links an existing account), the account-merge strategies, MFA, and connected-account refusals.
// The same flow against a real OpenID provider process, with linking and merging, is in oauth/oidc-provider.test.ts.
import { KnownErrors } from "@gatehouse/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../db/schema.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  type AuthorizeOptions,
  cookiesOf,
  type Landing,
  landingError,
  local,
  type OAuthTokens,
  oauthClient,
  pkcePair,
  TOKEN_PATH,
} from "../testing/oauth-client.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
} from "../testing/test-server.ts";

const APP = "https://app.example.com";
const REDIRECT_URI = `${APP}/handler/oauth-callback`;
const ME = "/api/v1/users/me";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let server: TestServer;

beforeAll(async () => {
  // The instance's switch on for every project but the internal one (GATEHOUSE_DEVELOPMENT_OAUTH=*).
  server = await createTestServer({ developmentOAuth: ["*"] });
});
afterAll(async () => {
  await server.deps.emailWorker.stop();
  await server.close();
});

// The app's requests, the same for every provider (testing/oauth-client.ts); the provider's pages are below.
const {
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
} = oauthClient(() => server, REDIRECT_URI);

const providers = [
  { id: "github", type: "shared" as const, enabled: true },
  { id: "google", type: "shared" as const, enabled: true },
  { id: "spotify", type: "shared" as const, enabled: false },
];

async function newProject(
  config: Record<string, unknown> = {},
  isProductionMode = false,
): Promise<ProjectKeys> {
  const { keys } = await server.createProject(
    {
      displayName: "OAuth project",
      isProductionMode,
      config: {
        oauth_providers: providers,
        domains: [{ domain: APP, handler_path: "/handler" }],
        ...config,
      },
    },
    { expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) },
  );
  return keys;
}

type Identity = { email: string; display_name?: string } | "deny";

/**
 * Authorize (redirect mode, with its cookie), the development page, the choice, the callback: answers the URL the
 * callback sends the user to (the app's redirect URI with a code or an error).
 */
async function throughProvider(
  keys: ProjectKeys,
  identity: Identity,
  extra: Partial<AuthorizeOptions> & { provider?: string; beforeCallback?: () => void | Promise<void> } = {},
): Promise<Landing> {
  const pkce = pkcePair();
  const state = `client-state-${Math.random()}`;
  const authorized = await authorize(extra.provider ?? "github", keys, pkce, { state, ...extra });
  expect(authorized.status).toBe(307);
  const cookie = cookiesOf(authorized);
  const page = new URL(authorized.headers.get("location") ?? "");
  expect((await get(local(page))).status).toBe(200);
  const form = {
    state: page.searchParams.get("state") ?? "",
    code_challenge: page.searchParams.get("code_challenge") ?? "",
    redirect_uri: page.searchParams.get("redirect_uri") ?? "",
    ...(identity === "deny" ? { action: "deny" } : { action: "allow", ...identity }),
  };
  const chosen = await postForm(page.pathname, form);
  expect(chosen.status).toBe(303);
  await extra.beforeCallback?.();
  const landing = await followCallback(chosen.headers.get("location") ?? "", cookie);
  return { landing, pkce, state };
}

/** The whole sign-in: tokens and the user they belong to. */
async function signIn(
  keys: ProjectKeys,
  identity: Identity,
  extra: Parameters<typeof throughProvider>[2] = {},
) {
  return redeem(keys, await throughProvider(keys, identity, extra));
}

describe("GET /auth/oauth/authorize/{provider_id}", () => {
  it("answers the provider URL in json mode, with Gatehouse's own state and S256 challenge", async () => {
    const keys = await newProject();
    const pkce = pkcePair();
    const res = await authorize("github", keys, pkce, { responseMode: "json" });
    const { location } = await expectJson<{ location: string }>(res);
    const url = new URL(location);
    expect(url.origin + url.pathname).toBe("http://localhost:8102/api/v1/auth/oauth/development/github");
    expect(url.searchParams.get("state")).toMatch(/^[0-9a-z]{45}$/);
    // Our own PKCE pair towards the provider, not the app's.
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("code_challenge")).not.toBe(pkce.challenge);
    expect(url.searchParams.get("redirect_uri")).toBe(
      "http://localhost:8102/api/v1/auth/oauth/callback/github",
    );
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("redirects with 307 and sets the httpOnly inner-state cookie in redirect mode", async () => {
    const keys = await newProject();
    const res = await authorize("github", keys, pkcePair());
    expect(res.status).toBe(307);
    const state = new URL(res.headers.get("location") ?? "").searchParams.get("state");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toContain(`stack-oauth-inner-${state}=`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Max-Age=600");
  });

  it("accepts the public-client sentinel and `{project}#main` as client id", async () => {
    const keys = await newProject();
    const res = await authorize("github", keys, pkcePair(), {
      responseMode: "json",
      projectId: `${keys.projectId}#main`,
      clientSecret: "__stack_public_client__",
    });
    expect(res.status).toBe(200);
  });

  it("refuses bad clients, providers, scopes and URLs with the catalogue's errors", async () => {
    const keys = await newProject();
    const json = (extra: Partial<AuthorizeOptions>, provider = "github") =>
      authorize(provider, keys, pkcePair(), { responseMode: "json", ...extra });
    await expectKnownError(
      await json({ projectId: "no-such-project" }),
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
      {
        client_id: "no-such-project",
      },
    );
    await expectKnownError(await json({ clientSecret: "pck_wrong" }), "INVALID_PUBLISHABLE_CLIENT_KEY");
    await expectKnownError(await json({}, "facebook"), "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    await expectKnownError(await json({}, "spotify"), "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    const scope = await expectKnownError(await json({ override: { scope: "openid" } }), "INVALID_SCOPE");
    expect(scope.message).toBe('The scope "openid" is not a valid OAuth scope for Stack.');
    await expectKnownError(
      await json({ redirectUri: "https://evil.example.com/cb" }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    await expectKnownError(
      await json({ errorRedirectUri: "https://evil.example.com/error" }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    await expectKnownError(
      await json({ afterCallbackRedirectUrl: "https://app.example.com.evil.com/" }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    await expectKnownError(
      await json({ providerScope: "repo" }),
      "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
    );
    await expectKnownError(await json({ type: "link" }), "USER_AUTHENTICATION_REQUIRED");
    await expectKnownError(
      await json({ type: "link", token: "not-a-token" }),
      "USER_AUTHENTICATION_REQUIRED",
    );
  });

  it("requires PKCE with S256 and the OAuth parameters (SCHEMA_ERROR)", async () => {
    const keys = await newProject();
    const json = (override: Record<string, string | undefined>) =>
      authorize("github", keys, pkcePair(), { responseMode: "json", override });
    for (const override of [
      { code_challenge_method: "plain" },
      { code_challenge: undefined },
      { code_challenge_method: undefined },
      { state: undefined },
      { redirect_uri: undefined },
      { response_type: "token" },
      { grant_type: "implicit" },
      { type: "steal" },
      { code_challenge: "x".repeat(10_000) },
    ]) {
      await expectKnownError(await json(override), "SCHEMA_ERROR");
    }
    // Unknown parameters are tolerated.
    expect((await json({ prompt: "consent", foo: "bar" })).status).toBe(200);
  });

  it("refuses shared providers without instance keys in production mode", async () => {
    const keys = await newProject({ allow_localhost: false }, true);
    const res = await authorize("github", keys, pkcePair(), { responseMode: "json" });
    await expectKnownError(res, "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
  });

  it("refuses the internal project's shared providers: the switch's `*` never covers it", async () => {
    const patched = await server.request("/api/v1/projects/current", {
      method: "PATCH",
      headers: { ...accessHeaders("admin", server.internal), "content-type": "application/json" },
      body: JSON.stringify({
        config: { oauth_providers: [{ id: "github", type: "shared", enabled: true }] },
      }),
    });
    expect(patched.status).toBe(200);
    const res = await authorize("github", server.internal, pkcePair(), {
      responseMode: "json",
      redirectUri: "http://localhost:3000/handler/oauth-callback",
    });
    await expectKnownError(res, "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
  });
});

describe("the development provider's page", () => {
  it("says it is a test stand-in, offers test identities and only returns to this server's callback", async () => {
    const keys = await newProject();
    const res = await authorize("github", keys, pkcePair(), { responseMode: "json" });
    const page = new URL((await expectJson<{ location: string }>(res)).location);
    const answer = await get(local(page));
    const html = await answer.text();
    expect(html).toContain("Test stand-in · not GitHub");
    expect(html).toContain("This page is Gatehouse&#x27;s development provider, not GitHub.");
    expect(html).toContain("Continue as Ada Lovelace");
    expect(html).toContain("ada@example.com");
    // Never framed, no <base>, forms only to itself and (along the callback's redirect) to the app.
    const csp = answer.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'sha256-[\w+/=]+'; form-action 'self' https:\/\/app\.example\.com; frame-ancestors 'none'; base-uri 'none'$/,
    );
    expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
    page.searchParams.set("redirect_uri", "https://evil.example.com/steal");
    await expectTextError(
      await get(local(page)),
      400,
      "The development provider only returns to this server's OAuth callback.",
    );
  });

  it("refuses a choice without an e-mail address", async () => {
    const keys = await newProject();
    const res = await authorize("github", keys, pkcePair(), { responseMode: "json" });
    const page = new URL((await expectJson<{ location: string }>(res)).location);
    const chosen = await postForm(page.pathname, {
      state: page.searchParams.get("state") ?? "",
      code_challenge: "c",
      redirect_uri: "http://localhost:8102/api/v1/auth/oauth/callback/github",
      action: "allow",
      email: "not an address",
    });
    await expectTextError(chosen, 400, "Enter an e-mail address for the test identity.");
  });

  it("serves only a pending flow of a project the development provider stands in for", async () => {
    const form = (state: string, provider = "github") => ({
      state,
      code_challenge: "c",
      redirect_uri: `http://localhost:8102/api/v1/auth/oauth/callback/${provider}`,
      action: "allow",
      email: "mallory@example.com",
    });
    const invalid = "Invalid OAuth state. Please try signing in again.";
    await expectTextError(await postForm("/api/v1/auth/oauth/development/github", form("s")), 400, invalid);
    const keys = await newProject();
    const res = await authorize("github", keys, pkcePair(), { responseMode: "json" });
    const page = new URL((await expectJson<{ location: string }>(res)).location);
    const state = page.searchParams.get("state") ?? "";
    // The state belongs to one provider.
    await expectTextError(
      await postForm("/api/v1/auth/oauth/development/google", form(state, "google")),
      400,
      invalid,
    );
    // The project went live meanwhile: no more test identities for it.
    const live = await server.request("/api/v1/projects/current", {
      method: "PATCH",
      headers: { ...accessHeaders("admin", keys), "content-type": "application/json" },
      body: JSON.stringify({ is_production_mode: true, config: { allow_localhost: false } }),
    });
    expect(live.status).toBe(200);
    await expectKnownError(await get(local(page)), "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    await expectKnownError(
      await postForm(page.pathname, form(state)),
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
    );
  });
});

describe("OAuth sign-in and sign-up", () => {
  it("signs a new user up with the provider's profile, then signs the same user in", async () => {
    const keys = await newProject();
    const email = uniqueEmail("ada");
    const first = await signIn(
      keys,
      { email, display_name: "Ada L." },
      { afterCallbackRedirectUrl: `${APP}/next` },
    );
    expect(first.tokens).toMatchObject({
      token_type: "Bearer",
      scope: "legacy",
      is_new_user: true,
      newUser: true,
      after_callback_redirect_url: `${APP}/next`,
      afterCallbackRedirectUrl: `${APP}/next`,
    });
    // A typed address vouches for nothing: it arrives unverified.
    expect(first.user).toMatchObject({
      primary_email: email,
      primary_email_verified: false,
      display_name: "Ada L.",
      oauth_providers: [{ id: "github", account_id: email, email }],
    });
    const second = await signIn(keys, { email, display_name: "Ada L." });
    expect(second.tokens.is_new_user).toBe(false);
    expect(second.tokens.after_callback_redirect_url).toBeNull();
    expect(second.user.id).toBe(first.user.id);
    // Another provider's test identity with the same address never joins that user, whatever link_method says.
    const google = await throughProvider(keys, { email }, { provider: "google" });
    expect(landingError(google.landing).errorCode).toBe(
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
    );
  });

  it("also completes a flow started in json mode, which needs no cookie", async () => {
    const keys = await newProject();
    const pkce = pkcePair();
    const res = await authorize("github", keys, pkce, { responseMode: "json" });
    const page = new URL((await expectJson<{ location: string }>(res)).location);
    const chosen = await postForm(page.pathname, {
      state: page.searchParams.get("state") ?? "",
      code_challenge: page.searchParams.get("code_challenge") ?? "",
      redirect_uri: page.searchParams.get("redirect_uri") ?? "",
      action: "allow",
      email: uniqueEmail("json"),
    });
    // Form-post providers come back by POST: the same callback reads the body.
    const location = new URL(chosen.headers.get("location") ?? "");
    const callback = await postForm(location.pathname, Object.fromEntries(location.searchParams));
    expect(callback.status).toBe(303);
    const landing = new URL(callback.headers.get("location") ?? "");
    const tokens = await expectJson<OAuthTokens>(
      await exchange(keys, landing.searchParams.get("code") ?? "", pkce.verifier),
    );
    expect(tokens.is_new_user).toBe(true);
  });

  it("reports a denial on the app's redirect URI", async () => {
    const keys = await newProject();
    const { landing, state } = await throughProvider(keys, "deny");
    expect(landing.origin + landing.pathname).toBe(REDIRECT_URI);
    expect(landingError(landing)).toEqual({
      error: "server_error",
      errorCode: "OAUTH_PROVIDER_ACCESS_DENIED",
      details: {},
    });
    expect(landing.searchParams.get("message")).toBe(KnownErrors.OAUTH_PROVIDER_ACCESS_DENIED().message);
    expect(landing.searchParams.get("code")).toBeNull();
    expect(landing.searchParams.get("state")).not.toBe(state);
  });

  it("answers OUTER_OAUTH_TIMEOUT when the flow is older than 10 minutes", async () => {
    const keys = await newProject();
    const { landing } = await throughProvider(
      keys,
      { email: uniqueEmail("slow") },
      {
        beforeCallback: () => server.clock.advance(10 * MINUTE + 1000),
      },
    );
    expect(landingError(landing).errorCode).toBe("OUTER_OAUTH_TIMEOUT");
  });

  it("refuses an unknown or used state, and a redirect-mode callback without its cookie", async () => {
    const keys = await newProject();
    await expectTextError(
      await get("/api/v1/auth/oauth/callback/github?code=x&state=nope"),
      400,
      "Invalid OAuth state. Please try signing in again.",
    );
    await expectTextError(
      await get("/api/v1/auth/oauth/callback/github"),
      400,
      "Invalid OAuth state. Please try signing in again.",
    );

    const authorized = await authorize("github", keys, pkcePair());
    const page = new URL(authorized.headers.get("location") ?? "");
    const chosen = await postForm(page.pathname, {
      state: page.searchParams.get("state") ?? "",
      code_challenge: page.searchParams.get("code_challenge") ?? "",
      redirect_uri: page.searchParams.get("redirect_uri") ?? "",
      action: "allow",
      email: uniqueEmail("cookie"),
    });
    const callbackPath = local(chosen.headers.get("location") ?? "");
    await expectTextError(
      await get(callbackPath),
      400,
      "Inner OAuth cookie not found. Please try signing in again.",
    );
    // The state belongs to one provider's callback.
    await expectTextError(
      await get(callbackPath.replace("/callback/github", "/callback/google"), {
        cookie: cookiesOf(authorized),
      }),
      400,
      "Invalid OAuth state. Please try signing in again.",
    );
    expect((await get(callbackPath, { cookie: cookiesOf(authorized) })).status).toBe(303);
    await expectTextError(
      await get(callbackPath, { cookie: cookiesOf(authorized) }),
      400,
      "Invalid OAuth state. Please try signing in again.",
    );
  });

  it("refuses a new account when sign-up is off, and signs up nobody for a denied one", async () => {
    const keys = await newProject({ sign_up_enabled: false });
    const { landing } = await throughProvider(keys, { email: uniqueEmail("closed") });
    expect(landingError(landing).errorCode).toBe("SIGN_UP_NOT_ENABLED");
  });

  it("sends errors to the error redirect URL when the redirect URI is no longer trusted", async () => {
    const keys = await newProject();
    const errorUrl = `${APP}/oauth-error`;
    const { landing } = await throughProvider(keys, "deny", {
      redirectUri: "http://localhost:3000/handler/oauth-callback",
      errorRedirectUri: errorUrl,
      beforeCallback: async () => {
        const res = await server.request("/api/v1/projects/current", {
          method: "PATCH",
          headers: { ...accessHeaders("admin", keys), "content-type": "application/json" },
          body: JSON.stringify({ config: { allow_localhost: false } }),
        });
        expect(res.status).toBe(200);
      },
    });
    expect(landing.origin + landing.pathname).toBe(errorUrl);
    expect(landingError(landing).errorCode).toBe("OAUTH_PROVIDER_ACCESS_DENIED");
  });
});

describe("POST /auth/oauth/token with authorization_code", () => {
  it("uses a code once; a replay is refused and ends the session the first exchange opened", async () => {
    const keys = await newProject();
    const { tokens, code, pkce } = await signIn(keys, { email: uniqueEmail("replay") });
    await expectKnownError(await exchange(keys, code, pkce.verifier), "INVALID_AUTHORIZATION_CODE");
    await expectKnownError(await refresh(keys, tokens.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("binds the code to the app's verifier and redirect URI; a failed try leaves it usable", async () => {
    const keys = await newProject();
    const { landing, pkce } = await throughProvider(keys, { email: uniqueEmail("pkce") });
    const code = landing.searchParams.get("code") ?? "";
    await expectKnownError(await exchange(keys, code, pkcePair().verifier), "INVALID_AUTHORIZATION_CODE");
    await expectTextError(
      await exchange(keys, code, pkce.verifier, `${APP}/other`),
      400,
      "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.",
    );
    const missingVerifier = await postForm(TOKEN_PATH, {
      grant_type: "authorization_code",
      client_id: keys.projectId,
      client_secret: keys.pck,
      code,
      redirect_uri: REDIRECT_URI,
    });
    await expectKnownError(missingVerifier, "INVALID_AUTHORIZATION_CODE");
    expect((await exchange(keys, code, pkce.verifier)).status).toBe(200);
  });

  it("refuses codes after 5 minutes, unknown codes, other projects' codes, and a missing code", async () => {
    const keys = await newProject();
    const other = await newProject();
    const { landing, pkce } = await throughProvider(keys, { email: uniqueEmail("late") });
    const code = landing.searchParams.get("code") ?? "";
    await expectKnownError(await exchange(other, code, pkce.verifier), "INVALID_AUTHORIZATION_CODE");
    await expectKnownError(await exchange(keys, "x".repeat(45), pkce.verifier), "INVALID_AUTHORIZATION_CODE");
    server.clock.advance(5 * MINUTE);
    await expectKnownError(await exchange(keys, code, pkce.verifier), "INVALID_AUTHORIZATION_CODE");
    const missing = await postForm(TOKEN_PATH, {
      grant_type: "authorization_code",
      client_id: keys.projectId,
      client_secret: keys.pck,
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: "invalid_request",
      error_description: "The code parameter is missing.",
    });
  });

  it("pauses a TOTP user's sign-in with MULTI_FACTOR_AUTHENTICATION_REQUIRED", async () => {
    const keys = await newProject();
    const email = uniqueEmail("totp");
    const { tokens } = await signIn(keys, { email });
    const patched = await server.request(ME, {
      method: "PATCH",
      headers: {
        ...accessHeaders("client", keys),
        "x-stack-access-token": tokens.access_token,
        "content-type": "application/json",
      },
      body: JSON.stringify({ totp_secret_base64: Buffer.from("0123456789abcdefghij").toString("base64") }),
    });
    expect(patched.status).toBe(200);
    const { landing, pkce } = await throughProvider(keys, { email });
    const res = await exchange(keys, landing.searchParams.get("code") ?? "", pkce.verifier);
    const body = await expectKnownError(res, "MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    expect((body.details as { attempt_code: string }).attempt_code).toMatch(/^[0-9a-z]{45}$/);
  });
});

describe("linking and account merging", () => {
  /** A password user the server created, with a session the server opened for them. */
  async function passwordUser(keys: ProjectKeys, email: string, verified: boolean) {
    const id = await existingUser(keys, email, verified);
    return { id, accessToken: await sessionFor(keys, id) };
  }

  it("never links a test identity to the signed-in user: anyone could sign in with it later", async () => {
    const keys = await newProject();
    const owner = await passwordUser(keys, uniqueEmail("owner"), true);
    const res = await authorize("github", keys, pkcePair(), {
      responseMode: "json",
      type: "link",
      token: owner.accessToken,
    });
    await expectKnownError(res, "OAUTH_PROVIDER_ACCESS_DENIED");
    const accounts = await server.deps.db
      .select()
      .from(schema.oauthAccounts)
      .where(eq(schema.oauthAccounts.userId, owner.id));
    expect(accounts).toEqual([]);
  });

  it("never joins a test identity to the account that owns its address, whatever the merge strategy", async () => {
    /** The address's owner after the attempt: no provider account, and the e-mail as it was. */
    async function untouched(keys: ProjectKeys, owner: { id: string }, email: string, verified: boolean) {
      const user = await expectJson<{ primary_email: string; primary_email_verified: boolean }>(
        await server.request(`/api/v1/users/${owner.id}`, { headers: accessHeaders("server", keys) }),
      );
      expect(user).toMatchObject({ primary_email: email, primary_email_verified: verified });
      const accounts = await server.deps.db
        .select()
        .from(schema.oauthAccounts)
        .where(eq(schema.oauthAccounts.userId, owner.id));
      expect(accounts).toEqual([]);
    }
    const refusal = (email: string) => ({
      error: "server_error",
      errorCode: "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      details: { type: "email", contact_channel_value: email, would_work_if_email_was_verified: false },
    });

    // link_method (the default) would join two verified addresses; a typed one is never verified, so: refused.
    const linkKeys = await newProject();
    const verified = uniqueEmail("verified");
    const victim = await passwordUser(linkKeys, verified, true);
    expect(landingError((await throughProvider(linkKeys, { email: verified })).landing)).toEqual(
      refusal(verified),
    );
    await untouched(linkKeys, victim, verified, true);
    // Verifying the existing address would not help either, so the error does not say it would.
    const unverified = uniqueEmail("unverified");
    const unverifiedOwner = await passwordUser(linkKeys, unverified, false);
    expect(landingError((await throughProvider(linkKeys, { email: unverified })).landing)).toEqual(
      refusal(unverified),
    );
    await untouched(linkKeys, unverifiedOwner, unverified, false);

    const raiseKeys = await newProject({ oauth_account_merge_strategy: "raise_error" });
    const raised = uniqueEmail("raise");
    const raisedOwner = await passwordUser(raiseKeys, raised, true);
    expect(landingError((await throughProvider(raiseKeys, { email: raised })).landing)).toEqual(
      refusal(raised),
    );
    await untouched(raiseKeys, raisedOwner, raised, true);

    // allow_duplicates: a separate user, whose unverified copy of the address cannot be used to sign in.
    const duplicateKeys = await newProject({ oauth_account_merge_strategy: "allow_duplicates" });
    const shared = uniqueEmail("dup");
    const original = await passwordUser(duplicateKeys, shared, true);
    const duplicate = await signIn(duplicateKeys, { email: shared });
    expect(duplicate.tokens.is_new_user).toBe(true);
    expect(duplicate.user.id).not.toBe(original.id);
    expect(duplicate.user.primary_email).toBe(shared);
    const asServer = await expectJson<{
      primary_email_auth_enabled: boolean;
      primary_email_verified: boolean;
    }>(
      await server.request(`/api/v1/users/${duplicate.user.id}`, {
        headers: accessHeaders("server", duplicateKeys),
      }),
    );
    expect(asServer).toMatchObject({ primary_email_auth_enabled: false, primary_email_verified: false });
    await untouched(duplicateKeys, original, shared, true);
  });

  it("upgrades an anonymous caller instead of creating another user", async () => {
    const keys = await newProject();
    const anonymous = await expectJson<{ access_token: string; user_id: string }>(
      await server.request("/api/v1/auth/anonymous/sign-up", {
        method: "POST",
        headers: { ...accessHeaders("client", keys), "x-forwarded-for": uniqueIp() },
      }),
    );
    const email = uniqueEmail("anon");
    const upgraded = await signIn(keys, { email }, { token: anonymous.access_token });
    expect(upgraded.tokens.is_new_user).toBe(true);
    expect(upgraded.user).toMatchObject({ id: anonymous.user_id, is_anonymous: false, primary_email: email });
    // One change, one event: the upgrade with its e-mail and provider account is a single user.updated.
    const events = await server.deps.db
      .select({ type: schema.webhookEvents.type, data: schema.webhookEvents.data })
      .from(schema.webhookEvents)
      .where(eq(schema.webhookEvents.projectId, keys.projectId));
    const updates = events.filter((e) => e.type === "user.updated" && e.data.id === anonymous.user_id);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.data).toMatchObject({ primary_email: email, is_anonymous: false });
  });
});

describe("connected accounts", () => {
  it("lists a user's accounts, and refuses tokens for shared keys, other users and missing accounts", async () => {
    const keys = await newProject({
      oauth_providers: [
        ...providers,
        { id: "gitlab", type: "standard", enabled: true, client_id: "id", client_secret: "secret" },
      ],
    });
    const email = uniqueEmail("ca");
    const { tokens, user } = await signIn(keys, { email });
    const client = { ...accessHeaders("client", keys), "x-stack-access-token": tokens.access_token };
    const list = await expectJson(await get("/api/v1/connected-accounts/me", client));
    expect(list).toEqual({
      items: [{ user_id: user.id, provider: "github", provider_account_id: email }],
      is_paginated: false,
    });
    const tokenFor = (path: string, headers = client, body: unknown = {}) => postJson(path, body, headers);
    await expectKnownError(
      await tokenFor("/api/v1/connected-accounts/me/github/access-token"),
      "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
    );
    await expectKnownError(
      await tokenFor("/api/v1/connected-accounts/me/gitlab/access-token"),
      "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
    );
    await expectKnownError(
      await tokenFor(`/api/v1/connected-accounts/me/gitlab/${email}/access-token`),
      "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
    );
    await expectKnownError(
      await tokenFor("/api/v1/connected-accounts/me/discord/access-token"),
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
    );
    const stranger = await server.signIn(keys.projectId);
    await expectTextError(
      await get(`/api/v1/connected-accounts/${stranger.userId}`, client),
      403,
      "Client can only access their own connected accounts.",
    );
    // Servers may read anyone's; unknown users are USER_NOT_FOUND.
    expect(
      (await get(`/api/v1/connected-accounts/${stranger.userId}`, accessHeaders("server", keys))).status,
    ).toBe(200);
    await expectKnownError(
      await get(`/api/v1/connected-accounts/${crypto.randomUUID()}`, accessHeaders("server", keys)),
      "USER_NOT_FOUND",
    );
    // A user id is a uuid or `me`; anything else never reaches the database.
    await expectKnownError(
      await get("/api/v1/connected-accounts/not-a-uuid", accessHeaders("server", keys)),
      "SCHEMA_ERROR",
    );
    await expectKnownError(
      await tokenFor("/api/v1/connected-accounts/me/gitlab/access-token", client, { scope: 5 }),
      "SCHEMA_ERROR",
    );
    await expectKnownError(
      await tokenFor("/api/v1/connected-accounts/me/gitlab/access-token", client, { extra: 1 }),
      "SCHEMA_ERROR",
    );
  });
});
