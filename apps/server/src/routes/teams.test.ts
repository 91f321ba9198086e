// Teams over HTTP (WIRE.md §4.10, §6, §7): create, list, read, update and delete teams; memberships; member
// profiles; the access matrix of each (client on a foreign team, client without the team permission, server and
// admin on anything); the webhook events each change records; personal teams on sign-up and the selected team.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { verificationCodes } from "../db/schema.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import { accessHeaders, createTestServer, type TestServer, uniqueIp } from "../testing/test-server.ts";

const TEAMS = "/api/v1/teams";
const MEMBERSHIPS = "/api/v1/team-memberships";
const PROFILES = "/api/v1/team-member-profiles";
const PERMISSIONS = "/api/v1/team-permissions";
const ME = "/api/v1/users/me";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const PNG = "data:image/png;base64,iVBORw0KGgo=";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

type Caller = { type: "client" | "server" | "admin"; token?: string } | "none";
type Json = Record<string, unknown>;

/** A fresh project (client team creation on unless `config` says otherwise) with request helpers. */
async function newProject(config: Json = {}) {
  const { keys } = await server.createProject({
    displayName: "Teams",
    config: { client_team_creation_enabled: true, ...config },
  });
  const call = (who: Caller) => (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { "x-forwarded-for": uniqueIp() };
    if (who !== "none") Object.assign(headers, accessHeaders(who.type, keys));
    if (who !== "none" && who.token) headers["x-stack-access-token"] = who.token;
    if (body !== undefined) headers["content-type"] = "application/json";
    return server.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  };
  let seen = 0;
  const project = {
    id: keys.projectId,
    client: (token?: string) => call({ type: "client", token }),
    server: call({ type: "server" }),
    admin: call({ type: "admin" }),
    serverAs: (token: string) => call({ type: "server", token }),
    none: call("none"),
    user: async (email?: string) => {
      const signedIn = await server.signIn(keys.projectId, email ? { email } : {});
      return { id: signedIn.userId, token: signedIn.accessToken };
    },
    /** The events recorded since the previous call. */
    newEvents: async () => {
      const all = await server.deps.events.list(keys.projectId);
      const fresh = all.slice(seen);
      seen = all.length;
      return fresh;
    },
    /** A team made by the server, with `creatorId` as its creator when given. */
    team: async (name: string, creatorId?: string) => {
      const body = creatorId ? { display_name: name, creator_user_id: creatorId } : { display_name: name };
      return (await expectJson(await project.server("POST", TEAMS, body), 201)) as ServerTeam;
    },
    /** Adds a member with the member defaults. */
    addMember: async (teamId: string, userId: string) =>
      expectJson(await project.server("POST", `${MEMBERSHIPS}/${teamId}/${userId}`, {}), 201),
  };
  return project;
}

type Project = Awaited<ReturnType<typeof newProject>>;
type ServerTeam = {
  id: string;
  display_name: string;
  profile_image_url: string | null;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata: unknown;
  created_at_millis: number;
};

const clientShape = (t: ServerTeam) => ({
  id: t.id,
  display_name: t.display_name,
  profile_image_url: t.profile_image_url,
  client_metadata: t.client_metadata,
  client_read_only_metadata: t.client_read_only_metadata,
});

const list = (items: unknown[]) => ({ items, is_paginated: false });
const permissionsOf = async (p: Project, teamId: string, userId: string) =>
  (
    (await expectJson(await p.server("GET", `${PERMISSIONS}?team_id=${teamId}&user_id=${userId}`)))
      .items as Json[]
  ).map((i) => i.id);
const membership = (type: string, teamId: string, userId: string) => ({
  type: `team_membership.${type}`,
  data: { team_id: teamId, user_id: userId },
});
const grant = (type: string, id: string, teamId: string, userId: string) => ({
  type: `team_permission.${type}`,
  data: { id, team_id: teamId, user_id: userId },
});

