// The first operator owns the internal project: the first full user to sign up on `internal` (any method) joins its
// owner team as team_admin, in the user's own transaction; later users, anonymous users and instances with a
// seeded operator do not. Two first sign-ups racing admit exactly one (the team's advisory lock).
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { webhookEvents } from "../db/schema.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import { recordStatements } from "../testing/statement-recorder.ts";
import { accessHeaders, createTestServer, type TestServer, uniqueIp } from "../testing/test-server.ts";
import { INTERNAL_PROJECT_ID, seedInternalProject } from "./seed.ts";

const PASSWORD = "correct horse battery";
let servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function freshServer(): Promise<TestServer> {
  const server = await createTestServer();
  servers.push(server);
  return server;
}

async function ownerTeamId(server: TestServer): Promise<string> {
  const id = (await server.deps.projects.find(INTERNAL_PROJECT_ID))?.ownerTeamId;
  if (!id) throw new Error("the internal project has no owner team");
  return id;
}

const ownerMembers = async (server: TestServer) =>
  (await server.deps.teamsRepo.listMembers(await ownerTeamId(server))).map((m) => m.userId);

const grantsOf = async (server: TestServer, userId: string) =>
  (
    await server.deps.teamsRepo.listGrants(INTERNAL_PROJECT_ID, { teamId: await ownerTeamId(server), userId })
  ).map((g) => g.permissionId);

const post = (server: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) =>
  server.request(path, {
    method: "POST",
    headers: {
      ...accessHeaders("client", server.internal),
      "content-type": "application/json",
      "x-forwarded-for": uniqueIp(),
      ...headers,
    },
    body: JSON.stringify(body),
  });

async function signUp(server: TestServer, email: string, headers: Record<string, string> = {}) {
  return expectJson<{ access_token: string; user_id: string }>(
    await post(server, "/api/v1/auth/password/sign-up", { email, password: PASSWORD }, headers),
  );
}

const ownedProjects = (server: TestServer, token: string) =>
  server.request("/api/v1/internal/projects", {
    headers: { ...accessHeaders("client", server.internal), "x-stack-access-token": token },
  });

const adminOfInternal = (server: TestServer, token: string) =>
  server.request("/api/v1/internal/projects/current", {
    headers: {
      "x-stack-access-type": "admin",
      "x-stack-project-id": INTERNAL_PROJECT_ID,
      "x-stack-admin-access-token": token,
    },
  });

