// Project API keys over HTTP (WIRE.md §4.14): create (full keys once), list newest first, read, describe and revoke;
// validation, unknown and foreign ids, the access matrix, and that expiry and revocation hold from the very next
// request, so a project rotates keys without downtime.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { SEEDED_KEY_SET_ID } from "../services/seed.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
} from "../testing/test-server.ts";

const KEYS = "/api/v1/internal/api-keys";
const CURRENT = "/api/v1/projects/current";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const HOUR = 3600 * 1000;
const keyPattern = (prefix: string) => new RegExp(`^${prefix}_[0-9abcdefghjkmnpqrstvwxyz]{45}$`);

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

type Json = Record<string, unknown>;
type Access = "client" | "server" | "admin";

/** A request with the given headers (and a fresh client address). */
function send(headers: Record<string, string>, method: string, path: string, body?: unknown) {
  const all: Record<string, string> = { "x-forwarded-for": uniqueIp(), ...headers };
  if (body !== undefined) all["content-type"] = "application/json";
  return server.request(path, {
    method,
    headers: all,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A project and callers with its first key set (made by the test server, not through the API). */
async function setup() {
  const { keys } = await server.createProject({ displayName: "Keys" });
  const as =
    (type: Access | null, with_: ProjectKeys = keys) =>
    (method: string, path: string, body?: unknown) =>
      send(type ? accessHeaders(type, with_) : {}, method, path, body);
  return { keys, projectId: keys.projectId, admin: as("admin"), as };
}

const later = (ms = HOUR) => server.clock.now().getTime() + ms;

const createBody = (over: Json = {}) => ({
  description: "CI keys",
  expires_at_millis: later(24 * HOUR),
  has_publishable_client_key: true,
  has_secret_server_key: true,
  has_super_secret_admin_key: true,
  ...over,
});

/** Keys of a created set as ProjectKeys, for the requests that use them. */
const keysOf = (projectId: string, created: Json): ProjectKeys => ({
  projectId,
  pck: created.publishable_client_key as string,
  ssk: created.secret_server_key as string,
  sak: created.super_secret_admin_key as string,
});

/** One request with each kind of key: the status of each, 200 when the key is valid. */
async function useKeys(keys: ProjectKeys) {
  return {
    client: (await send(accessHeaders("client", keys), "GET", CURRENT)).status,
    server: (await send(accessHeaders("server", keys), "GET", CURRENT)).status,
    admin: (await send(accessHeaders("admin", keys), "GET", KEYS)).status,
  };
}
const ALL_VALID = { client: 200, server: 200, admin: 200 };

async function expectAllInvalid(keys: ProjectKeys) {
  const details = { project_id: keys.projectId };
  await expectKnownError(
    await send(accessHeaders("client", keys), "GET", CURRENT),
    "INVALID_PUBLISHABLE_CLIENT_KEY",
    details,
  );
  await expectKnownError(
    await send(accessHeaders("server", keys), "GET", CURRENT),
    "INVALID_SECRET_SERVER_KEY",
    details,
  );
  await expectKnownError(
    await send(accessHeaders("admin", keys), "GET", KEYS),
    "INVALID_SUPER_SECRET_ADMIN_KEY",
    details,
  );
}

describe("POST /internal/api-keys", () => {
  it("answers 200 with the full keys once; reads show their last four characters", async () => {
    const s = await setup();
    const expiresAt = later(24 * HOUR);
    const created = await expectJson(
      await s.admin("POST", KEYS, createBody({ expires_at_millis: expiresAt })),
    );
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      description: "CI keys",
      created_at_millis: server.clock.now().getTime(),
      expires_at_millis: expiresAt,
      publishable_client_key: expect.stringMatching(keyPattern("pck")),
      secret_server_key: expect.stringMatching(keyPattern("ssk")),
      super_secret_admin_key: expect.stringMatching(keyPattern("sak")),
    });
    const keys = keysOf(s.projectId, created);
    expect(await expectJson(await s.admin("GET", `${KEYS}/${created.id}`))).toEqual({
      id: created.id,
      description: "CI keys",
      created_at_millis: created.created_at_millis,
      expires_at_millis: expiresAt,
      publishable_client_key: { last_four: keys.pck.slice(-4) },
      secret_server_key: { last_four: keys.ssk.slice(-4) },
      super_secret_admin_key: { last_four: keys.sak.slice(-4) },
    });
    expect(await useKeys(keys)).toEqual(ALL_VALID);
  });

  it("creates only the kinds of key asked for", async () => {
    const s = await setup();
    const created = await expectJson(
      await s.admin(
        "POST",
        KEYS,
        createBody({ has_publishable_client_key: false, has_super_secret_admin_key: false }),
      ),
    );
    expect(Object.keys(created).sort()).toEqual([
      "created_at_millis",
      "description",
      "expires_at_millis",
      "id",
      "secret_server_key",
    ]);
    const read = await expectJson(await s.admin("GET", `${KEYS}/${created.id}`));
    expect(read.secret_server_key).toEqual({ last_four: (created.secret_server_key as string).slice(-4) });
    expect(read).not.toHaveProperty("publishable_client_key");
    expect(read).not.toHaveProperty("super_secret_admin_key");
    const onlyServer = { ...s.keys, ssk: created.secret_server_key as string };
    expect((await send(accessHeaders("server", onlyServer), "GET", CURRENT)).status).toBe(200);
  });

  it("needs at least one key and every field, and refuses unknown fields and wrong types", async () => {
    const s = await setup();
    const none = await expectKnownError(
      await s.admin(
        "POST",
        KEYS,
        createBody({
          has_publishable_client_key: false,
          has_secret_server_key: false,
          has_super_secret_admin_key: false,
        }),
      ),
      "SCHEMA_ERROR",
    );
    expect(none.message).toBe(
      "Request validation failed on POST /api/v1/internal/api-keys:\n" +
        "  - body: at least one of has_publishable_client_key, has_secret_server_key, has_super_secret_admin_key must be true",
    );
    const { expires_at_millis: _, ...withoutExpiry } = createBody();
    const missing = await expectKnownError(await s.admin("POST", KEYS, withoutExpiry), "SCHEMA_ERROR");
    expect(missing.message).toContain("  - body.expires_at_millis must be defined");
    const { description: __, ...withoutDescription } = createBody();
    await expectKnownError(await s.admin("POST", KEYS, withoutDescription), "SCHEMA_ERROR");
    const { has_secret_server_key: ___, ...withoutFlag } = createBody();
    await expectKnownError(await s.admin("POST", KEYS, withoutFlag), "SCHEMA_ERROR");
    const unknown = await expectKnownError(
      await s.admin("POST", KEYS, createBody({ project_id: "x" })),
      "SCHEMA_ERROR",
    );
    expect(unknown.message).toContain("  - body contains unknown properties: project_id");
    for (const wrong of [
      { has_secret_server_key: "true" },
      { expires_at_millis: "tomorrow" },
      { expires_at_millis: 1.5 },
      { expires_at_millis: 1e20 },
      { description: null },
    ]) {
      await expectKnownError(await s.admin("POST", KEYS, createBody(wrong)), "SCHEMA_ERROR");
    }
    await expectKnownError(await s.admin("POST", KEYS), "SCHEMA_ERROR");
    // Nothing was created: the project still has its one set.
    expect(((await expectJson(await s.admin("GET", KEYS))).items as Json[]).length).toBe(1);
  });
});

describe("GET /internal/api-keys", () => {
  it("lists the project's key sets, newest first", async () => {
    const s = await setup();
    const other = await setup();
    server.clock.advance(HOUR);
    const first = await expectJson(await s.admin("POST", KEYS, createBody({ description: "first" })));
    server.clock.advance(1000);
    const second = await expectJson(
      await s.admin("POST", KEYS, createBody({ description: "second", has_secret_server_key: false })),
    );
    await expectJson(await other.admin("POST", KEYS, createBody({ description: "elsewhere" })));
    const list = await expectJson(await s.admin("GET", KEYS));
    expect(list.is_paginated).toBe(false);
    const items = list.items as Json[];
    expect(items.map((k) => k.description)).toEqual(["second", "first", "test keys"]);
    expect(items[0]).toEqual(await expectJson(await s.admin("GET", `${KEYS}/${second.id}`)));
    expect(items[1]).toEqual(await expectJson(await s.admin("GET", `${KEYS}/${first.id}`)));
    expect(items[2]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      description: "test keys",
      created_at_millis: expect.any(Number),
      expires_at_millis: expect.any(Number),
      publishable_client_key: { last_four: s.keys.pck.slice(-4) },
      secret_server_key: { last_four: s.keys.ssk.slice(-4) },
      super_secret_admin_key: { last_four: s.keys.sak.slice(-4) },
    });
    expect(items[0]).not.toHaveProperty("secret_server_key");
  });

  it("shows the seeded key set in the internal project's list", async () => {
    const items = (await expectJson(await send(accessHeaders("admin", server.internal), "GET", KEYS)))
      .items as Json[];
    const seeded = items.find((k) => k.id === SEEDED_KEY_SET_ID);
    expect(seeded).toEqual({
      id: SEEDED_KEY_SET_ID,
      description: expect.any(String),
      created_at_millis: expect.any(Number),
      expires_at_millis: Date.parse("2099-12-31T00:00:00Z"),
      publishable_client_key: { last_four: server.internal.pck.slice(-4) },
      secret_server_key: { last_four: server.internal.ssk.slice(-4) },
      super_secret_admin_key: { last_four: server.internal.sak.slice(-4) },
    });
  });
});

