// The members issue 16 added to match Stack's SDK, with an injected fetch: every redirectTo… page, getPartialUser
// from the access token, Convex's token hooks, a server user's team, password and verification calls, and the
// admin app's session-replay reads (none recorded: an empty list, ITEM_NOT_FOUND for an id).
import { describe, expect, it, vi } from "vitest";
import { StackAdminApp } from "./admin-app.ts";
import { StackClientApp } from "./client-app.ts";
import { partialUserOf } from "./partial-user.ts";
import { StackServerApp } from "./server-app.ts";

const USER_ID = "4f1c2d9e-0000-4000-8000-000000000001";
const TEAM_ID = "7a1c2d9e-0000-4000-8000-000000000002";
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const token = (claims: Record<string, unknown>) =>
  `${part({ alg: "ES256" })}.${part({ exp: Math.floor(Date.now() / 1000) + 600, ...claims })}.sig`;

type Route = { status?: number; body: unknown; knownError?: string };

function fakeFetch(routes: Record<string, Route>) {
  const calls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const call = `${init?.method ?? "GET"} ${url.pathname.replace(/^\/api\/v1/, "")}${url.search}`;
    calls.push(init?.body ? `${call} ${String(init.body)}` : call);
    const route = routes[call];
    if (!route) return new Response("Not found.", { status: 404 });
    const headers = new Headers({ "content-type": "application/json" });
    if (route.knownError) headers.set("x-stack-known-error", route.knownError);
    return new Response(JSON.stringify(route.body), { status: route.status ?? 200, headers });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const options = (fetch: typeof globalThis.fetch) => ({
  projectId: "p1",
  publishableClientKey: "pck_test",
  secretServerKey: "ssk_test",
  superSecretAdminKey: "sak_test",
  baseUrl: "https://auth.example.com",
  tokenStore: "memory" as const,
  fetch,
});

describe("redirects to every handler page", () => {
  it("goes to each page Stack's SDK has a redirectTo… for", async () => {
    const navigate = vi.fn();
    const app = new StackClientApp({ ...options(fakeFetch({}).fetch), redirectMethod: { navigate } });
    await app.redirectToPasswordReset();
    await app.redirectToForgotPassword();
    await app.redirectToEmailVerification();
    await app.redirectToOAuthCallback();
    await app.redirectToMagicLinkCallback();
    await app.redirectToTeamInvitation();
    await app.redirectToMfa();
    await app.redirectToError();
    await app.redirectToCliAuthConfirm();
    await app.redirectToOnboarding();
    await app.redirectToAfterSignUp();
    expect(navigate.mock.calls.map(([url]) => url)).toEqual([
      "/handler/password-reset",
      "/handler/forgot-password",
      "/handler/email-verification",
      "/handler/oauth-callback",
      "/handler/magic-link-callback",
      "/handler/team-invitation",
      "/handler/mfa",
      "/handler/error",
      "/handler/cli-auth-confirm",
      "/handler/onboarding",
      "/",
    ]);
  });
});

describe("getPartialUser and Convex's token hooks", () => {
  const claims = {
    sub: USER_ID,
    name: "Ada",
    email: "ada@example.com",
    email_verified: true,
    is_anonymous: false,
    is_restricted: false,
    restricted_reason: null,
    requires_totp_mfa: true,
  };

  it("reads the user from the access token's claims; anonymous users only when asked", () => {
    expect(partialUserOf(token(claims), { from: "token" })).toEqual({
      id: USER_ID,
      displayName: "Ada",
      primaryEmail: "ada@example.com",
      primaryEmailVerified: true,
      isAnonymous: false,
      isMultiFactorRequired: true,
      isRestricted: false,
      restrictedReason: null,
      customClaims: {},
    });
    const anonymous = token({ ...claims, is_anonymous: true, restricted_reason: { type: "anonymous" } });
    expect(partialUserOf(anonymous, { from: "token" })).toBeNull();
    expect(partialUserOf(anonymous, { from: "token", or: "anonymous-if-exists" })?.restrictedReason).toEqual({
      type: "anonymous",
    });
    expect(partialUserOf(null, { from: "token" })).toBeNull();
    expect(partialUserOf("not-a-jwt", { from: "token" })).toBeNull();
  });

  it("reads the project's custom claims (team roles, permissions, metadata) beside the standard ones", () => {
    const custom = {
      teams: [{ id: TEAM_ID, permissions: ["team_admin"] }],
      permissions: ["reports:read"],
      plan: "gold",
    };
    const user = partialUserOf(token({ ...claims, iss: "x", aud: "y", exp: 1, iat: 0, ...custom }), {
      from: "token",
    });
    expect(user?.customClaims).toEqual(custom);
  });

  it("answers from the app's token store, without a request", async () => {
    const { fetch, calls } = fakeFetch({});
    const app = new StackClientApp(options(fetch));
    expect(await app.getPartialUser({ from: "token" })).toBeNull();
    expect(await app.getConvexHttpClientAuth()).toBe("");
    const accessToken = token(claims);
    const tokenStore = { accessToken, refreshToken: "refresh-1" };
    expect((await app.getPartialUser({ from: "token", tokenStore }))?.id).toBe(USER_ID);
    expect(await app.getConvexHttpClientAuth({ tokenStore })).toBe(accessToken);
    expect(await app.getConvexClientAuth({ tokenStore })({ forceRefreshToken: false })).toBe(accessToken);
    expect(calls).toEqual([]);
  });
});

const USER_JSON = {
  id: USER_ID,
  primary_email: "ada@example.com",
  primary_email_verified: false,
  display_name: "Ada",
  selected_team: null,
  selected_team_id: null,
  profile_image_url: null,
  signed_up_at_millis: 1_700_000_000_000,
  last_active_at_millis: 1_700_000_000_000,
  has_password: true,
  otp_auth_enabled: false,
  passkey_auth_enabled: false,
  client_metadata: null,
  client_read_only_metadata: null,
  server_metadata: null,
  is_anonymous: false,
  is_restricted: false,
  restricted_reason: null,
  oauth_providers: [],
  auth_with_email: true,
  requires_totp_mfa: false,
};
const TEAM_JSON = {
  id: TEAM_ID,
  display_name: "Crew",
  profile_image_url: null,
  client_metadata: null,
  client_read_only_metadata: null,
  server_metadata: null,
  created_at_millis: 1_700_000_000_000,
};

describe("a server user's teams, password and verification e-mail", () => {
  it("makes Stack's calls for the user with the server key", async () => {
    const { fetch, calls } = fakeFetch({
      [`GET /users/${USER_ID}`]: { body: USER_JSON },
      [`GET /teams?user_id=${USER_ID}`]: { body: { items: [TEAM_JSON], is_paginated: false } },
      [`DELETE /team-memberships/${TEAM_ID}/${USER_ID}`]: { body: {} },
      [`PATCH /users/${USER_ID}`]: { body: USER_JSON },
      [`GET /contact-channels?user_id=${USER_ID}`]: {
        body: {
          items: [
            {
              id: "c1",
              type: "email",
              value: "old@example.com",
              is_primary: false,
              is_verified: true,
              used_for_auth: false,
            },
            {
              id: "c2",
              type: "email",
              value: "ada@example.com",
              is_primary: true,
              is_verified: false,
              used_for_auth: true,
            },
          ],
          is_paginated: false,
        },
      },
      [`POST /contact-channels/${USER_ID}/c2/send-verification-code`]: { body: {} },
    });
    const user = await new StackServerApp(options(fetch)).getUser(USER_ID);
    if (!user) throw new Error("no user");
    expect((await user.getTeam(TEAM_ID))?.displayName).toBe("Crew");
    expect(await user.getTeam("7a1c2d9e-0000-4000-8000-000000000009")).toBeNull();
    await user.leaveTeam({ id: TEAM_ID });
    await user.setPassword({ password: "a new password" });
    await user.setSelectedTeam(TEAM_ID);
    await user.sendVerificationEmail({ callbackUrl: "https://app.example.com/verify" });
    expect(calls.filter((c) => !c.startsWith("GET"))).toEqual([
      `DELETE /team-memberships/${TEAM_ID}/${USER_ID} {}`,
      `PATCH /users/${USER_ID} {"password":"a new password"}`,
      `PATCH /users/${USER_ID} {"selected_team_id":"${TEAM_ID}"}`,
      `POST /contact-channels/${USER_ID}/c2/send-verification-code {"callback_url":"https://app.example.com/verify"}`,
    ]);
    expect([user.countryCode, user.riskScores]).toEqual([null, { signUp: { bot: 0, freeTrialAbuse: 0 } }]);
  });
});

describe("session replays on the admin app", () => {
  it("lists none and answers ITEM_NOT_FOUND for an id, as the server does", async () => {
    const { fetch, calls } = fakeFetch({
      "GET /internal/session-replays?limit=5&user_ids=a%2Cb": {
        body: { items: [], pagination: { next_cursor: null } },
      },
      "GET /internal/session-replays/r1": {
        status: 404,
        knownError: "ITEM_NOT_FOUND",
        body: { code: "ITEM_NOT_FOUND", message: 'Item with ID "r1" not found.', details: { item_id: "r1" } },
      },
    });
    const admin = new StackAdminApp(options(fetch));
    expect(await admin.listSessionReplays({ limit: 5, userIds: ["a", "b"] })).toEqual({
      items: [],
      nextCursor: null,
    });
    await expect(admin.getSessionReplay("r1")).rejects.toMatchObject({ code: "ITEM_NOT_FOUND" });
    expect(calls).toEqual([
      "GET /internal/session-replays?limit=5&user_ids=a%2Cb",
      "GET /internal/session-replays/r1",
    ]);
  });
});