describe("POST /teams", () => {
  it("lets a client create a team it joins as creator with team_admin, recording three events", async () => {
    const p = await newProject();
    const alice = await p.user();
    await p.newEvents();
    const team = await expectJson(
      await p.client(alice.token)("POST", TEAMS, {
        display_name: "Alice's",
        profile_image_url: PNG,
        client_metadata: { a: 1 },
      }),
      201,
    );
    expect(team).toEqual({
      id: expect.any(String),
      display_name: "Alice's",
      profile_image_url: PNG,
      client_metadata: { a: 1 },
      client_read_only_metadata: null,
    });
    const id = team.id as string;
    expect(await p.newEvents()).toEqual([
      {
        type: "team.created",
        data: {
          ...team,
          server_metadata: null,
          created_at_millis: server.clock.now().getTime(),
        },
      },
      membership("created", id, alice.id),
      grant("created", "team_admin", id, alice.id),
    ]);
    expect(await permissionsOf(p, id, alice.id)).toEqual(["team_admin"]);
    // Not selected: the SDK selects it itself.
    expect((await expectJson(await p.client(alice.token)("GET", ME))).selected_team_id).toBeNull();
  });

  it("accepts `me` and the caller's own id as creator, and refuses anyone else", async () => {
    const p = await newProject();
    const alice = await p.user();
    const bob = await p.user();
    const create = (creator: string) =>
      p.client(alice.token)("POST", TEAMS, { display_name: "T", creator_user_id: creator });
    for (const creator of ["me", alice.id]) {
      const team = await expectJson(await create(creator), 201);
      expect(await permissionsOf(p, team.id as string, alice.id)).toEqual(["team_admin"]);
    }
    await expectTextError(
      await create(bob.id),
      403,
      "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.",
    );
  });

  it("refuses client creation when the project disables it, and clients without a user", async () => {
    const closed = await newProject({ client_team_creation_enabled: false });
    const alice = await closed.user();
    await expectTextError(
      await closed.client(alice.token)("POST", TEAMS, { display_name: "T" }),
      403,
      "Client team creation is disabled for this project",
    );
    const p = await newProject();
    await expectKnownError(
      await p.client()("POST", TEAMS, { display_name: "T" }),
      "USER_AUTHENTICATION_REQUIRED",
    );
    await expectKnownError(await p.none("POST", TEAMS, { display_name: "T" }), "ACCESS_TYPE_REQUIRED");
    expect(await closed.newEvents()).toEqual([expect.objectContaining({ type: "user.created" })]);
  });

  it("refuses server-only fields from clients as a SCHEMA_ERROR", async () => {
    const p = await newProject();
    const alice = await p.user();
    const res = await p.client(alice.token)("POST", TEAMS, {
      display_name: "T",
      server_metadata: { x: 1 },
      client_read_only_metadata: 2,
    });
    const message =
      "Request validation failed on POST /api/v1/teams:\n  - body contains unknown properties: server_metadata, client_read_only_metadata";
    await expectKnownError(res, "SCHEMA_ERROR", { message });
  });

  it("lets the server create a team without members, or for any creator", async () => {
    const p = await newProject();
    const bob = await p.user();
    await p.newEvents();
    const body = {
      display_name: "Server team",
      client_metadata: "c",
      client_read_only_metadata: ["r"],
      server_metadata: { s: true },
    };
    const team = await expectJson(await p.server("POST", TEAMS, body), 201);
    expect(team).toEqual({
      id: expect.any(String),
      ...body,
      profile_image_url: null,
      created_at_millis: server.clock.now().getTime(),
    });
    expect(await p.newEvents()).toEqual([{ type: "team.created", data: team }]);
    expect(await expectJson(await p.server("GET", `${PROFILES}?team_id=${team.id}`))).toEqual(list([]));

    const owned = await expectJson(
      await p.admin("POST", TEAMS, { display_name: "B", creator_user_id: bob.id }),
      201,
    );
    expect(await permissionsOf(p, owned.id as string, bob.id)).toEqual(["team_admin"]);
    await expectKnownError(
      await p.server("POST", TEAMS, { display_name: "X", creator_user_id: UNKNOWN }),
      "USER_ID_DOES_NOT_EXIST",
      { user_id: UNKNOWN },
    );
  });

  it("reads add_current_user=true (deprecated) as creator `me`", async () => {
    const p = await newProject();
    const bob = await p.user();
    const team = await expectJson(
      await p.serverAs(bob.token)("POST", `${TEAMS}?add_current_user=true`, { display_name: "A" }),
      201,
    );
    expect(await permissionsOf(p, team.id as string, bob.id)).toEqual(["team_admin"]);
    await expectKnownError(
      await p.server("POST", `${TEAMS}?add_current_user=true`, { display_name: "A" }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await expectKnownError(
      await p.server("POST", TEAMS, { display_name: "A", creator_user_id: "me" }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
  });

  it("grants the project's configured creator defaults, skipping unknown ids", async () => {
    const p = await newProject({
      team_creator_default_permissions: [{ id: "$update_team" }, { id: "no_such" }, { id: "team_member" }],
    });
    const alice = await p.user();
    const team = await expectJson(await p.client(alice.token)("POST", TEAMS, { display_name: "T" }), 201);
    expect(await permissionsOf(p, team.id as string, alice.id)).toEqual(["$update_team", "team_member"]);
  });

  it("checks names, images and fields", async () => {
    const p = await newProject();
    await expectTextError(
      await p.server("POST", TEAMS, { display_name: "T", profile_image_url: "ftp://x.example/a.png" }),
      400,
      "Invalid profile image URL",
    );
    const bad = [
      {},
      { display_name: "" },
      { display_name: "x".repeat(257) },
      { display_name: 5 },
      { display_name: "T", extra: 1 },
    ];
    for (const body of bad) await expectKnownError(await p.server("POST", TEAMS, body), "SCHEMA_ERROR");
    await expectKnownError(
      await p.server("POST", TEAMS, { display_name: "T", creator_user_id: "nobody" }),
      "SCHEMA_ERROR",
    );
    await expectKnownError(
      await p.server("POST", `${TEAMS}?add_current_user=yes`, { display_name: "T" }),
      "SCHEMA_ERROR",
    );
    expect(
      (await expectJson(await p.server("POST", TEAMS, { display_name: "x".repeat(256) }), 201)).display_name,
    ).toBe("x".repeat(256));
  });
});

describe("GET /teams", () => {
  it("lists a client's own teams oldest first, and refuses other users", async () => {
    const p = await newProject();
    const alice = await p.user();
    const bob = await p.user();
    const first = await p.team("First", alice.id);
    server.clock.advance(1000);
    await p.team("Bob's", bob.id);
    server.clock.advance(1000);
    const second = await p.team("Second", alice.id);
    const mine = list([clientShape(first), clientShape(second)]);
    for (const query of ["", "?user_id=me", `?user_id=${alice.id}`]) {
      expect(await expectJson(await p.client(alice.token)("GET", `${TEAMS}${query}`))).toEqual(mine);
    }
    await expectTextError(
      await p.client(alice.token)("GET", `${TEAMS}?user_id=${bob.id}`),
      403,
      'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user',
    );
    await expectKnownError(await p.client()("GET", TEAMS), "USER_AUTHENTICATION_REQUIRED");
    await expectKnownError(
      await p.client()("GET", `${TEAMS}?user_id=me`),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await expectKnownError(await p.client(alice.token)("GET", `${TEAMS}?user_id=x`), "SCHEMA_ERROR");
    await expectKnownError(await p.none("GET", TEAMS), "ACCESS_TYPE_REQUIRED");
  });

  it("lists every team of the project, or one user's, to server and admin callers", async () => {
    const p = await newProject();
    const other = await newProject();
    await other.team("Elsewhere");
    const alice = await p.user();
    const a = await p.team("A");
    server.clock.advance(1000);
    const b = await p.team("B", alice.id);
    expect(await expectJson(await p.server("GET", TEAMS))).toEqual(list([a, b]));
    expect(await expectJson(await p.admin("GET", `${TEAMS}?user_id=${alice.id}`))).toEqual(list([b]));
    expect(await expectJson(await p.serverAs(alice.token)("GET", `${TEAMS}?user_id=me`))).toEqual(list([b]));
    expect(await expectJson(await p.server("GET", `${TEAMS}?user_id=${UNKNOWN}`))).toEqual(list([]));
  });
});

describe("GET, PATCH and DELETE /teams/{team_id}", () => {
  it("reads a team: client members get the client shape, server callers any team", async () => {
    const p = await newProject();
    const alice = await p.user();
    const bob = await p.user();
    const team = await p.team("T", alice.id);
    const path = `${TEAMS}/${team.id}`;
    expect(await expectJson(await p.client(alice.token)("GET", path))).toEqual(clientShape(team));
    await expectKnownError(await p.client(bob.token)("GET", path), "TEAM_MEMBERSHIP_NOT_FOUND", {
      team_id: team.id,
      user_id: bob.id,
    });
    await expectKnownError(await p.client()("GET", path), "USER_AUTHENTICATION_REQUIRED");
    expect(await expectJson(await p.server("GET", path))).toEqual(team);
    expect(await expectJson(await p.admin("GET", path))).toEqual(team);
    await expectKnownError(await p.server("GET", `${TEAMS}/${UNKNOWN}`), "TEAM_NOT_FOUND", {
      team_id: UNKNOWN,
    });
    await expectKnownError(await p.client(alice.token)("GET", `${TEAMS}/${UNKNOWN}`), "TEAM_NOT_FOUND");
    await expectKnownError(await p.server("GET", `${TEAMS}/not-a-uuid`), "SCHEMA_ERROR");
    // A team of another project does not exist here.
    const other = await newProject();
    await expectKnownError(await other.server("GET", path), "TEAM_NOT_FOUND");
  });

  it("updates a team: clients need $update_team, and team.updated is recorded", async () => {
    const p = await newProject();
    const alice = await p.user();
    const bob = await p.user();
    const carol = await p.user();
    const team = await p.team("T", alice.id);
    await p.addMember(team.id, bob.id);
    const path = `${TEAMS}/${team.id}`;
    await p.newEvents();

    const changed = await expectJson(
      await p.client(alice.token)("PATCH", path, { display_name: "Renamed", client_metadata: { m: 1 } }),
    );
    const expected = { ...team, display_name: "Renamed", client_metadata: { m: 1 } };
    expect(changed).toEqual(clientShape(expected));
    expect(await p.newEvents()).toEqual([{ type: "team.updated", data: expected }]);

    await expectKnownError(
      await p.client(bob.token)("PATCH", path, { display_name: "No" }),
      "TEAM_PERMISSION_REQUIRED",
      {
        team_id: team.id,
        user_id: bob.id,
        permission_id: "$update_team",
      },
    );
    await expectKnownError(
      await p.client(carol.token)("PATCH", path, { display_name: "No" }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      {
        team_id: team.id,
        user_id: carol.id,
      },
    );
    await expectKnownError(
      await p.client(alice.token)("PATCH", path, { server_metadata: 1 }),
      "SCHEMA_ERROR",
      {
        message: `Request validation failed on PATCH ${path}:\n  - body contains unknown properties: server_metadata`,
      },
    );
    await expectTextError(
      await p.client(alice.token)("PATCH", path, { profile_image_url: "not a url" }),
      400,
      "Invalid profile image URL",
    );
    await expectKnownError(await p.client(alice.token)("PATCH", path, { display_name: "" }), "SCHEMA_ERROR");
    expect(await p.newEvents()).toEqual([]);

    const serverView = await expectJson(
      await p.server("PATCH", path, {
        server_metadata: { s: 1 },
        client_read_only_metadata: "ro",
        profile_image_url: "https://img.example/t.png",
      }),
    );
    const final = {
      ...expected,
      server_metadata: { s: 1 },
      client_read_only_metadata: "ro",
      profile_image_url: "https://img.example/t.png",
    };
    expect(serverView).toEqual(final);
    // An empty update changes nothing but is still an update.
    expect(await expectJson(await p.admin("PATCH", path, {}))).toEqual(final);
    expect(await p.newEvents()).toEqual([
      { type: "team.updated", data: final },
      { type: "team.updated", data: final },
    ]);
    await expectKnownError(
      await p.server("PATCH", `${TEAMS}/${UNKNOWN}`, { display_name: "X" }),
      "TEAM_NOT_FOUND",
    );
  });

  it("deletes a team with memberships, grants and invitations; clears selections; records team.deleted", async () => {
    const p = await newProject();
    const alice = await p.user();
    const bob = await p.user();
    const team = await p.team("Doomed", alice.id);
    const kept = await p.team("Kept", alice.id);
    await p.addMember(team.id, bob.id);
    await expectJson(await p.client(bob.token)("PATCH", ME, { selected_team_id: team.id }));
    const invite = (teamId: string) =>
      inTransaction(server.deps.db, (tx) =>
        server.deps.codes.create(tx, {
          projectId: p.id,
          purpose: "team_invitation",
          data: { team_id: teamId, email: "x@example.com" },
        }),
      );
    const invitations = async () =>
      (
        await server.deps.db
          .select({ id: verificationCodes.id })
          .from(verificationCodes)
          .where(eq(verificationCodes.projectId, p.id))
      )
        .map((r) => r.id)
        .sort();
    const doomedInvite = await invite(team.id);
    const keptInvite = await invite(kept.id);
    expect(await invitations()).toEqual([doomedInvite.id, keptInvite.id].sort());
    const path = `${TEAMS}/${team.id}`;
    await p.newEvents();

    await expectKnownError(await p.client(bob.token)("DELETE", path, {}), "TEAM_PERMISSION_REQUIRED", {
      team_id: team.id,
      user_id: bob.id,
      permission_id: "$delete_team",
    });
    expect(await expectJson(await p.client(alice.token)("DELETE", path, {}))).toEqual({ success: true });
    expect(await p.newEvents()).toEqual([{ type: "team.deleted", data: { id: team.id } }]);

    await expectKnownError(await p.server("GET", path), "TEAM_NOT_FOUND");
    expect(await expectJson(await p.server("GET", `${PROFILES}?team_id=${team.id}`))).toEqual(list([]));
    expect(await expectJson(await p.server("GET", `${PERMISSIONS}?team_id=${team.id}`))).toEqual(list([]));
    const me = await expectJson(await p.client(bob.token)("GET", ME));
    expect({ id: me.selected_team_id, team: me.selected_team }).toEqual({ id: null, team: null });
    expect(await invitations()).toEqual([keptInvite.id]);

    await expectKnownError(await p.client(alice.token)("DELETE", path, {}), "TEAM_NOT_FOUND");
    await expectKnownError(await p.server("DELETE", path, {}), "TEAM_NOT_FOUND");
    await expectKnownError(await p.server("DELETE", `${TEAMS}/${kept.id}`, { x: 1 }), "SCHEMA_ERROR");
    expect(await expectJson(await p.admin("DELETE", `${TEAMS}/${kept.id}`))).toEqual({ success: true });
    expect(await p.newEvents()).toEqual([{ type: "team.deleted", data: { id: kept.id } }]);
  });
});

describe("team memberships", () => {
  it("adds members (server only) with the member defaults", async () => {
    const p = await newProject();
    const alice = await p.user();
    const bob = await p.user();
    const team = await p.team("T", alice.id);
    await p.newEvents();
    const path = `${MEMBERSHIPS}/${team.id}/${bob.id}`;
    expect(await expectJson(await p.server("POST", path, {}), 201)).toEqual({
      team_id: team.id,
      user_id: bob.id,
    });
    expect(await p.newEvents()).toEqual([
      membership("created", team.id, bob.id),
      grant("created", "team_member", team.id, bob.id),
    ]);
    expect(await permissionsOf(p, team.id, bob.id)).toEqual(["team_member"]);
    await expectKnownError(await p.admin("POST", path), "TEAM_MEMBERSHIP_ALREADY_EXISTS");
    await expectKnownError(await p.server("POST", `${MEMBERSHIPS}/${UNKNOWN}/${bob.id}`), "TEAM_NOT_FOUND", {
      team_id: UNKNOWN,
    });
    await expectKnownError(await p.server("POST", `${MEMBERSHIPS}/${team.id}/${UNKNOWN}`), "USER_NOT_FOUND");
    await expectKnownError(await p.client(alice.token)("POST", path), "INSUFFICIENT_ACCESS_TYPE", {
      actual_access_type: "client",
      allowed_access_types: ["server", "admin"],
    });
    await expectKnownError(
      await p.server("POST", `${MEMBERSHIPS}/${team.id}/me`),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await expectKnownError(await p.server("POST", path, { x: 1 }), "SCHEMA_ERROR");
    expect(await p.newEvents()).toEqual([]);
  });

  it("grants the project's configured member defaults", async () => {
    const p = await newProject({
      team_member_default_permissions: [{ id: "$read_members" }, { id: "gone" }],
    });
    const alice = await p.user();
    const team = await p.team("T");
    await p.addMember(team.id, alice.id);
    expect(await permissionsOf(p, team.id, alice.id)).toEqual(["$read_members"]);
  });

  it("lets a member leave, which ends its grants and clears its selection", async () => {
    const p = await newProject();
    const alice = await p.user();
    const team = await p.team("T", alice.id);
    await expectJson(await p.client(alice.token)("PATCH", ME, { selected_team_id: team.id }));
    await p.newEvents();
    expect(
      await expectJson(await p.client(alice.token)("DELETE", `${MEMBERSHIPS}/${team.id}/me`, {})),
    ).toEqual({
      success: true,
    });
    expect(await p.newEvents()).toEqual([membership("deleted", team.id, alice.id)]);
    expect(await permissionsOf(p, team.id, alice.id)).toEqual([]);
    expect((await expectJson(await p.client(alice.token)("GET", ME))).selected_team_id).toBeNull();
    expect(await expectJson(await p.client(alice.token)("GET", TEAMS))).toEqual(list([]));
    await expectKnownError(
      await p.client(alice.token)("DELETE", `${MEMBERSHIPS}/${team.id}/${alice.id}`),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      { team_id: team.id, user_id: alice.id },
    );
  });

  it("lets clients remove others only with $remove_members; server and admin remove anyone", async () => {
    const p = await newProject();
    const alice = await p.user();
    const bob = await p.user();
    const carol = await p.user();
    const outsider = await p.user();
    const team = await p.team("T", alice.id);
    await p.addMember(team.id, bob.id);
    await p.addMember(team.id, carol.id);
    await p.newEvents();
    const remove = (token: string, userId: string) =>
      p.client(token)("DELETE", `${MEMBERSHIPS}/${team.id}/${userId}`, {});

    await expectKnownError(await remove(bob.token, carol.id), "TEAM_PERMISSION_REQUIRED", {
      team_id: team.id,
      user_id: bob.id,
      permission_id: "$remove_members",
    });
    await expectKnownError(await remove(outsider.token, carol.id), "TEAM_MEMBERSHIP_NOT_FOUND", {
      team_id: team.id,
      user_id: outsider.id,
    });
    await expectKnownError(await remove(alice.token, outsider.id), "TEAM_MEMBERSHIP_NOT_FOUND", {
      team_id: team.id,
      user_id: outsider.id,
    });
    expect(await expectJson(await remove(alice.token, carol.id))).toEqual({ success: true });
    expect(await expectJson(await p.server("DELETE", `${MEMBERSHIPS}/${team.id}/${bob.id}`))).toEqual({
      success: true,
    });
    expect(await expectJson(await p.admin("DELETE", `${MEMBERSHIPS}/${team.id}/${alice.id}`))).toEqual({
      success: true,
    });
    expect(await p.newEvents()).toEqual([
      membership("deleted", team.id, carol.id),
      membership("deleted", team.id, bob.id),
      membership("deleted", team.id, alice.id),
    ]);
    await expectKnownError(
      await p.server("DELETE", `${MEMBERSHIPS}/${team.id}/${bob.id}`),
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    await expectKnownError(
      await p.client()("DELETE", `${MEMBERSHIPS}/${team.id}/me`),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await expectKnownError(
      await p.none("DELETE", `${MEMBERSHIPS}/${team.id}/${bob.id}`),
      "ACCESS_TYPE_REQUIRED",
    );
  });
});

describe("team member profiles", () => {
  /** Alice (team_admin), Bob (team_member, named "Bob") and Dave (no permissions) in one team; Eve outside. */
  async function profileSetup() {
    const p = await newProject();
    const alice = await p.user("alice@example.com");
    const bob = await p.user("bob@example.com");
    const dave = await p.user("dave@example.com");
    const eve = await p.user("eve@example.com");
    await expectJson(await p.client(bob.token)("PATCH", ME, { display_name: "Bob", profile_image_url: PNG }));
    const team = await p.team("T", alice.id);
    server.clock.advance(1000);
    await p.addMember(team.id, bob.id);
    server.clock.advance(1000);
    await p.addMember(team.id, dave.id);
    await expectJson(await p.server("DELETE", `${PERMISSIONS}/${team.id}/${dave.id}/team_member`));
    return { p, team, alice, bob, dave, eve };
  }
  const profile = (teamId: string, userId: string, name: string | null, image: string | null) => ({
    team_id: teamId,
    user_id: userId,
    display_name: name,
    profile_image_url: image,
  });

  it("lists a team's profiles to members with $read_members, falling back to the user's own name and image", async () => {
    const { p, team, alice, bob, dave } = await profileSetup();
    const all = list([
      profile(team.id, alice.id, null, null),
      profile(team.id, bob.id, "Bob", PNG),
      profile(team.id, dave.id, null, null),
    ]);
    expect(await expectJson(await p.client(bob.token)("GET", `${PROFILES}?team_id=${team.id}`))).toEqual(all);
    expect(
      await expectJson(
        await p.client(alice.token)("GET", `${PROFILES}?team_id=${team.id}&user_id=${bob.id}`),
      ),
    ).toEqual(list([profile(team.id, bob.id, "Bob", PNG)]));
    await expectKnownError(
      await p.client(dave.token)("GET", `${PROFILES}?team_id=${team.id}`),
      "TEAM_PERMISSION_REQUIRED",
      {
        team_id: team.id,
        user_id: dave.id,
        permission_id: "$read_members",
      },
    );
    expect(
      await expectJson(await p.client(dave.token)("GET", `${PROFILES}?team_id=${team.id}&user_id=me`)),
    ).toEqual(list([profile(team.id, dave.id, null, null)]));
  });

  it("requires team_id and membership from clients", async () => {
    const { p, team, bob, eve } = await profileSetup();
    await expectKnownError(await p.client(bob.token)("GET", PROFILES), "SCHEMA_ERROR", {
      message:
        "Request validation failed on GET /api/v1/team-member-profiles:\n  - query.team_id must be defined",
    });
    await expectKnownError(
      await p.client(eve.token)("GET", `${PROFILES}?team_id=${team.id}&user_id=me`),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      {
        team_id: team.id,
        user_id: eve.id,
      },
    );
    await expectKnownError(
      await p.client()("GET", `${PROFILES}?team_id=${team.id}`),
      "USER_AUTHENTICATION_REQUIRED",
    );
    await expectKnownError(
      await p.client(bob.token)("GET", `${PROFILES}?team_id=${team.id}&x=1`),
      "SCHEMA_ERROR",
    );
  });

  it("gives server callers every profile with the server user", async () => {
    const { p, team, bob } = await profileSetup();
    server.clock.advance(1000);
    const other = await p.team("Other", bob.id);
    const bobUser = await expectJson(await p.serverAs(bob.token)("GET", ME));
    const listed = await expectJson(await p.server("GET", `${PROFILES}?user_id=${bob.id}`));
    expect(listed).toEqual(
      list([
        { ...profile(team.id, bob.id, "Bob", PNG), user: bobUser },
        { ...profile(other.id, bob.id, "Bob", PNG), user: bobUser },
      ]),
    );
    expect(bobUser.server_metadata).toBeNull();
    const every = (await expectJson(await p.admin("GET", PROFILES))).items as Json[];
    expect(every.map((i) => i.team_id)).toEqual([team.id, team.id, team.id, other.id]);
  });

  it("reads one profile: own for members, others' with $read_members", async () => {
    const { p, team, alice, bob, dave, eve } = await profileSetup();
    const path = (userId: string) => `${PROFILES}/${team.id}/${userId}`;
    expect(await expectJson(await p.client(dave.token)("GET", path("me")))).toEqual(
      profile(team.id, dave.id, null, null),
    );
    expect(await expectJson(await p.client(alice.token)("GET", path(bob.id)))).toEqual(
      profile(team.id, bob.id, "Bob", PNG),
    );
    await expectKnownError(await p.client(dave.token)("GET", path(bob.id)), "TEAM_PERMISSION_REQUIRED", {
      team_id: team.id,
      user_id: dave.id,
      permission_id: "$read_members",
    });
    await expectKnownError(await p.client(eve.token)("GET", path(bob.id)), "TEAM_MEMBERSHIP_NOT_FOUND", {
      team_id: team.id,
      user_id: eve.id,
    });
    await expectKnownError(await p.client(alice.token)("GET", path(eve.id)), "TEAM_MEMBERSHIP_NOT_FOUND", {
      team_id: team.id,
      user_id: eve.id,
    });
    const viaServer = await expectJson(await p.server("GET", path(bob.id)));
    expect(viaServer).toMatchObject({
      ...profile(team.id, bob.id, "Bob", PNG),
      user: { id: bob.id, display_name: "Bob" },
    });
    await expectKnownError(await p.server("GET", path(eve.id)), "TEAM_MEMBERSHIP_NOT_FOUND");
  });

  it("updates one's own profile; the server any member's", async () => {
    const { p, team, alice, bob, eve } = await profileSetup();
    const path = (userId: string) => `${PROFILES}/${team.id}/${userId}`;
    await p.newEvents();
    expect(
      await expectJson(
        await p.client(bob.token)("PATCH", path("me"), { display_name: "Team Bob", profile_image_url: null }),
      ),
    ).toEqual(profile(team.id, bob.id, "Team Bob", PNG));
    // An empty name is no name: the user's own shows again.
    expect(await expectJson(await p.client(bob.token)("PATCH", path(bob.id), { display_name: "" }))).toEqual(
      profile(team.id, bob.id, "Bob", PNG),
    );
    await expectTextError(
      await p.client(alice.token)("PATCH", path(bob.id), { display_name: "Hi" }),
      403,
      "Client can only update their own team member profile.",
    );
    await expectKnownError(
      await p.client(eve.token)("PATCH", path("me"), { display_name: "X" }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    await expectTextError(
      await p.client(bob.token)("PATCH", path("me"), { profile_image_url: "javascript:alert(1)" }),
      400,
      "Invalid profile image URL",
    );
    await expectKnownError(
      await p.client(bob.token)("PATCH", path("me"), { display_name: "x".repeat(257) }),
      "SCHEMA_ERROR",
    );
    await expectKnownError(await p.client(bob.token)("PATCH", path("me"), { bio: "x" }), "SCHEMA_ERROR");
    const updated = await expectJson(
      await p.server("PATCH", path(alice.id), {
        display_name: "Boss",
        profile_image_url: "https://img.example/a.png",
      }),
    );
    expect(updated).toMatchObject(profile(team.id, alice.id, "Boss", "https://img.example/a.png"));
    expect(updated.user).toMatchObject({ id: alice.id, display_name: null, profile_image_url: null });
    await expectKnownError(await p.server("PATCH", path(eve.id), {}), "TEAM_MEMBERSHIP_NOT_FOUND", {
      team_id: team.id,
      user_id: eve.id,
    });
    expect(await p.newEvents()).toEqual([]);
  });
});

describe("personal teams and the selected team", () => {
  it("creates, selects and administers a personal team on password sign-up when the project says so", async () => {
    const p = await newProject({ create_team_on_sign_up: true });
    const res = await p.client()("POST", "/api/v1/auth/password/sign-up", {
      email: "founder@example.com",
      password: "correct horse battery",
    });
    const { access_token: token, user_id: userId } = (await expectJson(res)) as {
      access_token: string;
      user_id: string;
    };
    const teams = (await expectJson(await p.client(token)("GET", TEAMS))).items as Json[];
    expect(teams).toEqual([
      {
        id: expect.any(String),
        display_name: "founder@example.com's Team",
        profile_image_url: null,
        client_metadata: null,
        client_read_only_metadata: null,
      },
    ]);
    const teamId = teams[0]?.id as string;
    const me = await expectJson(await p.client(token)("GET", ME));
    expect({ id: me.selected_team_id, team: me.selected_team }).toEqual({ id: teamId, team: teams[0] });
    expect(await permissionsOf(p, teamId, userId)).toEqual(["team_admin"]);
    expect((await p.newEvents()).map((e) => e.type)).toEqual([
      "team.created",
      "team_membership.created",
      "team_permission.created",
      "user.created",
    ]);
  });

  it("selects a team of one's own through PATCH /users/me, never a foreign one", async () => {
    const p = await newProject();
    const alice = await p.user();
    const mine = await p.team("Mine", alice.id);
    const foreign = await p.team("Foreign");
    const me = await expectJson(await p.client(alice.token)("PATCH", ME, { selected_team_id: mine.id }));
    expect({ id: me.selected_team_id, team: me.selected_team }).toEqual({
      id: mine.id,
      team: clientShape(mine),
    });
    expect((await expectJson(await p.serverAs(alice.token)("GET", ME))).selected_team).toEqual(mine);
    await expectKnownError(
      await p.client(alice.token)("PATCH", ME, { selected_team_id: foreign.id }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      { team_id: foreign.id, user_id: alice.id },
    );
    expect((await expectJson(await p.client(alice.token)("GET", ME))).selected_team_id).toBe(mine.id);
  });
});