describe("GET and PATCH /internal/api-keys/{api_key_id}", () => {
  it("changes the description, and revokes for good", async () => {
    const s = await setup();
    const created = await expectJson(await s.admin("POST", KEYS, createBody()));
    const path = `${KEYS}/${created.id}`;
    const renamed = await expectJson(await s.admin("PATCH", path, { description: "renamed" }));
    expect(renamed).toEqual({ ...(await expectJson(await s.admin("GET", path))), description: "renamed" });
    expect(renamed).not.toHaveProperty("manually_revoked_at_millis");
    expect(await expectJson(await s.admin("PATCH", path, {}))).toEqual(renamed);
    expect(await expectJson(await s.admin("PATCH", path))).toEqual(renamed);

    server.clock.advance(1000);
    const revokedAt = server.clock.now().getTime();
    const revoked = await expectJson(await s.admin("PATCH", path, { revoked: true }));
    expect(revoked).toEqual({ ...renamed, manually_revoked_at_millis: revokedAt });
    server.clock.advance(1000);
    // Revoking again keeps the first time; the description can still change; nothing brings the set back.
    expect(await expectJson(await s.admin("PATCH", path, { revoked: true, description: "old" }))).toEqual({
      ...revoked,
      description: "old",
    });
    await expectKnownError(await s.admin("PATCH", path, { revoked: false }), "SCHEMA_ERROR");
    expect(await expectJson(await s.admin("GET", path))).toEqual({ ...revoked, description: "old" });
  });

  it("refuses unknown fields, wrong types and ids that are not uuids", async () => {
    const s = await setup();
    const created = await expectJson(await s.admin("POST", KEYS, createBody()));
    const path = `${KEYS}/${created.id}`;
    const unknown = await expectKnownError(
      await s.admin("PATCH", path, { expires_at_millis: 1 }),
      "SCHEMA_ERROR",
    );
    expect(unknown.message).toContain("  - body contains unknown properties: expires_at_millis");
    await expectKnownError(await s.admin("PATCH", path, { description: 5 }), "SCHEMA_ERROR");
    await expectKnownError(await s.admin("PATCH", path, { revoked: "true" }), "SCHEMA_ERROR");
    await expectKnownError(await s.admin("GET", `${KEYS}/not-a-uuid`), "SCHEMA_ERROR");
    await expectKnownError(await s.admin("PATCH", `${KEYS}/not-a-uuid`, {}), "SCHEMA_ERROR");
    await expectKnownError(await s.admin("GET", `${KEYS}?limit=1`), "SCHEMA_ERROR");
    expect((await expectJson(await s.admin("GET", path))).description).toBe("CI keys");
  });

  it("answers API_KEY_NOT_FOUND for unknown ids and other projects' key sets", async () => {
    const s = await setup();
    const other = await setup();
    const foreign = await expectJson(await other.admin("POST", KEYS, createBody()));
    for (const id of [UNKNOWN, foreign.id as string]) {
      await expectKnownError(await s.admin("GET", `${KEYS}/${id}`), "API_KEY_NOT_FOUND");
      await expectKnownError(await s.admin("PATCH", `${KEYS}/${id}`, { revoked: true }), "API_KEY_NOT_FOUND");
    }
    const after = await expectJson(await other.admin("GET", `${KEYS}/${foreign.id}`));
    expect(after).not.toHaveProperty("manually_revoked_at_millis");
    expect(await useKeys(keysOf(other.projectId, foreign))).toEqual(ALL_VALID);
  });
});

