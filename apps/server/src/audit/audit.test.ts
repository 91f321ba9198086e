// The audit log (issue 21): each action leaves exactly one entry of its type, failures included, with actor, IP,
// user agent and request id; a rolled-back change leaves none; the list filters and pages; the export is NDJSON.
import type { AuditEntry } from "@gatehouse/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  jsonPost,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
} from "../testing/test-server.ts";

const PASSWORD = "correct horse battery";
const DAY = 24 * 3600 * 1000;

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  keys = (
    await server.createProject(
      { displayName: "Audit" },
      { expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) },
    )
  ).keys;
});
afterAll(async () => {
  await server.deps.emailWorker.stop();
  await server.close();
});

const post = jsonPost(() => ({ server, keys }));

type Page = { items: AuditEntry[]; pagination: { next_cursor: string | null } };

async function list(query: Record<string, string>, type: "server" | "admin" = "server"): Promise<Page> {
  const res = await server.request(`/api/v1/audit-log?${new URLSearchParams(query)}`, {
    headers: accessHeaders(type, keys),
  });
  return expectJson<Page>(res);
}

const entriesFor = async (targetId: string, type?: string) =>
  (await list({ target_id: targetId, limit: "200", ...(type ? { type } : {}) })).items;

async function signUp(email = uniqueEmail("audit")) {
  const res = await post("/api/v1/auth/password/sign-up", { email, password: PASSWORD });
  const { user_id } = await expectJson<{ user_id: string }>(res);
  return { email, id: user_id };
}

describe("sign-up and sign-in", () => {
  it("records one sign_up and one sign_in.succeeded, with the user as actor and the request's details", async () => {
    const user = await signUp();
    const res = await post(
      "/api/v1/auth/password/sign-in",
      { email: user.email, password: PASSWORD },
      { "user-agent": "audit-test/1.0", "x-forwarded-for": "203.0.113.7" },
    );
    await expectJson(res);
    const requestId = res.headers.get("x-stack-request-id");
    expect((await entriesFor(user.id)).map((e) => e.type).sort()).toEqual(["sign_in.succeeded", "sign_up"]);
    const [signIn] = await entriesFor(user.id, "sign_in.succeeded");
    expect(signIn).toMatchObject({
      actor: { type: "user", id: user.id },
      target: { type: "user", id: user.id },
      user_agent: "audit-test/1.0",
      request_id: requestId,
      details: { method: "password" },
    });
  });

  it("records a failed sign-in once, with method and reason, though the request fails, and no secret", async () => {
    const user = await signUp();
    const wrong = "wrong password, surely";
    await expectKnownError(
      await post("/api/v1/auth/password/sign-in", { email: user.email, password: wrong }),
      "EMAIL_PASSWORD_MISMATCH",
    );
    const failed = (await list({ type: "sign_in.failed", limit: "200" })).items.filter(
      (e) => e.details.email === user.email,
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      actor: { type: "anonymous", id: null },
      details: { method: "password", reason: "EMAIL_PASSWORD_MISMATCH" },
    });
    expect(JSON.stringify(failed)).not.toContain(wrong);
    expect(await entriesFor(user.id, "sign_in.succeeded")).toHaveLength(0);
  });

  it("records a banned user's refused sign-in as a failure, never as a success", async () => {
    const user = await signUp();
    const ban = await server.request(`/api/v1/users/${user.id}`, {
      method: "PATCH",
      headers: { ...accessHeaders("server", keys), "content-type": "application/json" },
      body: JSON.stringify({ restricted_by_admin: true }),
    });
    await expectJson(ban);
    await expectKnownError(
      await post("/api/v1/auth/password/sign-in", { email: user.email, password: PASSWORD }),
      "RESTRICTED_USER_NOT_ALLOWED",
    );
    expect(await entriesFor(user.id, "sign_in.succeeded")).toHaveLength(0);
    const failed = (await list({ type: "sign_in.failed", limit: "200" })).items.filter(
      (e) => e.details.email === user.email,
    );
    expect(failed.map((e) => e.details.reason)).toEqual(["RESTRICTED_USER_NOT_ALLOWED"]);
  });

  it("writes no sign-in entry when a ban lands between the password check and the session's insert", async () => {
    const user = await signUp();
    const record = await server.deps.usersRepo.find(keys.projectId, user.id);
    if (!record) throw new Error("the user was just signed up");
    const ban = await server.request(`/api/v1/users/${user.id}`, {
      method: "PATCH",
      headers: { ...accessHeaders("server", keys), "content-type": "application/json" },
      body: JSON.stringify({ restricted_by_admin: true }),
    });
    await expectJson(ban);
    // The user as the sign-in read it before the ban: only the insert's own check can refuse it now.
    const signIn = { method: "password", isNewUser: false };
    await expect(
      server.deps.sessions.open(server.deps.database.db, record, { signIn }),
    ).rejects.toMatchObject({
      code: "RESTRICTED_USER_NOT_ALLOWED",
    });
    expect(await entriesFor(user.id, "sign_in.succeeded")).toHaveLength(0);
  });
});

