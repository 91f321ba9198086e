// GET /internal/metrics [GO]: the overview figures of the caller's project — totals without anonymous users,
// unexpired and unrevoked sessions, 30 zero-filled UTC days of sign-ups ending today by the server's clock, daily
// and monthly active users (a refresh counts at once), users by sign-in method — and the access checks of an admin
// route.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { createPasskeysRepo } from "../db/passkeys-repo.ts";
import { INTERNAL_PROJECT_ID } from "../services/seed.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
} from "../testing/test-server.ts";

const METRICS = "/api/v1/internal/metrics";
const at = (iso: string) => new Date(iso);

type Metrics = {
  total_users: number;
  total_teams: number;
  active_sessions: number;
  daily_sign_ups: { date: string; count: number }[];
  total_anonymous_users: number;
  daily_active_users: number;
  monthly_active_users: number;
  users_by_sign_in_method: {
    password: number;
    otp: number;
    passkey: number;
    oauth: { provider_id: string; users: number }[];
    none: number;
  };
  analytics: unknown;
};

let server: TestServer;
let keys: ProjectKeys;
let empty: ProjectKeys;
let operator: Awaited<ReturnType<TestServer["signIn"]>>;
let firstOfMarch: Awaited<ReturnType<TestServer["signIn"]>>;

const metrics = (headers: Record<string, string>) => server.request(METRICS, { headers });

/** A user of `projectId` that signs up at `when` (the clock only moves forward, as time does). */
async function userAt(when: string, opts: { anonymous?: boolean; projectId?: string } = {}) {
  server.clock.set(at(when));
  return server.signIn(opts.projectId ?? keys.projectId, {
    audience: opts.anonymous ? "anonymous" : "default",
    email: opts.anonymous ? undefined : uniqueEmail("metrics"),
  });
}

/** The 30 expected days ending 2030-03-10, all zero except `counts`. */
function days(counts: Record<string, number>) {
  const list: { date: string; count: number }[] = [];
  for (let day = Date.UTC(2030, 1, 9); day <= Date.UTC(2030, 2, 10); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    list.push({ date, count: counts[date] ?? 0 });
  }
  return list;
}

beforeAll(async () => {
  server = await createTestServer();
  server.clock.set(at("2030-01-01T00:00:00Z"));
  keys = (await server.createProject({ displayName: "Measured" }, { expiresAt: at("2031-01-01T00:00:00Z") }))
    .keys;
  empty = (await server.createProject({ displayName: "Empty" }, { expiresAt: at("2031-01-01T00:00:00Z") }))
    .keys;

  await userAt("2030-01-29T10:00:00Z"); // 40 days before: counted in the total only
  await userAt("2030-02-08T23:59:59.999Z"); // the last instant before the window
  await userAt("2030-02-09T00:00:00Z"); // the window's first instant
  firstOfMarch = await userAt("2030-03-01T08:00:00Z");
  await userAt("2030-03-01T20:00:00Z");
  await userAt("2030-03-09T23:59:59Z");
  await userAt("2030-03-10T00:00:00Z", { anonymous: true });
  // Another project's user, not counted here; the first user of `internal`, so its first operator.
  operator = await userAt("2030-03-10T00:00:01Z", { projectId: INTERNAL_PROJECT_ID });

  // Today, at noon: one more user whose session is revoked, one whose session expired, and two teams.
  const revoked = await userAt("2030-03-10T11:00:00Z");
  const ended = await server.request("/api/v1/auth/sessions/current", {
    method: "DELETE",
    headers: { ...accessHeaders("client", keys), "x-stack-access-token": revoked.accessToken },
  });
  expect(ended.status).toBe(200);
  const project = await server.deps.projects.find(keys.projectId);
  if (!project) throw new Error("no project");
  await inTransaction(server.deps.db, async (tx) => {
    const id = await server.deps.users.create(tx, {
      project,
      email: { value: uniqueEmail(), verified: false, usedForAuth: true },
    });
    const user = await server.deps.usersRepo.find(project.id, id, tx);
    if (!user) throw new Error("no user");
    await server.deps.sessions.open(tx, user, { expiresInMs: 60_000 });
    await server.deps.teams.create(tx, project, { displayName: "One" });
    await server.deps.teams.create(tx, project, { displayName: "Two" }, id);
  });
  server.clock.set(at("2030-03-10T12:00:00Z"));
});
afterAll(() => server.close());