describe("access", () => {
  it("is for admin callers only: the admin key or an admin access token of an owner-team member", async () => {
    const s = await setup();
    const created = await expectJson(await s.admin("POST", KEYS, createBody()));
    const path = `${KEYS}/${created.id}`;
    const calls: [string, string, unknown?][] = [
      ["GET", KEYS],
      ["POST", KEYS, createBody()],
      ["GET", path],
      ["PATCH", path, { description: "x" }],
    ];
    for (const [method, target, body] of calls) {
      for (const type of ["client", "server"] as const) {
        await expectKnownError(await s.as(type)(method, target, body), "INSUFFICIENT_ACCESS_TYPE", {
          actual_access_type: type,
          allowed_access_types: ["admin"],
        });
      }
      await expectKnownError(await s.as(null)(method, target, body), "ACCESS_TYPE_REQUIRED");
    }

    const internal = await server.deps.projects.find("internal");
    if (!internal) throw new Error("no internal project");
    const owner = await server.signIn("internal", { email: uniqueEmail("owner") });
    const outsider = await server.signIn("internal", { email: uniqueEmail("outsider") });
    await inTransaction(server.deps.db, async (tx) => {
      const team = await server.deps.teams.create(tx, internal, { displayName: "Owners" }, owner.userId);
      await server.deps.projectsRepo.setOwnerTeam(tx, s.projectId, team.id);
    });
    const tokenHeaders = (token: string) => ({
      "x-stack-access-type": "admin",
      "x-stack-project-id": s.projectId,
      "x-stack-admin-access-token": token,
    });
    const byOwner = (method: string, target: string, body?: unknown) =>
      send(tokenHeaders(owner.accessToken), method, target, body);
    const made = await expectJson(await byOwner("POST", KEYS, createBody({ description: "by owner" })));
    expect(made.secret_server_key).toMatch(keyPattern("ssk"));
    expect(((await expectJson(await byOwner("GET", KEYS))).items as Json[]).map((k) => k.id)).toContain(
      made.id,
    );
    expect((await expectJson(await byOwner("GET", path))).id).toBe(created.id);
    expect((await expectJson(await byOwner("PATCH", path, { description: "owned" }))).description).toBe(
      "owned",
    );
    await expectKnownError(
      await send(tokenHeaders(outsider.accessToken), "GET", KEYS),
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
    );
  });
});