describe("actions by project keys", () => {
  it("names the admin key's set as the actor of an impersonation, and the user as its target", async () => {
    const user = await signUp();
    const res = await post(
      "/api/v1/auth/sessions",
      { user_id: user.id, is_impersonation: true },
      {},
      "admin",
    );
    await expectJson(res);
    const entries = await entriesFor(user.id, "impersonation.started");
    expect(entries).toHaveLength(1);
    expect(entries[0]?.actor.type).toBe("admin_key");
    expect(entries[0]?.actor.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(entries[0]?.details).toMatchObject({ impersonator_kind: "admin_key" });
    // An impersonation is not the user signing in.
    expect(await entriesFor(user.id, "sign_in.succeeded")).toHaveLength(0);
  });

  it("records a session a server key opens as a sign-in by that key", async () => {
    const user = await signUp();
    await expectJson(await post("/api/v1/auth/sessions", { user_id: user.id }, {}, "server"));
    const entries = await entriesFor(user.id, "sign_in.succeeded");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: { type: "server_key" }, details: { method: "server_api" } });
  });
});

describe("transactions", () => {
  it("leaves no entry when the change rolls back", async () => {
    const user = await signUp();
    await expect(
      inTransaction(server.deps.db, async (tx) => {
        await server.deps.audit.record(tx, keys.projectId, {
          type: "user.banned",
          target: { type: "user", id: user.id },
        });
        throw new Error("the change failed after its entry was written");
      }),
    ).rejects.toThrow("the change failed");
    expect(await entriesFor(user.id, "user.banned")).toHaveLength(0);
  });
});

describe("listing and export", () => {
  it("pages newest first without gaps or repeats, and filters by actor, type and time", async () => {
    const users = [];
    for (let i = 0; i < 5; i++) users.push(await signUp());
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await list({ type: "sign_up", limit: "2", ...(cursor ? { cursor } : {}) });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((e) => e.id));
      cursor = page.pagination.next_cursor;
    } while (cursor);
    const all = (await list({ type: "sign_up", limit: "200" }, "admin")).items;
    expect(seen).toEqual(all.map((e) => e.id));
    const times = all.map((e) => e.created_at_millis);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const last = users.at(-1);
    if (!last) throw new Error("no users");
    const byActor = await list({ actor_id: last.id });
    expect(byActor.items.every((e) => e.actor.id === last.id)).toBe(true);
    expect(byActor.items.map((e) => e.type)).toContain("sign_up");
    const future = String(server.clock.now().getTime() + DAY);
    expect((await list({ from_millis: future })).items).toHaveLength(0);
    expect((await list({ to_millis: "1" })).items).toHaveLength(0);
  });

  it("refuses a malformed cursor or type with a known error", async () => {
    const bad = await server.request("/api/v1/audit-log?cursor=nonsense", {
      headers: accessHeaders("server", keys),
    });
    await expectKnownError(bad, "SCHEMA_ERROR");
    const client = await server.request("/api/v1/audit-log", { headers: accessHeaders("client", keys) });
    await expectKnownError(client, "INSUFFICIENT_ACCESS_TYPE");
  });

  it("exports the filtered entries as NDJSON", async () => {
    const user = await signUp();
    const res = await server.request(`/api/v1/audit-log/export?target_id=${user.id}`, {
      headers: accessHeaders("admin", keys),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await res.text()).trim().split("\n");
    const entries = lines.map((line) => JSON.parse(line) as AuditEntry);
    expect(entries.map((e) => e.type)).toEqual(["sign_up"]);
    expect(entries[0]?.target.id).toBe(user.id);
  });
});