describe("GET /internal/metrics", () => {
  it("counts the project's users, teams, live sessions and anonymous users, and its sign-ups per UTC day", async () => {
    const body = await expectJson<Metrics>(await metrics(accessHeaders("admin", keys)));
    expect(Object.keys(body).sort()).toEqual([
      "active_sessions",
      "analytics",
      "daily_active_users",
      "daily_sign_ups",
      "monthly_active_users",
      "total_anonymous_users",
      "total_teams",
      "total_users",
      "users_by_sign_in_method",
    ]);
    expect(body).toEqual({
      // Eight full users: six dated ones, the revoked one and the expired one; the anonymous one apart.
      total_users: 8,
      total_anonymous_users: 1,
      total_teams: 2,
      // Every signed-in user has a session (the anonymous one too), except the revoked and the expired one.
      active_sessions: 7,
      daily_sign_ups: days({
        "2030-02-09": 1,
        "2030-03-01": 2,
        "2030-03-09": 1,
        "2030-03-10": 2,
      }),
      // Last active since 2030-03-09T12:00: the one of 23:59:59 and the two of today (the anonymous one apart).
      daily_active_users: 3,
      // Since 2030-02-08T12:00: all full users but the one of January.
      monthly_active_users: 7,
      // Signed in through the services with an e-mail only: no password, code, passkey or OAuth account.
      users_by_sign_in_method: { password: 0, otp: 0, passkey: 0, oauth: [], none: 8 },
      // No browser sent analytics events (routes/analytics.test.ts counts them).
      analytics: {
        retention_days: 30,
        daily_page_views: days({}),
        daily_active_users: 0,
        monthly_active_users: 0,
      },
    });
  });

  it("counts a refresh as activity at once, though last-use times are written behind", async () => {
    const refreshed = await server.request("/api/v1/auth/sessions/current/refresh", {
      method: "POST",
      headers: { ...accessHeaders("client", keys), "x-stack-refresh-token": firstOfMarch.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    const body = await expectJson<Metrics>(await metrics(accessHeaders("admin", keys)));
    expect([body.daily_active_users, body.monthly_active_users]).toEqual([4, 7]);
    // A day and a second later, nobody was active in the last 24 hours; the two users last active on February 8
    // and 9 have left the 30 days too.
    server.clock.set(at("2030-03-11T12:00:01Z"));
    try {
      const later = await expectJson<Metrics>(await metrics(accessHeaders("admin", keys)));
      expect([later.daily_active_users, later.monthly_active_users]).toEqual([0, 5]);
    } finally {
      server.clock.set(at("2030-03-10T12:00:00Z"));
    }
  });

  it("counts full users by the ways they can sign in, each user under every way they have", async () => {
    const methods = (
      await server.createProject({ displayName: "Methods" }, { expiresAt: at("2031-01-01T00:00:00Z") })
    ).keys;
    const create = async (body: Record<string, unknown>) => {
      const res = await server.request("/api/v1/users", {
        method: "POST",
        headers: { ...accessHeaders("admin", methods), "content-type": "application/json" },
        body: JSON.stringify({
          primary_email: uniqueEmail("method"),
          primary_email_auth_enabled: true,
          ...body,
        }),
      });
      return (await expectJson<{ id: string }>(res, 201)).id;
    };
    await create({ password: "a long password" });
    await create({ password: "a long password", otp_auth_enabled: true });
    await create({ oauth_providers: [{ id: "github", account_id: "1" }] });
    await create({
      oauth_providers: [
        { id: "github", account_id: "2" },
        { id: "google", account_id: "2" },
      ],
    });
    const withPasskey = await create({});
    await create({});
    await server.signIn(methods.projectId, { audience: "anonymous" });
    await inTransaction(server.deps.db, (tx) =>
      createPasskeysRepo().replace(tx, {
        projectId: methods.projectId,
        userId: withPasskey,
        credentialId: "credential-1",
        publicKey: "key",
        counter: 0,
        transports: ["internal"],
        createdAt: server.clock.now(),
      }),
    );

    const body = await expectJson<Metrics>(await metrics(accessHeaders("admin", methods)));
    expect(body.total_users).toBe(6);
    expect(body.total_anonymous_users).toBe(1);
    expect(body.users_by_sign_in_method).toEqual({
      password: 2,
      otp: 1,
      passkey: 1,
      oauth: [
        { provider_id: "github", users: 2 },
        { provider_id: "google", users: 1 },
      ],
      none: 1,
    });
    expect([body.daily_active_users, body.monthly_active_users]).toEqual([6, 6]);
  });

  it("moves the window with the server's clock", async () => {
    server.clock.set(at("2030-03-11T00:00:00Z"));
    try {
      const body = await expectJson<Metrics>(await metrics(accessHeaders("admin", keys)));
      expect(body.daily_sign_ups).toHaveLength(30);
      expect(body.daily_sign_ups[0]).toEqual({ date: "2030-02-10", count: 0 });
      expect(body.daily_sign_ups.at(-2)).toEqual({ date: "2030-03-10", count: 2 });
      expect(body.daily_sign_ups.at(-1)).toEqual({ date: "2030-03-11", count: 0 });
      // The session that expired a minute after its creation stays uncounted; the others are valid for a year.
      expect(body.active_sessions).toBe(7);
    } finally {
      server.clock.set(at("2030-03-10T12:00:00Z"));
    }
  });

  it("answers zeros and 30 empty days for a project without users", async () => {
    const body = await expectJson<Metrics>(await metrics(accessHeaders("admin", empty)));
    expect(body).toEqual({
      total_users: 0,
      total_anonymous_users: 0,
      total_teams: 0,
      active_sessions: 0,
      daily_sign_ups: days({}),
      daily_active_users: 0,
      monthly_active_users: 0,
      users_by_sign_in_method: { password: 0, otp: 0, passkey: 0, oauth: [], none: 0 },
      analytics: {
        retention_days: 30,
        daily_page_views: days({}),
        daily_active_users: 0,
        monthly_active_users: 0,
      },
    });
  });

  it("admits an owner's admin access token, and refuses other users' tokens", async () => {
    // The first user of `internal` became its first operator, and so administers `internal`. Their token from
    // sign-up has expired since; the session has not.
    const user = await server.deps.usersRepo.find(INTERNAL_PROJECT_ID, operator.userId);
    if (!user) throw new Error("no operator");
    const operatorToken = await server.deps.sessions.mintAccessToken(user, operator.sessionId);
    const asAdmin = (token: string) =>
      metrics({
        "x-stack-access-type": "admin",
        "x-stack-project-id": INTERNAL_PROJECT_ID,
        "x-stack-admin-access-token": token,
      });
    const internal = await expectJson<Metrics>(await asAdmin(operatorToken));
    expect(internal.total_users).toBe(1);
    const outsider = await server.signIn(INTERNAL_PROJECT_ID, { email: uniqueEmail("outsider") });
    await expectKnownError(await asAdmin(outsider.accessToken), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });

  it("refuses callers without admin access with the catalogue's errors", async () => {
    await expectKnownError(await metrics({}), "ACCESS_TYPE_REQUIRED");
    for (const type of ["client", "server"] as const) {
      await expectKnownError(await metrics(accessHeaders(type, keys)), "INSUFFICIENT_ACCESS_TYPE", {
        actual_access_type: type,
        allowed_access_types: ["admin"],
      });
    }
    await expectKnownError(
      await metrics({ ...accessHeaders("admin", keys), "x-stack-super-secret-admin-key": "sak_wrong" }),
      "INVALID_SUPER_SECRET_ADMIN_KEY",
    );
    await expectKnownError(
      await metrics({ "x-stack-access-type": "admin", "x-stack-project-id": keys.projectId }),
      "ADMIN_AUTHENTICATION_REQUIRED",
    );
  });

  it("refuses unknown query fields and other methods", async () => {
    const res = await server.request(`${METRICS}?days=7`, { headers: accessHeaders("admin", keys) });
    await expectKnownError(res, "SCHEMA_ERROR");
    await expectTextError(
      await server.request(METRICS, { method: "POST", headers: accessHeaders("admin", keys) }),
      405,
      "Method not allowed.",
    );
  });

  it("is in the OpenAPI document with its response shape", async () => {
    const doc = await expectJson<{ paths: Record<string, Record<string, unknown>> }>(
      await server.request("/api/v1/openapi.json"),
    );
    const operation = JSON.stringify(doc.paths[METRICS]?.get);
    for (const field of [
      "total_users",
      "total_teams",
      "active_sessions",
      "daily_sign_ups",
      "total_anonymous_users",
      "daily_active_users",
      "monthly_active_users",
      "users_by_sign_in_method",
    ]) {
      expect(operation).toContain(field);
    }
  });
});