describe("key validity on every request", () => {
  it("stops accepting a key set on the very next request after its revocation", async () => {
    const s = await setup();
    const created = await expectJson(await s.admin("POST", KEYS, createBody()));
    const keys = keysOf(s.projectId, created);
    expect(await useKeys(keys)).toEqual(ALL_VALID);
    await expectJson(await s.admin("PATCH", `${KEYS}/${created.id}`, { revoked: true }));
    await expectAllInvalid(keys);
  });

  it("stops accepting a key set once it expires, and never accepts one created expired", async () => {
    const s = await setup();
    const created = await expectJson(
      await s.admin("POST", KEYS, createBody({ expires_at_millis: later(60_000) })),
    );
    const keys = keysOf(s.projectId, created);
    server.clock.advance(59_000);
    expect(await useKeys(keys)).toEqual(ALL_VALID);
    server.clock.advance(1000);
    await expectAllInvalid(keys);
    const expired = await expectJson(
      await s.admin("POST", KEYS, createBody({ expires_at_millis: server.clock.now().getTime() - 1 })),
    );
    await expectAllInvalid(keysOf(s.projectId, expired));
  });

  it("rotates without downtime: a second set keeps working when the first is revoked", async () => {
    const s = await setup();
    // The first set was made with the database's clock: the test clock moves past it, so the new set is newer.
    server.clock.advance(HOUR);
    const second = await expectJson(await s.admin("POST", KEYS, createBody({ description: "next" })));
    const next = keysOf(s.projectId, second);
    expect(await useKeys(s.keys)).toEqual(ALL_VALID);
    expect(await useKeys(next)).toEqual(ALL_VALID);
    const withNext = s.as("admin", next);
    const first = ((await expectJson(await withNext("GET", KEYS))).items as Json[]).find(
      (k) => k.id !== second.id,
    );
    await expectJson(await withNext("PATCH", `${KEYS}/${first?.id}`, { revoked: true }));
    await expectAllInvalid(s.keys);
    expect(await useKeys(next)).toEqual(ALL_VALID);
    const items = (await expectJson(await withNext("GET", KEYS))).items as Json[];
    expect(items.map((k) => [k.id, "manually_revoked_at_millis" in k])).toEqual([
      [second.id, false],
      [first?.id, true],
    ]);
  });
});