describe("retention and webhooks", () => {
  it("prunes entries older than the project's retention, and keeps every entry where none is set", async () => {
    const other = await server.createProject({ displayName: "Audit retention" });
    const settings = (projectId: string, config: Record<string, unknown>) =>
      server.deps.projects.update(projectId, { config });
    await settings(other.keys.projectId, { audit_log_retention_days: 7 });
    const old = new Date(server.clock.now().getTime() - 8 * DAY);
    const recent = new Date(server.clock.now().getTime() - 6 * DAY);
    const { auditLog } = await import("../db/schema.ts");
    const row = (projectId: string, createdAt: Date) => ({
      id: crypto.randomUUID(),
      projectId,
      type: "sign_out",
      actorType: "system",
      details: {},
      createdAt,
    });
    await server.deps.db
      .insert(auditLog)
      .values([row(other.keys.projectId, old), row(other.keys.projectId, recent), row(keys.projectId, old)]);
    await server.deps.audit.prune();
    const left = async (projectId: string) =>
      (await server.deps.audit.list(projectId, { type: "sign_out" }, 200)).items.map(
        (e) => e.created_at_millis,
      );
    expect(await left(other.keys.projectId)).toEqual([recent.getTime()]);
    expect(await left(keys.projectId)).toContain(old.getTime());
  });

  it("sends each entry as a webhook event only when the project opts in", async () => {
    const auditEvents = async () =>
      (await server.deps.events.list(keys.projectId)).filter((e) => e.type === "audit_log.entry_created");
    await signUp();
    expect(await auditEvents()).toEqual([]);
    await server.deps.projects.update(keys.projectId, { config: { audit_log_webhooks: true } });
    const user = await signUp();
    const forUser = (await auditEvents()).filter((e) => (e.data.target as { id: string }).id === user.id);
    expect(forUser.map((e) => e.data.type)).toEqual(["sign_up"]);
    await server.deps.projects.update(keys.projectId, { config: { audit_log_webhooks: false } });
  });
});

describe("a team's entries", () => {
  it("lists the entries that name a team (its members' permissions), and none of another team's", async () => {
    const serverCall = (method: string, path: string, body: unknown = {}) =>
      server.request(path, {
        method,
        headers: { ...accessHeaders("server", keys), "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const team = await expectJson<{ id: string }>(
      await serverCall("POST", "/api/v1/teams", { display_name: "Audited team" }),
      201,
    );
    const other = await expectJson<{ id: string }>(
      await serverCall("POST", "/api/v1/teams", { display_name: "Other team" }),
      201,
    );
    const user = await signUp();
    for (const id of [team.id, other.id]) {
      await expectJson(await serverCall("POST", `/api/v1/team-memberships/${id}/${user.id}`), 201);
    }
    const grant = `/api/v1/team-permissions/${team.id}/${user.id}/team_admin`;
    await expectJson(await serverCall("POST", grant), 201);
    await expectJson(await serverCall("DELETE", grant));
    const items = (await list({ team_id: team.id, limit: "200" })).items;
    expect(items.length).toBeGreaterThanOrEqual(2);
    expect(items.every((e) => e.details.team_id === team.id)).toBe(true);
    expect(items.map((e) => e.type)).toContain("permission.revoked");
    expect(items.find((e) => e.type === "permission.revoked")).toMatchObject({ target: { id: user.id } });
    expect(
      (await list({ team_id: other.id, limit: "200" })).items.every((e) => e.details.team_id === other.id),
    ).toBe(true);
  });
});
