// The token endpoint (WIRE.md §3.5), the session endpoints (§4.6) and GET /users/me (§4.8, shapes of §4.0):
// refresh grants, client authentication, OAuth errors, session lifetimes and ends on the test clock, listing,
// deleting, header refresh, and the client and server user shapes.
import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";

const TOKEN = "/api/v1/auth/oauth/token";
const SESSIONS = "/api/v1/auth/sessions";
const ME = "/api/v1/users/me";
const PUBLIC_CLIENT = "__stack_public_client__";
const YEAR_MS = 365 * 24 * 3600 * 1000;

let server: TestServer;
let keys: ProjectKeys;
let other: ProjectKeys;

// Keys far in the future: some tests move the clock by more than a year.
const longKeys = { expiresAt: new Date("2099-12-31T00:00:00Z") };

beforeAll(async () => {
  server = await createTestServer();
  keys = (await server.createProject({ displayName: "Sessions" }, longKeys)).keys;
  other = (await server.createProject({ displayName: "Other" }, longKeys)).keys;
});
afterAll(() => server.close());

type Tokens = { accessToken: string; refreshToken: string; userId: string; sessionId: string };

const withToken = (token: string | undefined, type: "client" | "server" | "admin" = "client") => ({
  ...accessHeaders(type, keys),
  ...(token ? { "x-stack-access-token": token } : {}),
});

const getMe = (token?: string, type: "client" | "server" | "admin" = "client") =>
  server.request(ME, { headers: withToken(token, type) });

const tokenForm = (fields: Record<string, string>) =>
  server.request(TOKEN, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

const tokenJson = (fields: Record<string, unknown>) =>
  server.request(TOKEN, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(fields),
  });

const refreshGrant = (refreshToken: string, k: ProjectKeys = keys, extra: Record<string, string> = {}) =>
  tokenForm({
    grant_type: "refresh_token",
    client_id: k.projectId,
    client_secret: k.pck,
    refresh_token: refreshToken,
    ...extra,
  });

type TokenAnswer = {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  refresh_token: string;
};

async function expectTokenAnswer(res: Response, refreshToken: string): Promise<TokenAnswer> {
  expect(res.status).toBe(200);
  expect(res.headers.get("pragma")).toBe("no-cache");
  expect(res.headers.get("cache-control")).toBe("no-store, max-age=0");
  const body = (await res.json()) as TokenAnswer;
  expect(body).toEqual({
    access_token: expect.any(String),
    token_type: "Bearer",
    expires_in: 600,
    scope: "legacy",
    refresh_token: refreshToken,
  });
  return body;
}

async function expectUser(token: string, userId: string) {
  const res = await getMe(token);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { id: string }).id).toBe(userId);
}

async function expectOAuthError(res: Response, error: string) {
  expect(res.status).toBe(400);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(res.headers.get("x-stack-known-error")).toBeNull();
  expect(res.headers.get("x-hexclave-known-error")).toBeNull();
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toEqual({ error, error_description: expect.any(String) });
}

