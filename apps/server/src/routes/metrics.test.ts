// GET /internal/metrics [GO]: the overview figures of the caller's project — totals without anonymous users,
// unexpired and unrevoked sessions, 30 zero-filled UTC days of sign-ups ending today by the server's clock — and
// the access checks of an admin route.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
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
};

let server: TestServer;
let keys: ProjectKeys;
let empty: ProjectKeys;
let operator: Awaited<ReturnType<TestServer["signIn"]>>;

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
  await userAt("2030-03-01T08:00:00Z");
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
      "daily_sign_ups",
      "total_anonymous_users",
      "total_teams",
      "total_users",
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
    });
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
    ]) {
      expect(operation).toContain(field);
    }
  });
});
