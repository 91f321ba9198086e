// User and team API keys over HTTP: the project flags, Stack's access rules (own keys; a team's with
// $manage_api_keys), the key shown once and stored hashed, revocation, and the server's check with its errors.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../crypto/hash.ts";
import { ownedApiKeys } from "../db/schema.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import { accessHeaders, createTestServer, type TestServer, uniqueIp } from "../testing/test-server.ts";

const USER_KEYS = "/api/v1/user-api-keys";
const TEAM_KEYS = "/api/v1/team-api-keys";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const KEY_FORMAT = /^sk_[0-9a-z]{45}[0-9a-f]{32}(user|team)1574ck4u7h[0-9a-f]{8}$/;

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

type Key = Record<string, unknown> & { id: string; value: unknown };

async function setup(flags = { allow_user_api_keys: true, allow_team_api_keys: true }) {
  const { keys } = await server.createProject({ displayName: "Keys", config: flags });
  const call =
    (type: "client" | "server" | "admin", token?: string) => (method: string, path: string, body?: unknown) =>
      server.request(path, {
        method,
        headers: {
          ...accessHeaders(type, keys),
          "x-forwarded-for": uniqueIp(),
          ...(token ? { "x-stack-access-token": token } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
  const user = async () => {
    const signedIn = await server.signIn(keys.projectId);
    return { id: signedIn.userId, as: call("client", signedIn.accessToken) };
  };
  const [alice, bob, carol] = [await user(), await user(), await user()];
  const srv = call("server");
  const team = (
    await expectJson(
      await srv("POST", "/api/v1/teams", { display_name: "T", creator_user_id: alice.id }),
      201,
    )
  ).id as string;
  await expectJson(await srv("POST", `/api/v1/team-memberships/${team}/${bob.id}`), 201);
  return { keys, alice, bob, carol, team, server: srv, client: call("client") };
}

const newKey = { description: "ci", expires_at_millis: null };

describe("user API keys", () => {
  it("creates a key shown once in Stack's format, then lists, reads and renames it by its last four", async () => {
    const { alice } = await setup();
    const created = await expectJson<Key>(await alice.as("POST", USER_KEYS, { ...newKey, user_id: "me" }));
    expect(created).toMatchObject({ description: "ci", is_public: false, type: "user", user_id: alice.id });
    expect(created.value).toMatch(KEY_FORMAT);
    expect(created.value).toContain(created.id.replace(/-/g, ""));
    expect(created).not.toHaveProperty("expires_at_millis");
    const lastFour = (created.value as string).slice(-4);
    const listed = await expectJson<{ items: Key[] }>(await alice.as("GET", `${USER_KEYS}?user_id=me`));
    expect(listed.items).toEqual([{ ...created, value: { last_four: lastFour } }]);
    const read = await expectJson(await alice.as("GET", `${USER_KEYS}/${created.id}?user_id=${alice.id}`));
    expect(read).toEqual(listed.items[0]);
    const renamed = await expectJson(
      await alice.as("PATCH", `${USER_KEYS}/${created.id}`, { description: "b" }),
    );
    expect(renamed).toMatchObject({ description: "b", value: { last_four: lastFour } });
  });

  it("stores only the key's SHA-256 hash and last four", async () => {
    const { alice } = await setup();
    const created = await expectJson<Key>(await alice.as("POST", USER_KEYS, { ...newKey, user_id: "me" }));
    const [row] = await server.deps.db.select().from(ownedApiKeys).where(eq(ownedApiKeys.id, created.id));
    expect(row?.keyHash).toBe(sha256Hex(created.value as string));
    expect(JSON.stringify(row)).not.toContain(created.value as string);
  });

  it("lets a client manage only its own keys", async () => {
    const { alice, bob, client } = await setup();
    const key = await expectJson<Key>(await alice.as("POST", USER_KEYS, { ...newKey, user_id: alice.id }));
    const own = "Client can only manage their own api keys";
    await expectTextError(await bob.as("GET", `${USER_KEYS}?user_id=${alice.id}`), 403, own);
    await expectTextError(await bob.as("POST", USER_KEYS, { ...newKey, user_id: alice.id }), 403, own);
    await expectTextError(await bob.as("GET", `${USER_KEYS}/${key.id}`), 403, own);
    await expectTextError(await bob.as("PATCH", `${USER_KEYS}/${key.id}`, { revoked: true }), 403, own);
    await expectKnownError(
      await client("GET", `${USER_KEYS}?user_id=me`),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await expectKnownError(
      await client("GET", `${USER_KEYS}?user_id=${alice.id}`),
      "USER_AUTHENTICATION_REQUIRED",
    );
    await expectKnownError(await alice.as("GET", `${USER_KEYS}/${UNKNOWN}`), "API_KEY_NOT_FOUND");
  });

  it("lets a server manage any user's keys; an unknown user is USER_NOT_FOUND", async () => {
    const { bob, server: srv } = await setup();
    const key = await expectJson<Key>(
      await srv("POST", USER_KEYS, { ...newKey, user_id: bob.id, is_public: true, expires_at_millis: 8e12 }),
    );
    expect(key).toMatchObject({ is_public: true, expires_at_millis: 8e12, user_id: bob.id });
    expect(key.value).toMatch(/^pk_.*user3574ck4u7h/);
    const listed = await expectJson<{ items: Key[] }>(await srv("GET", `${USER_KEYS}?user_id=${bob.id}`));
    expect(listed.items.map((k) => k.id)).toEqual([key.id]);
    await expectKnownError(await srv("POST", USER_KEYS, { ...newKey, user_id: UNKNOWN }), "USER_NOT_FOUND");
    await expectKnownError(await srv("GET", USER_KEYS), "SCHEMA_ERROR");
  });

  it("revokes for good, keeping the first revocation time", async () => {
    const { alice } = await setup();
    const key = await expectJson<Key>(await alice.as("POST", USER_KEYS, { ...newKey, user_id: "me" }));
    const revoked = await expectJson(await alice.as("PATCH", `${USER_KEYS}/${key.id}`, { revoked: true }));
    const at = revoked.manually_revoked_at_millis;
    expect(at).toBe(server.clock.now().getTime());
    server.clock.advance(1000);
    const again = await expectJson(await alice.as("PATCH", `${USER_KEYS}/${key.id}`, { revoked: true }));
    expect(again.manually_revoked_at_millis).toBe(at);
    await expectKnownError(
      await alice.as("PATCH", `${USER_KEYS}/${key.id}`, { revoked: false }),
      "SCHEMA_ERROR",
    );
  });
});

describe("team API keys", () => {
  it("needs $manage_api_keys in the team; without it the answer is API_KEY_NOT_FOUND", async () => {
    const { alice, bob, carol, team, server: srv } = await setup();
    const key = await expectJson<Key>(await alice.as("POST", TEAM_KEYS, { ...newKey, team_id: team }));
    expect(key).toMatchObject({ type: "team", team_id: team });
    expect(key.value).toMatch(KEY_FORMAT);
    for (const outsider of [bob, carol]) {
      await expectKnownError(await outsider.as("GET", `${TEAM_KEYS}?team_id=${team}`), "API_KEY_NOT_FOUND");
      await expectKnownError(
        await outsider.as("POST", TEAM_KEYS, { ...newKey, team_id: team }),
        "API_KEY_NOT_FOUND",
      );
      await expectKnownError(
        await outsider.as("GET", `${TEAM_KEYS}/${key.id}?team_id=${team}`),
        "API_KEY_NOT_FOUND",
      );
    }
    await expectJson(await srv("POST", `/api/v1/team-permissions/${team}/${bob.id}/$manage_api_keys`), 201);
    const listed = await expectJson<{ items: Key[] }>(await bob.as("GET", `${TEAM_KEYS}?team_id=${team}`));
    expect(listed.items.map((k) => k.id)).toEqual([key.id]);
    await expectJson(await bob.as("PATCH", `${TEAM_KEYS}/${key.id}?team_id=${team}`, { revoked: true }));
  });

  it("keeps user and team keys apart, and answers TEAM_NOT_FOUND for an unknown team", async () => {
    const { alice, team, server: srv } = await setup();
    const teamKey = await expectJson<Key>(await srv("POST", TEAM_KEYS, { ...newKey, team_id: team }));
    const userKey = await expectJson<Key>(await srv("POST", USER_KEYS, { ...newKey, user_id: alice.id }));
    await expectKnownError(await srv("GET", `${USER_KEYS}/${teamKey.id}`), "API_KEY_NOT_FOUND");
    await expectKnownError(await srv("GET", `${TEAM_KEYS}/${userKey.id}`), "API_KEY_NOT_FOUND");
    await expectKnownError(await srv("POST", TEAM_KEYS, { ...newKey, team_id: UNKNOWN }), "TEAM_NOT_FOUND");
  });
});

describe("POST /{user,team}-api-keys/check", () => {
  it("answers the key's record, or Stack's error: not found, wrong type, revoked, expired", async () => {
    const { alice, team, server: srv, keys } = await setup();
    const expiresAt = server.clock.now().getTime() + 60_000;
    const key = await expectJson<Key>(
      await srv("POST", USER_KEYS, { ...newKey, user_id: alice.id, expires_at_millis: expiresAt }),
    );
    const teamKey = await expectJson<Key>(await srv("POST", TEAM_KEYS, { ...newKey, team_id: team }));
    const checked = await expectJson(await srv("POST", `${USER_KEYS}/check`, { api_key: key.value }));
    expect(checked).toMatchObject({
      id: key.id,
      user_id: alice.id,
      value: { last_four: (key.value as string).slice(-4) },
    });
    await expectKnownError(
      await srv("POST", `${USER_KEYS}/check`, { api_key: `${key.value}x` }),
      "API_KEY_NOT_FOUND",
    );
    await expectKnownError(
      await srv("POST", `${TEAM_KEYS}/check`, { api_key: key.value }),
      "WRONG_API_KEY_TYPE",
      {
        expected_type: "team",
        actual_type: "user",
      },
    );
    await expectKnownError(
      await alice.as("POST", `${USER_KEYS}/check`, { api_key: key.value }),
      "INSUFFICIENT_ACCESS_TYPE",
    );
    const other = await setup();
    await expectKnownError(
      await other.server("POST", `${USER_KEYS}/check`, { api_key: key.value }),
      "API_KEY_NOT_FOUND",
    );
    server.clock.advance(120_000);
    await expectKnownError(
      await srv("POST", `${USER_KEYS}/check`, { api_key: key.value }),
      "API_KEY_EXPIRED",
    );
    await expectJson(await srv("PATCH", `${TEAM_KEYS}/${teamKey.id}`, { revoked: true }));
    await expectKnownError(
      await srv("POST", `${TEAM_KEYS}/check`, { api_key: teamKey.value }),
      "API_KEY_REVOKED",
    );
    expect(keys.projectId).not.toBe(other.keys.projectId);
  });
});

describe("project flags", () => {
  it("refuse every route of a kind that is not enabled, in Stack's words", async () => {
    const {
      alice,
      team,
      server: srv,
    } = await setup({ allow_user_api_keys: false, allow_team_api_keys: false });
    const user = "User API keys are not enabled for this project.";
    const teams = "Team API keys are not enabled for this project.";
    await expectTextError(await alice.as("GET", `${USER_KEYS}?user_id=me`), 400, user);
    await expectTextError(await alice.as("POST", USER_KEYS, { ...newKey, user_id: "me" }), 400, user);
    await expectTextError(await srv("POST", `${USER_KEYS}/check`, { api_key: "sk_x" }), 400, user);
    await expectTextError(await srv("GET", `${USER_KEYS}/${UNKNOWN}`), 400, user);
    await expectTextError(await alice.as("GET", `${TEAM_KEYS}?team_id=${team}`), 400, teams);
    await expectTextError(await srv("POST", `${TEAM_KEYS}/check`, { api_key: "sk_x" }), 400, teams);
  });

  it("are project settings admins change and clients read", async () => {
    const { keys } = await server.createProject({ displayName: "Flags" });
    const headers = (type: "client" | "admin") => ({
      ...accessHeaders(type, keys),
      "content-type": "application/json",
      "x-forwarded-for": uniqueIp(),
    });
    const before = await expectJson<{ config: Record<string, unknown> }>(
      await server.request("/api/v1/projects/current", { headers: headers("client") }),
    );
    expect(before.config).toMatchObject({ allow_user_api_keys: false, allow_team_api_keys: false });
    await expectJson(
      await server.request("/api/v1/projects/current", {
        method: "PATCH",
        headers: headers("admin"),
        body: JSON.stringify({ config: { allow_user_api_keys: true } }),
      }),
    );
    const after = await expectJson<{ config: Record<string, unknown> }>(
      await server.request("/api/v1/projects/current", { headers: headers("client") }),
    );
    expect(after.config).toMatchObject({ allow_user_api_keys: true, allow_team_api_keys: false });
  });
});