const createSession = (body: Record<string, unknown>, type: "client" | "server" | "admin" = "server") =>
  server.request(SESSIONS, {
    method: "POST",
    headers: { ...accessHeaders(type, keys), "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function openSession(userId: string, extra: Record<string, unknown> = {}) {
  const res = await createSession({ user_id: userId, ...extra });
  expect(res.status).toBe(200);
  return (await res.json()) as { refresh_token: string; access_token: string };
}

type SessionItem = {
  id: string;
  user_id: string;
  created_at: number;
  last_used_at: number;
  is_impersonation: boolean;
  is_current_session: boolean;
};

async function listSessions(userId: string, token?: string, type: "client" | "server" | "admin" = "client") {
  const res = await server.request(`${SESSIONS}?user_id=${userId}`, { headers: withToken(token, type) });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { items: SessionItem[]; is_paginated: boolean };
  expect(body.is_paginated).toBe(false);
  return body.items;
}

const deleteSession = (sessionId: string, userId: string, token?: string) =>
  server.request(`${SESSIONS}/${sessionId}?user_id=${userId}`, {
    method: "DELETE",
    headers: { ...withToken(token), "content-type": "application/json" },
    body: "{}",
  });

const signOut = (token?: string, extra: Record<string, string> = {}) =>
  server.request(`${SESSIONS}/current`, {
    method: "DELETE",
    headers: { ...withToken(token), "content-type": "application/json", ...extra },
    body: "{}",
  });

const refreshCurrent = (headers: Record<string, string>) =>
  server.request(`${SESSIONS}/current/refresh`, {
    method: "POST",
    headers: { ...accessHeaders("client", keys), ...headers },
  });

const signIn = (): Promise<Tokens> => server.signIn(keys.projectId);

describe("POST /auth/oauth/token, refresh grant", () => {
  it("answers a form-encoded refresh grant with a working access token", async () => {
    const { refreshToken, userId } = await signIn();
    const body = await expectTokenAnswer(await refreshGrant(refreshToken), refreshToken);
    await expectUser(body.access_token, userId);
  });

  it("takes JSON too, and the project id with #main", async () => {
    const { refreshToken, userId } = await signIn();
    const json = await expectTokenAnswer(
      await tokenJson({
        grant_type: "refresh_token",
        client_id: keys.projectId,
        client_secret: keys.pck,
        refresh_token: refreshToken,
      }),
      refreshToken,
    );
    await expectUser(json.access_token, userId);
    await expectTokenAnswer(
      await refreshGrant(refreshToken, { ...keys, projectId: `${keys.projectId}#main` }),
      refreshToken,
    );
    // `scope=legacy` is the one scope there is; unknown parameters are ignored.
    await expectTokenAnswer(
      await refreshGrant(refreshToken, keys, { scope: "legacy", foo: "bar" }),
      refreshToken,
    );
  });

  it("refuses unknown, foreign and missing clients", async () => {
    const { refreshToken } = await signIn();
    await expectKnownError(
      await refreshGrant(refreshToken, { ...keys, projectId: "no-such-project" }),
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
      { client_id: "no-such-project" },
    );
    await expectKnownError(
      await refreshGrant(refreshToken, { ...keys, pck: other.pck }),
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
      { client_id: keys.projectId },
    );
    await expectKnownError(
      await refreshGrant(refreshToken, { ...keys, pck: "pck_not_a_key" }),
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
    );
    await expectKnownError(
      await tokenForm({ grant_type: "refresh_token", client_secret: keys.pck, refresh_token: refreshToken }),
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
    );
    await expectKnownError(
      await refreshGrant(refreshToken, { ...keys, projectId: `${keys.projectId}#dev` }),
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
    );
    const expired = (
      await server.createProject({}, { expiresAt: new Date(server.clock.now().getTime() - 1) })
    ).keys;
    const expiredUser = await server.signIn(expired.projectId);
    await expectKnownError(
      await refreshGrant(expiredUser.refreshToken, expired),
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
    );
    // A refresh token is only good at its own project.
    await expectKnownError(await refreshGrant(refreshToken, other), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("accepts the public-client sentinel unless the project requires publishable keys", async () => {
    const { refreshToken } = await signIn();
    await expectTokenAnswer(await refreshGrant(refreshToken, { ...keys, pck: PUBLIC_CLIENT }), refreshToken);
    const strict = (
      await server.createProject({ config: { require_publishable_client_key: true } }, longKeys)
    ).keys;
    const strictUser = await server.signIn(strict.projectId);
    await expectKnownError(
      await refreshGrant(strictUser.refreshToken, { ...strict, pck: PUBLIC_CLIENT }),
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
      { project_id: strict.projectId },
    );
    await expectKnownError(
      await tokenForm({
        grant_type: "refresh_token",
        client_id: strict.projectId,
        refresh_token: strictUser.refreshToken,
      }),
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
    );
    await expectTokenAnswer(await refreshGrant(strictUser.refreshToken, strict), strictUser.refreshToken);
  });

  it("refuses scopes other than legacy", async () => {
    const { refreshToken } = await signIn();
    const body = await expectKnownError(
      await refreshGrant(refreshToken, keys, { scope: "openid" }),
      "INVALID_SCOPE",
    );
    expect(body.message).toBe('The scope "openid" is not a valid OAuth scope for Stack.');
  });

  it("answers OAuth errors as plain JSON, not known errors", async () => {
    const { refreshToken } = await signIn();
    await expectOAuthError(
      await refreshGrant(refreshToken, keys, { grant_type: "password" }),
      "unsupported_grant_type",
    );
    await expectOAuthError(
      await tokenForm({ grant_type: "refresh_token", client_id: keys.projectId, client_secret: keys.pck }),
      "invalid_request",
    );
  });

  it("masks its 4xx answers when asked to (§1.8)", async () => {
    const masked = await server.request(TOKEN, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-hexclave-override-error-status": "true",
      },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: keys.projectId,
        client_secret: keys.pck,
        refresh_token: "0".repeat(45),
      }).toString(),
    });
    expect(masked.status).toBe(200);
    expect(masked.headers.get("x-hexclave-actual-status")).toBe("401");
    expect(masked.headers.get("x-stack-known-error")).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("refuses an unknown refresh token", async () => {
    const body = await expectKnownError(
      await refreshGrant("0".repeat(45)),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    );
    expect(body.message).toBe(
      "Refresh token not found for this project, or the session has expired/been revoked.",
    );
  });

  it("stops both tokens when the session ends by sign-out", async () => {
    const { accessToken, refreshToken, userId } = await signIn();
    await expectUser(accessToken, userId);
    const res = await signOut(accessToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    await expectKnownError(await refreshGrant(refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    await expectKnownError(await getMe(accessToken), "ACCESS_TOKEN_EXPIRED");
  });

  it("records the use on the session and the user", async () => {
    const { accessToken, refreshToken, userId, sessionId } = await signIn();
    const [before] = await listSessions("me", accessToken);
    expect(before?.id).toBe(sessionId);
    server.clock.advance(5_000);
    const now = server.clock.now().getTime();
    await expectTokenAnswer(await refreshGrant(refreshToken), refreshToken);
    const [after] = await listSessions(userId, undefined, "server");
    expect(after?.created_at).toBe(before?.created_at);
    expect(after?.last_used_at).toBe(now);
    expect(after?.last_used_at).toBeGreaterThan(before?.last_used_at ?? Number.POSITIVE_INFINITY);
    const serverUser = (await (await getMe(accessToken, "server")).json()) as {
      last_active_at_millis: number;
    };
    expect(serverUser.last_active_at_millis).toBe(now);
  });

  it("expires access tokens after 600 s; a refresh gives a working one", async () => {
    const { accessToken, refreshToken, userId, sessionId } = await signIn();
    server.clock.advance(599_000);
    await expectUser(accessToken, userId);
    server.clock.advance(1_000);
    const body = await expectKnownError(await getMe(accessToken), "ACCESS_TOKEN_EXPIRED");
    const expiredAt = Number(decodeJwt(accessToken).exp) * 1000;
    expect(body.details).toEqual({
      project_id: keys.projectId,
      user_id: userId,
      refresh_token_id: sessionId,
      expired_at_millis: expiredAt,
    });
    expect(body.message).toBe(
      `Access token has expired. Please refresh it and try again. (The access token expired at ${new Date(expiredAt).toISOString()}.)`,
    );
    const fresh = await expectTokenAnswer(await refreshGrant(refreshToken), refreshToken);
    await expectUser(fresh.access_token, userId);
  });

  it("refuses the refresh token of a session older than a year", async () => {
    const { refreshToken } = await signIn();
    server.clock.advance(YEAR_MS - 60_000);
    await expectTokenAnswer(await refreshGrant(refreshToken), refreshToken);
    server.clock.advance(120_000);
    await expectKnownError(await refreshGrant(refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });
});

describe("POST /auth/sessions", () => {
  it("opens a session for a user with the server key", async () => {
    const { userId } = await signIn();
    const res = await createSession({ user_id: userId });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { refresh_token: string; access_token: string };
    expect(Object.keys(body).sort()).toEqual(["access_token", "refresh_token"]);
    expect(body.refresh_token).toMatch(/^[0-9abcdefghjkmnpqrstvwxyz]{45}$/);
    await expectUser(body.access_token, userId);
    await expectTokenAnswer(await refreshGrant(body.refresh_token), body.refresh_token);
  });

  it("refuses client callers, unknown users and too long lifetimes", async () => {
    const { userId } = await signIn();
    const insufficient = await expectKnownError(
      await createSession({ user_id: userId }, "client"),
      "INSUFFICIENT_ACCESS_TYPE",
      { actual_access_type: "client", allowed_access_types: ["server", "admin"] },
    );
    expect(insufficient.message).toBe(
      "The x-stack-access-type header must be 'server' or 'admin', but was 'client'.",
    );
    const unknown = randomUUID();
    await expectKnownError(await createSession({ user_id: unknown }), "USER_ID_DOES_NOT_EXIST", {
      user_id: unknown,
    });
    await expectKnownError(
      await createSession({ user_id: userId, expires_in_millis: 31_708_800_001 }),
      "SCHEMA_ERROR",
    );
    expect((await createSession({ user_id: userId, expires_in_millis: 31_708_800_000 })).status).toBe(200);
    expect((await createSession({ user_id: userId }, "admin")).status).toBe(200);
  });

  it("takes me for the user of the access token", async () => {
    const { accessToken, userId } = await signIn();
    const res = await server.request(SESSIONS, {
      method: "POST",
      headers: { ...withToken(accessToken, "server"), "content-type": "application/json" },
      body: JSON.stringify({ user_id: "me" }),
    });
    expect(res.status).toBe(200);
    await expectUser(((await res.json()) as { access_token: string }).access_token, userId);
    await expectKnownError(await createSession({ user_id: "me" }), "CANNOT_GET_OWN_USER_WITHOUT_USER");
  });

  it("ends the session after expires_in_millis", async () => {
    const { userId } = await signIn();
    const session = await openSession(userId, { expires_in_millis: 60_000 });
    server.clock.advance(59_000);
    await expectTokenAnswer(await refreshGrant(session.refresh_token), session.refresh_token);
    server.clock.advance(1_000);
    await expectKnownError(await refreshGrant(session.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    await expectKnownError(await getMe(session.access_token), "ACCESS_TOKEN_EXPIRED");
  });
});

describe("GET /auth/sessions", () => {
  it("lists the caller's sessions newest first, marking the current one", async () => {
    const first = await signIn();
    server.clock.advance(1_000);
    const second = await openSession(first.userId);
    server.clock.advance(1_000);
    const third = await openSession(first.userId);

    const items = await listSessions("me", first.accessToken);
    expect(items).toHaveLength(3);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual([
        "created_at",
        "id",
        "is_current_session",
        "is_impersonation",
        "last_used_at",
        "user_id",
      ]);
      expect(item.user_id).toBe(first.userId);
      expect(item.is_impersonation).toBe(false);
    }
    expect(items.map((s) => s.created_at)).toEqual([...items.map((s) => s.created_at)].sort((a, b) => b - a));
    expect(items[2]?.id).toBe(first.sessionId);
    expect(items.map((s) => s.is_current_session)).toEqual([false, false, true]);

    const fromThird = await listSessions("me", third.access_token);
    expect(fromThird.map((s) => s.is_current_session)).toEqual([true, false, false]);
    const fromSecond = await listSessions(first.userId, second.access_token);
    expect(fromSecond.map((s) => s.is_current_session)).toEqual([false, true, false]);
    // A server caller without a token has no current session.
    const fromServer = await listSessions(first.userId, undefined, "server");
    expect(fromServer.map((s) => s.id)).toEqual(items.map((s) => s.id));
    expect(fromServer.every((s) => !s.is_current_session)).toBe(true);
  });

  it("lets a client see only its own sessions", async () => {
    const mine = await signIn();
    const theirs = await signIn();
    const res = await server.request(`${SESSIONS}?user_id=${theirs.userId}`, {
      headers: withToken(mine.accessToken),
    });
    await expectTextError(res, 403, "Client can only manage their own sessions.");
    await expectKnownError(
      await server.request(`${SESSIONS}?user_id=me`, { headers: withToken(undefined) }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await expectKnownError(
      await server.request(SESSIONS, { headers: withToken(mine.accessToken) }),
      "SCHEMA_ERROR",
    );
  });

  it("shows impersonation sessions to admin callers only", async () => {
    const user = await signIn();
    await openSession(user.userId, { is_impersonation: true });
    const client = await listSessions("me", user.accessToken);
    expect(client.map((s) => s.id)).toEqual([user.sessionId]);
    const serverList = await listSessions(user.userId, undefined, "server");
    expect(serverList.map((s) => s.id)).toEqual([user.sessionId]);
    const admin = await listSessions(user.userId, undefined, "admin");
    expect(admin).toHaveLength(2);
    expect(admin.filter((s) => s.is_impersonation)).toHaveLength(1);
  });
});

describe("DELETE /auth/sessions/{session_id}", () => {
  it("ends another session of the caller; its tokens stop working", async () => {
    const current = await signIn();
    const victim = await openSession(current.userId);
    await expectUser(victim.access_token, current.userId);
    const victimId = (await listSessions("me", current.accessToken)).find((s) => !s.is_current_session)?.id;
    expect(victimId).toBeDefined();
    const res = await deleteSession(victimId ?? "", "me", current.accessToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    await expectKnownError(await getMe(victim.access_token), "ACCESS_TOKEN_EXPIRED");
    await expectKnownError(await refreshGrant(victim.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    expect((await listSessions("me", current.accessToken)).map((s) => s.id)).toEqual([current.sessionId]);
    await expectUser(current.accessToken, current.userId);
  });

  it("refuses the current session, unknown ids and other users' sessions", async () => {
    const current = await signIn();
    const body = await expectKnownError(
      await deleteSession(current.sessionId, "me", current.accessToken),
      "CANNOT_DELETE_CURRENT_SESSION",
    );
    expect(body.message).toBe("Cannot delete the current session.");
    await expectTextError(
      await deleteSession(randomUUID(), "me", current.accessToken),
      404,
      "Session not found.",
    );
    const stranger = await signIn();
    await expectTextError(
      await deleteSession(stranger.sessionId, "me", current.accessToken),
      404,
      "Session not found.",
    );
    await expectTextError(
      await deleteSession(stranger.sessionId, stranger.userId, current.accessToken),
      403,
      "Client can only manage their own sessions.",
    );
    await expectUser(stranger.accessToken, stranger.userId);
  });

  it("lets a server caller end any user's session", async () => {
    const user = await signIn();
    const res = await server.request(`${SESSIONS}/${user.sessionId}?user_id=${user.userId}`, {
      method: "DELETE",
      headers: accessHeaders("server", keys),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    await expectKnownError(await getMe(user.accessToken), "ACCESS_TOKEN_EXPIRED");
  });
});

describe("DELETE /auth/sessions/current", () => {
  it("needs a user", async () => {
    await expectKnownError(await signOut(undefined), "USER_AUTHENTICATION_REQUIRED");
  });

  it("also ends the session of the refresh-token header when it is the same user's", async () => {
    const user = await signIn();
    const second = await openSession(user.userId);
    const res = await signOut(user.accessToken, { "x-stack-refresh-token": second.refresh_token });
    expect(res.status).toBe(200);
    await expectKnownError(await refreshGrant(user.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    await expectKnownError(await refreshGrant(second.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    // An ended session fails at the access token, before the handler.
    await expectKnownError(await signOut(user.accessToken), "ACCESS_TOKEN_EXPIRED");
  });

  it("leaves another user's session in the refresh-token header alone", async () => {
    const user = await signIn();
    const stranger = await signIn();
    const res = await signOut(user.accessToken, { "x-stack-refresh-token": stranger.refreshToken });
    expect(res.status).toBe(200);
    await expectKnownError(await getMe(user.accessToken), "ACCESS_TOKEN_EXPIRED");
    await expectTokenAnswer(await refreshGrant(stranger.refreshToken), stranger.refreshToken);
    await expectUser(stranger.accessToken, stranger.userId);
  });
});

describe("POST /auth/sessions/current/refresh", () => {
  it("mints an access token from the refresh-token header, in both spellings", async () => {
    const { refreshToken, userId } = await signIn();
    for (const header of ["x-stack-refresh-token", "x-hexclave-refresh-token"]) {
      const res = await refreshCurrent({ [header]: refreshToken });
      expect(res.status, header).toBe(200);
      const body = (await res.json()) as { access_token: string };
      expect(Object.keys(body)).toEqual(["access_token"]);
      await expectUser(body.access_token, userId);
    }
  });

  it("refuses a missing, unknown or foreign refresh token", async () => {
    await expectKnownError(await refreshCurrent({}), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    const foreign = await server.signIn(other.projectId);
    await expectKnownError(
      await refreshCurrent({ "x-stack-refresh-token": foreign.refreshToken }),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    );
    await expectKnownError(
      await refreshCurrent({ "x-stack-refresh-token": "0".repeat(45) }),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    );
  });
});

describe("GET /users/me", () => {
  const CLIENT_FIELDS = [
    "id",
    "primary_email",
    "primary_email_verified",
    "display_name",
    "selected_team",
    "selected_team_id",
    "profile_image_url",
    "signed_up_at_millis",
    "has_password",
    "otp_auth_enabled",
    "passkey_auth_enabled",
    "client_metadata",
    "client_read_only_metadata",
    "is_anonymous",
    "is_restricted",
    "restricted_reason",
    "restricted_by_admin",
    "restricted_by_admin_reason",
    "oauth_providers",
    "auth_with_email",
    "requires_totp_mfa",
  ];
  const SERVER_ONLY_FIELDS = [
    "primary_email_auth_enabled",
    "server_metadata",
    "last_active_at_millis",
    "restricted_by_admin_private_details",
    "country_code",
    "risk_scores",
  ];

  it("answers the client shape to clients", async () => {
    const email = `me-${randomUUID()}@example.com`;
    const { accessToken, userId } = await server.signIn(keys.projectId, { email });
    const res = await getMe(accessToken);
    expect(res.status).toBe(200);
    const user = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(user).sort()).toEqual([...CLIENT_FIELDS].sort());
    expect(user).toEqual({
      id: userId,
      primary_email: email,
      primary_email_verified: true,
      display_name: null,
      selected_team: null,
      selected_team_id: null,
      profile_image_url: null,
      signed_up_at_millis: server.clock.now().getTime(),
      has_password: false,
      otp_auth_enabled: false,
      passkey_auth_enabled: false,
      client_metadata: null,
      client_read_only_metadata: null,
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
      restricted_by_admin: false,
      restricted_by_admin_reason: null,
      oauth_providers: [],
      auth_with_email: false,
      requires_totp_mfa: false,
    });
  });

  it("answers the server shape to server and admin callers", async () => {
    const { accessToken, userId } = await server.signIn(keys.projectId, {
      email: `srv-${randomUUID()}@example.com`,
    });
    for (const type of ["server", "admin"] as const) {
      const res = await getMe(accessToken, type);
      expect(res.status, type).toBe(200);
      const user = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(user).sort()).toEqual([...CLIENT_FIELDS, ...SERVER_ONLY_FIELDS].sort());
      expect(user).toMatchObject({
        id: userId,
        primary_email_auth_enabled: true,
        server_metadata: null,
        last_active_at_millis: expect.any(Number),
        restricted_by_admin_private_details: null,
        country_code: null,
        risk_scores: { sign_up: { bot: 0, free_trial_abuse: 0 } },
      });
    }
  });

  it("answers CANNOT_GET_OWN_USER_WITHOUT_USER without a token", async () => {
    for (const type of ["client", "server", "admin"] as const) {
      const body = await expectKnownError(await getMe(undefined, type), "CANNOT_GET_OWN_USER_WITHOUT_USER");
      expect(body.message).toBe(
        "You have specified 'me' as a userId, but did not provide authentication for a user.",
      );
    }
  });
});
