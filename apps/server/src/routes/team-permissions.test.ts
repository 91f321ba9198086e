// Team permissions over HTTP (WIRE.md §4.12 first three rows, §6): listing direct and expanded grants, granting and
// revoking, their webhook events, the access matrix, and enforcement through contained permissions (cycles
// tolerated, deleted definitions skipped).
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { permissionDefinitions } from "../db/schema.ts";
import type { PermissionDefinition } from "../services/permissions.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import { accessHeaders, createTestServer, type TestServer, uniqueIp } from "../testing/test-server.ts";

const TEAMS = "/api/v1/teams";
const PERMISSIONS = "/api/v1/team-permissions";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const ALL_SYSTEM = [
  "$delete_team",
  "$invite_members",
  "$manage_api_keys",
  "$manage_sso",
  "$read_members",
  "$remove_members",
  "$update_team",
];

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

type Grant = { id: string; team_id: string; user_id: string };

/**
 * A project with custom definitions besides the defaults, a team made by Alice (team_admin) with Bob as member
 * (team_member), and Carol outside it.
 */
async function setup(definitions: PermissionDefinition[] = []) {
  const { keys } = await server.createProject({ displayName: "Permissions" });
  const projectId = keys.projectId;
  await inTransaction(server.deps.db, (tx) =>
    server.deps.permissions.createDefaults(tx, projectId, definitions),
  );
  const call =
    (type: "client" | "server" | "admin" | null, token?: string) =>
    (method: string, path: string, body?: unknown) => {
      const headers: Record<string, string> = { "x-forwarded-for": uniqueIp() };
      if (type) Object.assign(headers, accessHeaders(type, keys));
      if (token) headers["x-stack-access-token"] = token;
      if (body !== undefined) headers["content-type"] = "application/json";
      return server.request(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    };
  const user = async () => {
    const signedIn = await server.signIn(projectId);
    return { id: signedIn.userId, token: signedIn.accessToken };
  };
  const [alice, bob, carol] = [await user(), await user(), await user()];
  const srv = call("server");
  const team = (
    await expectJson(await srv("POST", TEAMS, { display_name: "T", creator_user_id: alice.id }), 201)
  ).id as string;
  await expectJson(await srv("POST", `/api/v1/team-memberships/${team}/${bob.id}`), 201);
  let seen = (await server.deps.events.list(projectId)).length;
  return {
    projectId,
    team,
    alice,
    bob,
    carol,
    client: (token?: string) => call("client", token),
    server: srv,
    admin: call("admin"),
    none: call(null),
    user,
    grantPath: (userId: string, permissionId: string, teamId = team) =>
      `${PERMISSIONS}/${teamId}/${userId}/${permissionId}`,
    /** The events recorded since the previous call. */
    newEvents: async () => {
      const all = await server.deps.events.list(projectId);
      const fresh = all.slice(seen);
      seen = all.length;
      return fresh;
    },
  };
}

const items = async (res: Response) => (await expectJson(res)).items as Grant[];
const ids = async (res: Response) => (await items(res)).map((g) => g.id);
const grantEvent = (type: "created" | "deleted", id: string, teamId: string, userId: string) => ({
  type: `team_permission.${type}`,
  data: { id, team_id: teamId, user_id: userId },
});

describe("GET /team-permissions", () => {
  it("lists direct grants by default, sorted by team, user and permission", async () => {
    const s = await setup();
    const other = (
      await expectJson(await s.server("POST", TEAMS, { display_name: "U", creator_user_id: s.bob.id }), 201)
    ).id as string;
    await expectJson(await s.server("POST", s.grantPath(s.bob.id, "$update_team")), 201);
    const expected = [
      { id: "team_admin", team_id: s.team, user_id: s.alice.id },
      { id: "$update_team", team_id: s.team, user_id: s.bob.id },
      { id: "team_member", team_id: s.team, user_id: s.bob.id },
      { id: "team_admin", team_id: other, user_id: s.bob.id },
    ].sort((a, b) => {
      const key = (g: Grant) => `${g.team_id} ${g.user_id} ${g.id}`;
      return key(a) < key(b) ? -1 : 1;
    });
    expect(await expectJson(await s.server("GET", PERMISSIONS))).toEqual({
      items: expected,
      is_paginated: false,
    });
    expect(await items(await s.admin("GET", `${PERMISSIONS}?recursive=false`))).toEqual(expected);
    expect(await items(await s.server("GET", `${PERMISSIONS}?team_id=${other}`))).toEqual([
      { id: "team_admin", team_id: other, user_id: s.bob.id },
    ]);
    expect(await items(await s.server("GET", `${PERMISSIONS}?user_id=${s.alice.id}`))).toEqual([
      { id: "team_admin", team_id: s.team, user_id: s.alice.id },
    ]);
    expect(await items(await s.server("GET", `${PERMISSIONS}?permission_id=$update_team`))).toEqual([
      { id: "$update_team", team_id: s.team, user_id: s.bob.id },
    ]);
  });

  it("expands contained permissions with recursive=true; the permission filter applies after expansion", async () => {
    const s = await setup();
    const recursive = `${PERMISSIONS}?team_id=${s.team}&recursive=true`;
    expect(await ids(await s.server("GET", `${recursive}&user_id=${s.alice.id}`))).toEqual([
      ...ALL_SYSTEM,
      "team_admin",
    ]);
    expect(await items(await s.server("GET", `${recursive}&user_id=${s.bob.id}`))).toEqual(
      ["$invite_members", "$read_members", "team_member"].map((id) => ({
        id,
        team_id: s.team,
        user_id: s.bob.id,
      })),
    );
    expect(await items(await s.server("GET", `${recursive}&permission_id=$read_members`))).toEqual(
      [
        { id: "$read_members", team_id: s.team, user_id: s.alice.id },
        { id: "$read_members", team_id: s.team, user_id: s.bob.id },
      ].sort((a, b) => (a.user_id < b.user_id ? -1 : 1)),
    );
    expect(
      await ids(await s.server("GET", `${recursive}&user_id=${s.bob.id}&permission_id=$update_team`)),
    ).toEqual([]);
  });

  it("tolerates cycles among custom definitions and skips deleted ones", async () => {
    const s = await setup([
      { id: "ring:a", contained_permission_ids: ["ring:b", "$read_members"] },
      { id: "ring:b", contained_permission_ids: ["ring:a", "$update_team"] },
      { id: "outer", contained_permission_ids: ["inner", "$invite_members"] },
      { id: "inner", contained_permission_ids: ["$delete_team"] },
    ]);
    for (const id of ["ring:a", "outer"])
      await expectJson(await s.server("POST", s.grantPath(s.bob.id, id)), 201);
    await expectJson(await s.server("DELETE", s.grantPath(s.bob.id, "team_member")));
    const bobs = `${PERMISSIONS}?team_id=${s.team}&user_id=${s.bob.id}&recursive=true`;
    expect(await ids(await s.server("GET", bobs))).toEqual([
      "$delete_team",
      "$invite_members",
      "$read_members",
      "$update_team",
      "inner",
      "outer",
      "ring:a",
      "ring:b",
    ]);
    // Bob now holds $update_team through the ring, so the enforcement check lets him rename the team.
    expect(
      (await expectJson(await s.client(s.bob.token)("PATCH", `${TEAMS}/${s.team}`, { display_name: "Ring" })))
        .display_name,
    ).toBe("Ring");

    await server.deps.db
      .delete(permissionDefinitions)
      .where(and(eq(permissionDefinitions.projectId, s.projectId), eq(permissionDefinitions.id, "inner")));
    expect(await ids(await s.server("GET", bobs))).toEqual([
      "$invite_members",
      "$read_members",
      "$update_team",
      "outer",
      "ring:a",
      "ring:b",
    ]);
    await expectKnownError(
      await s.client(s.bob.token)("DELETE", `${TEAMS}/${s.team}`, {}),
      "TEAM_PERMISSION_REQUIRED",
      {
        team_id: s.team,
        user_id: s.bob.id,
        permission_id: "$delete_team",
      },
    );
  });

  it("lets a client list only its own permissions, in any of its teams", async () => {
    const s = await setup();
    const own = [{ id: "team_member", team_id: s.team, user_id: s.bob.id }];
    for (const query of ["", "?user_id=me", `?user_id=${s.bob.id}`, `?team_id=${s.team}`]) {
      expect(await items(await s.client(s.bob.token)("GET", `${PERMISSIONS}${query}`))).toEqual(own);
    }
    await expectTextError(
      await s.client(s.bob.token)("GET", `${PERMISSIONS}?user_id=${s.alice.id}`),
      403,
      "Client can only list permissions for their own user.",
    );
    // A foreign team holds nothing of the caller's.
    expect(await items(await s.client(s.carol.token)("GET", `${PERMISSIONS}?team_id=${s.team}`))).toEqual([]);
    await expectKnownError(await s.client()("GET", PERMISSIONS), "USER_AUTHENTICATION_REQUIRED");
    await expectKnownError(
      await s.client()("GET", `${PERMISSIONS}?user_id=me`),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await expectKnownError(await s.none("GET", PERMISSIONS), "ACCESS_TYPE_REQUIRED");
    for (const query of ["?recursive=yes", "?team_id=x", "?user_id=x", "?other=1"]) {
      await expectKnownError(await s.server("GET", `${PERMISSIONS}${query}`), "SCHEMA_ERROR");
    }
  });
});

describe("POST /team-permissions/{team_id}/{user_id}/{permission_id}", () => {
  it("grants once, idempotently, recording team_permission.created only for a new grant", async () => {
    const s = await setup([{ id: "billing:read", contained_permission_ids: [] }]);
    const path = s.grantPath(s.bob.id, "billing:read");
    const expected = { id: "billing:read", team_id: s.team, user_id: s.bob.id };
    expect(await expectJson(await s.server("POST", path, {}), 201)).toEqual(expected);
    expect(await expectJson(await s.admin("POST", path), 201)).toEqual(expected);
    expect(await s.newEvents()).toEqual([grantEvent("created", "billing:read", s.team, s.bob.id)]);
    expect(await expectJson(await s.server("POST", s.grantPath(s.bob.id, "$remove_members")), 201)).toEqual({
      id: "$remove_members",
      team_id: s.team,
      user_id: s.bob.id,
    });
    expect(await ids(await s.server("GET", `${PERMISSIONS}?user_id=${s.bob.id}`))).toEqual([
      "$remove_members",
      "billing:read",
      "team_member",
    ]);
  });

  it("refuses non-members, unknown permissions and clients", async () => {
    const s = await setup();
    await expectKnownError(
      await s.server("POST", s.grantPath(s.carol.id, "$update_team")),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      {
        team_id: s.team,
        user_id: s.carol.id,
      },
    );
    await expectKnownError(
      await s.server("POST", s.grantPath(s.bob.id, "$update_team", UNKNOWN)),
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    for (const id of ["no_such", "$no_such"]) {
      await expectKnownError(await s.server("POST", s.grantPath(s.bob.id, id)), "PERMISSION_NOT_FOUND", {
        permission_id: id,
      });
    }
    await expectKnownError(
      await s.client(s.alice.token)("POST", s.grantPath(s.bob.id, "$update_team")),
      "INSUFFICIENT_ACCESS_TYPE",
      { actual_access_type: "client", allowed_access_types: ["server", "admin"] },
    );
    await expectKnownError(
      await s.none("POST", s.grantPath(s.bob.id, "$update_team")),
      "ACCESS_TYPE_REQUIRED",
    );
    await expectKnownError(await s.server("POST", s.grantPath("nobody", "$update_team")), "SCHEMA_ERROR");
    await expectKnownError(
      await s.server("POST", s.grantPath(s.bob.id, "$update_team"), { x: 1 }),
      "SCHEMA_ERROR",
    );
    expect(await s.newEvents()).toEqual([]);
  });
});

describe("DELETE /team-permissions/{team_id}/{user_id}/{permission_id}", () => {
  it("revokes direct grants only, recording team_permission.deleted", async () => {
    const s = await setup();
    const path = s.grantPath(s.bob.id, "team_member");
    expect(await expectJson(await s.server("DELETE", path, {}))).toEqual({ success: true });
    expect(await s.newEvents()).toEqual([grantEvent("deleted", "team_member", s.team, s.bob.id)]);
    expect(await ids(await s.server("GET", `${PERMISSIONS}?user_id=${s.bob.id}`))).toEqual([]);
    // Contained permissions are not grants of their own.
    await expectKnownError(
      await s.admin("DELETE", s.grantPath(s.alice.id, "$update_team")),
      "TEAM_PERMISSION_NOT_FOUND",
      { team_id: s.team, user_id: s.alice.id, permission_id: "$update_team" },
    );
    await expectKnownError(await s.server("DELETE", path), "TEAM_PERMISSION_NOT_FOUND", {
      team_id: s.team,
      user_id: s.bob.id,
      permission_id: "team_member",
    });
    await expectKnownError(
      await s.client(s.alice.token)("DELETE", s.grantPath(s.alice.id, "team_admin")),
      "INSUFFICIENT_ACCESS_TYPE",
    );
    expect(await s.newEvents()).toEqual([]);
  });
});
