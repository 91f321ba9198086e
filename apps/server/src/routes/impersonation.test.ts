// Impersonation (WIRE.md §4.6 `is_impersonation`): a server or admin opens a session for a user, marked as an
// impersonation and [GF] recorded on the session row with who opened it (the operator of an admin access token, the
// admin key, the server key) and when; it lasts what it was given, and its holder, but not the user, sees it listed.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { sessions } from "../db/schema.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  jsonPost,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
  withToken,
} from "../testing/test-server.ts";

const SESSIONS = "/api/v1/auth/sessions";
const HOUR = 3600 * 1000;

type Tokens = { access_token: string; refresh_token: string };
type Listed = { id: string; is_impersonation: boolean; is_current_session: boolean };

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  keys = (await server.createProject({ displayName: "Impersonation" })).keys;
});
afterAll(() => server.close());

const post = jsonPost(() => ({ server, keys }));
const rowOf = async (accessToken: string) => {
  const claims = JSON.parse(Buffer.from(accessToken.split(".")[1] ?? "", "base64url").toString());
  const [row] = await server.deps.db.select().from(sessions).where(eq(sessions.id, claims.refresh_token_id));
  return row;
};
const impersonate = (userId: string, type: "server" | "admin", headers: Record<string, string> = {}) =>
  post(SESSIONS, { user_id: userId, is_impersonation: true, expires_in_millis: HOUR }, headers, type);

describe("POST /auth/sessions with is_impersonation", () => {
  it("marks the session and records the admin key, when, and the hour it lasts", async () => {
    const user = await server.signIn(keys.projectId, { email: uniqueEmail("target") });
    const tokens = await expectJson<Tokens>(await impersonate(user.userId, "admin"));
    const row = await rowOf(tokens.access_token);
    const now = server.clock.now().getTime();
    expect(row).toMatchObject({
      userId: user.userId,
      isImpersonation: true,
      impersonatedBy: "admin_key",
      impersonatorUserId: null,
    });
    expect(row?.createdAt.getTime()).toBe(now);
    expect(row?.expiresAt.getTime()).toBe(now + HOUR);
    const me = await server.request("/api/v1/users/me", {
      headers: { ...accessHeaders("client", keys), ...withToken(tokens.access_token) },
    });
    expect((await expectJson<{ id: string }>(me)).id).toBe(user.userId);
  });

  it("records the operator whose admin access token opened it", async () => {
    const internal = await server.deps.projects.find("internal");
    if (!internal) throw new Error("no internal project");
    const operator = await server.signIn("internal", { email: uniqueEmail("operator") });
    const { keys: owned } = await server.createProject({ displayName: "Owned" });
    await inTransaction(server.deps.db, async (tx) => {
      const team = await server.deps.teams.create(tx, internal, { displayName: "Owners" }, operator.userId);
      await server.deps.projectsRepo.setOwnerTeam(tx, owned.projectId, team.id);
    });
    const user = await server.signIn(owned.projectId);
    const res = await server.request(SESSIONS, {
      method: "POST",
      headers: {
        "x-stack-access-type": "admin",
        "x-stack-project-id": owned.projectId,
        "x-stack-admin-access-token": operator.accessToken,
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
      },
      body: JSON.stringify({ user_id: user.userId, is_impersonation: true }),
    });
    const row = await rowOf((await expectJson<Tokens>(res)).access_token);
    expect(row).toMatchObject({ impersonatedBy: "operator", impersonatorUserId: operator.userId });
  });

  it("records the server key; records nothing for other sessions; clients may not open sessions", async () => {
    const user = await server.signIn(keys.projectId);
    const byServer = await expectJson<Tokens>(await impersonate(user.userId, "server"));
    expect(await rowOf(byServer.access_token)).toMatchObject({ impersonatedBy: "server_key" });
    const plain = await expectJson<Tokens>(await post(SESSIONS, { user_id: user.userId }, {}, "admin"));
    expect(await rowOf(plain.access_token)).toMatchObject({
      isImpersonation: false,
      impersonatedBy: null,
      impersonatorUserId: null,
    });
    const asClient = await post(
      SESSIONS,
      { user_id: "me", is_impersonation: true },
      withToken(user.accessToken),
      "client",
    );
    await expectKnownError(asClient, "INSUFFICIENT_ACCESS_TYPE");
  });

  it("ends when its hour is over: no refresh, and its access tokens stop", async () => {
    const user = await server.signIn(keys.projectId);
    const tokens = await expectJson<Tokens>(await impersonate(user.userId, "admin"));
    const refresh = () =>
      post(`${SESSIONS}/current/refresh`, {}, { "x-stack-refresh-token": tokens.refresh_token });
    server.clock.advance(HOUR - 60_000);
    const late = await expectJson<Tokens>(await refresh());
    server.clock.advance(60_000);
    await expectKnownError(await refresh(), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    const me = await server.request("/api/v1/users/me", {
      headers: { ...accessHeaders("client", keys), ...withToken(late.access_token) },
    });
    await expectKnownError(me, "ACCESS_TOKEN_EXPIRED");
  });
});

describe("activity", () => {
  it("records the impersonation's use on its session, not as the user's activity", async () => {
    const user = await server.signIn(keys.projectId);
    const tokens = await expectJson<Tokens>(await impersonate(user.userId, "admin"));
    const lastActive = async () =>
      (await server.deps.usersRepo.find(keys.projectId, user.userId))?.lastActiveAt.getTime();
    const before = await lastActive();
    server.clock.advance(60_000);
    await expectJson(
      await post(`${SESSIONS}/current/refresh`, {}, { "x-stack-refresh-token": tokens.refresh_token }),
    );
    await server.deps.activity.flush();
    expect((await rowOf(tokens.access_token))?.lastUsedAt.getTime()).toBe(server.clock.now().getTime());
    expect(await lastActive()).toBe(before);
  });
});

describe("GET /auth/sessions", () => {
  it("hides the impersonation from the user, shows it to its holder as current, and to admins", async () => {
    const user = await server.signIn(keys.projectId);
    server.clock.advance(1000); // Newest first: the impersonation is the newer one.
    const tokens = await expectJson<Tokens>(await impersonate(user.userId, "admin"));
    const impersonationId = (await rowOf(tokens.access_token))?.id;
    const list = async (type: "client" | "server" | "admin", token?: string) => {
      const res = await server.request(`${SESSIONS}?user_id=${user.userId}`, {
        headers: { ...accessHeaders(type, keys), ...(token ? withToken(token) : {}) },
      });
      return (await expectJson<{ items: Listed[] }>(res)).items.map((s) => ({
        id: s.id,
        imp: s.is_impersonation,
        current: s.is_current_session,
      }));
    };
    const own = { id: user.sessionId, imp: false };
    expect(await list("client", user.accessToken)).toEqual([{ ...own, current: true }]);
    expect(await list("server")).toEqual([{ ...own, current: false }]);
    const held = { id: impersonationId, imp: true, current: true };
    expect(await list("client", tokens.access_token)).toEqual([held, { ...own, current: false }]);
    expect(await list("admin")).toEqual([
      { ...held, current: false },
      { ...own, current: false },
    ]);
  });
});