describe("the first operator", () => {
  it("is the first password sign-up: joins the owner team as team_admin and administers `internal`", async () => {
    const server = await freshServer();
    expect(await ownerMembers(server)).toEqual([]);
    const first = await signUp(server, "first@example.com");
    expect(await ownerMembers(server)).toEqual([first.user_id]);
    expect(await grantsOf(server, first.user_id)).toEqual(["team_admin"]);

    // The dashboard's calls now work for them: the projects their teams own (`internal` itself included) and
    // admin access to `internal` with their access token.
    const listed = await expectJson<{ items: { id: string; owner_team_id: string }[] }>(
      await ownedProjects(server, first.access_token),
    );
    expect(listed.items.map((p) => [p.id, p.owner_team_id])).toEqual([
      [INTERNAL_PROJECT_ID, await ownerTeamId(server)],
    ]);
    expect((await adminOfInternal(server, first.access_token)).status).toBe(200);

    const second = await signUp(server, "second@example.com");
    expect(await ownerMembers(server)).toEqual([first.user_id]);
    const secondListed = await expectJson<{ items: unknown[] }>(
      await ownedProjects(server, second.access_token),
    );
    expect(secondListed.items).toEqual([]);
    await expectKnownError(
      await adminOfInternal(server, second.access_token),
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
    );
  });

  it("records the membership and the grant as webhook events of the internal project", async () => {
    const server = await freshServer();
    const first = await signUp(server, "first@example.com");
    const teamId = await ownerTeamId(server);
    const events = await server.deps.db
      .select({ type: webhookEvents.type, data: webhookEvents.data })
      .from(webhookEvents)
      .where(eq(webhookEvents.projectId, INTERNAL_PROJECT_ID));
    expect(events).toContainEqual({
      type: "team_membership.created",
      data: { team_id: teamId, user_id: first.user_id },
    });
    expect(events).toContainEqual({
      type: "team_permission.created",
      data: { id: "team_admin", team_id: teamId, user_id: first.user_id },
    });
  });

  it("is whoever signs up first, by any way: a user the server creates", async () => {
    const server = await freshServer();
    const res = await post(
      server,
      "/api/v1/users",
      { primary_email: "made@example.com" },
      accessHeaders("server", server.internal),
    );
    const made = await expectJson<{ id: string }>(res, 201);
    expect(await ownerMembers(server)).toEqual([made.id]);
  });

  it("is never an anonymous user, but is one who upgrades from anonymous", async () => {
    const server = await freshServer();
    const anonymous = await expectJson<{ access_token: string; user_id: string }>(
      await post(server, "/api/v1/auth/anonymous/sign-up", {}),
    );
    expect(await ownerMembers(server)).toEqual([]);
    const upgraded = await signUp(server, "was-anonymous@example.com", {
      "x-stack-access-token": anonymous.access_token,
      "x-stack-allow-anonymous-user": "true",
    });
    expect(upgraded.user_id).toBe(anonymous.user_id);
    expect(await ownerMembers(server)).toEqual([anonymous.user_id]);
  });

  it("is never a user created restricted, who could not use the seat", async () => {
    const server = await freshServer();
    const project = await server.deps.projects.find(INTERNAL_PROJECT_ID);
    if (!project) throw new Error("no internal project");
    await inTransaction(server.deps.db, (tx) =>
      server.deps.users.create(tx, { project, columns: { restrictedByAdmin: true } }),
    );
    expect(await ownerMembers(server)).toEqual([]);
  });

  it("joins only on the internal project", async () => {
    const server = await freshServer();
    const { keys } = await server.createProject({ displayName: "Elsewhere" });
    const res = await post(
      server,
      "/api/v1/auth/password/sign-up",
      { email: "elsewhere@example.com", password: PASSWORD },
      accessHeaders("client", keys),
    );
    await expectJson(res);
    expect(await ownerMembers(server)).toEqual([]);
  });

  it("is the seeded operator with internal access: later sign-ups do not join", async () => {
    const server = await freshServer();
    const seed = { user: { email: "operator@example.com", password: PASSWORD, internalAccess: true } };
    await seedInternalProject({ ...server.deps, seed, keys: keysOf(server) });
    const operator = await server.deps.usersRepo.findByAuthEmail(INTERNAL_PROJECT_ID, "operator@example.com");
    expect(await ownerMembers(server)).toEqual([operator?.id]);
    await signUp(server, "later@example.com");
    expect(await ownerMembers(server)).toEqual([operator?.id]);
  });

  it("is made once: an owner team emptied later is not handed to whoever signs up next", async () => {
    const server = await freshServer();
    const first = await signUp(server, "first@example.com");
    const left = await server.request(`/api/v1/team-memberships/${await ownerTeamId(server)}/me`, {
      method: "DELETE",
      headers: { ...accessHeaders("client", server.internal), "x-stack-access-token": first.access_token },
    });
    await expectJson(left);
    expect(await ownerMembers(server)).toEqual([]);
    const next = await signUp(server, "next@example.com");
    expect(await ownerMembers(server)).toEqual([]);
    await expectKnownError(
      await adminOfInternal(server, next.access_token),
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
    );
  });

  it("who left is brought back by the seed settings naming them with internal access", async () => {
    const server = await freshServer();
    const first = await signUp(server, "first@example.com");
    await server.deps.db.execute(sql`delete from team_members where team_id = ${await ownerTeamId(server)}`);
    const seed = { user: { email: "first@example.com", password: PASSWORD, internalAccess: true } };
    await seedInternalProject({ ...server.deps, seed, keys: keysOf(server) });
    expect(await ownerMembers(server)).toEqual([first.user_id]);
  });

  it("is known from the project row once taken: later sign-ups ask the owner team nothing", async () => {
    const server = await freshServer();
    await signUp(server, "first@example.com");
    const statements = await recordStatements(server.deps.database, () =>
      signUp(server, "later@example.com"),
    );
    expect(statements.some((s) => s.includes("team-members:"))).toBe(false);
    expect(statements.filter((s) => s.startsWith('select "user_id" from "team_members"'))).toEqual([]);
  });

  it("is taken by a seeded operator with internal access, even one who leaves the team", async () => {
    const server = await freshServer();
    const seed = { user: { email: "operator@example.com", password: PASSWORD, internalAccess: true } };
    await seedInternalProject({ ...server.deps, seed, keys: keysOf(server) });
    await server.deps.db.execute(sql`delete from team_members where team_id = ${await ownerTeamId(server)}`);
    await signUp(server, "stranger@example.com");
    expect(await ownerMembers(server)).toEqual([]);
  });

  it("is not a seeded operator without internal access, so the first sign-up still joins", async () => {
    const server = await freshServer();
    const seed = { user: { email: "operator@example.com", password: PASSWORD, internalAccess: false } };
    await seedInternalProject({ ...server.deps, seed, keys: keysOf(server) });
    expect(await ownerMembers(server)).toEqual([]);
    const first = await signUp(server, "first@example.com");
    expect(await ownerMembers(server)).toEqual([first.user_id]);
  });
});

const keysOf = (server: TestServer) => ({
  publishableClientKey: server.internal.pck,
  secretServerKey: server.internal.ssk,
  superSecretAdminKey: server.internal.sak,
});

describe("two first sign-ups at once", () => {
  it("admit exactly one of them", async () => {
    const server = await freshServer();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => signUp(server, `racer-${i}@example.com`)),
    );
    const members = await ownerMembers(server);
    expect(members).toHaveLength(1);
    expect(answers.map((a) => a.user_id)).toContain(members[0]);
  });

  it("the second waits for the first's transaction and then sees its member", async () => {
    const server = await freshServer();
    const project = await server.deps.projects.find(INTERNAL_PROJECT_ID);
    if (!project) throw new Error("no internal project");
    const { db } = server.deps;
    let second: Promise<string> | undefined;
    const first = await inTransaction(db, async (tx) => {
      const id = await server.deps.users.create(tx, { project });
      // The first transaction is still open: its member is not visible to anyone else yet.
      second = inTransaction(db, (tx2) => server.deps.users.create(tx2, { project }));
      await waitForAdvisoryLockWaiter(server);
      return id;
    });
    const secondId = await second;
    expect(secondId).toBeDefined();
    expect(await ownerMembers(server)).toEqual([first]);
  });
});

/**
 * On PostgreSQL, waits until a session is blocked on an advisory lock (the second sign-up reached the team's lock),
 * so the race is certain rather than likely. PGlite has one connection: the second transaction simply queues.
 */
async function waitForAdvisoryLockWaiter(server: TestServer): Promise<void> {
  if (server.deps.database.kind !== "postgres") return;
  for (let i = 0; i < 100; i++) {
    const result = await server.deps.db.execute(
      sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
    );
    const rows = (result as unknown as { rows: { n: number }[] }).rows;
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the second sign-up never waited on the team's lock");
}
