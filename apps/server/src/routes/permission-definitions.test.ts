// Team permission definitions over HTTP (WIRE.md §4.12 definition rows, §6): listing with the system permissions,
// create, change, rename (grants, contained lists and default lists follow) and delete (grants and contained
// entries go, default lists stay), cycles, validation, other projects, and the access matrix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import type { NewProject } from "../services/projects.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type TestServer,
  uniqueEmail,
  uniqueIp,
} from "../testing/test-server.ts";

const DEFINITIONS = "/api/v1/team-permission-definitions";
const PERMISSIONS = "/api/v1/team-permissions";
const SYSTEM_REFUSED = "System permissions cannot be modified.";

const SYSTEM = [
  { id: "$delete_team", description: "Delete the team", contained_permission_ids: [] },
  { id: "$invite_members", description: "Invite other users to the team", contained_permission_ids: [] },
  {
    id: "$manage_api_keys",
    description: "Create and manage API keys for the team",
    contained_permission_ids: [],
  },
  {
    id: "$manage_sso",
    description: "Manage the team's single sign-on connections and domains",
    contained_permission_ids: [],
  },
  {
    id: "$read_members",
    description: "Read and list the other members of the team",
    contained_permission_ids: [],
  },
  { id: "$remove_members", description: "Remove other members from the team", contained_permission_ids: [] },
  { id: "$update_team", description: "Update the team information", contained_permission_ids: [] },
];
const TEAM_ADMIN = {
  id: "team_admin",
  description: "Default permission for team admins",
  contained_permission_ids: [
    "$update_team",
    "$delete_team",
    "$read_members",
    "$remove_members",
    "$invite_members",
    "$manage_api_keys",
    "$manage_sso",
  ],
};
const TEAM_MEMBER = {
  id: "team_member",
  description: "Default permission for team members",
  contained_permission_ids: ["$read_members", "$invite_members"],
};

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

type Json = Record<string, unknown>;
type Definition = { id: string; description?: string; contained_permission_ids: string[] };
type Grant = { id: string; team_id: string; user_id: string };

function send(headers: Record<string, string>, method: string, path: string, body?: unknown) {
  const all: Record<string, string> = { "x-forwarded-for": uniqueIp(), ...headers };
  if (body !== undefined) all["content-type"] = "application/json";
  return server.request(path, {
    method,
    headers: all,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A project (its default lists as given) with callers for each access type. */
async function setup(config: NewProject["config"] = {}) {
  const { keys } = await server.createProject({ displayName: "Definitions", config });
  const projectId = keys.projectId;
  const as = (type: "client" | "server" | "admin" | null) => (method: string, path: string, body?: unknown) =>
    send(type ? accessHeaders(type, keys) : {}, method, path, body);
  const admin = as("admin");
  const srv = as("server");
  const user = async () => (await server.signIn(projectId)).userId;
  const definitions = async () => (await expectJson(await admin("GET", DEFINITIONS))).items as Definition[];
  return {
    projectId,
    keys,
    admin,
    server: srv,
    as,
    user,
    definitions,
    /** The ids of the project's own definitions, in the listing's order. */
    customIds: async () => (await definitions()).map((d) => d.id).filter((id) => !id.startsWith("$")),
    create: async (definition: Json) => expectJson(await admin("POST", DEFINITIONS, definition), 201),
    /** A team created by a new user (creator defaults), with `members` more users added (member defaults). */
    team: async (members = 0) => {
      const creator = await user();
      const team = (
        await expectJson(
          await srv("POST", "/api/v1/teams", { display_name: "T", creator_user_id: creator }),
          201,
        )
      ).id as string;
      const others: string[] = [];
      for (let i = 0; i < members; i++) others.push(await join(team));
      return { team, creator, members: others };
    },
    join: (team: string) => join(team),
    /** The permission ids a member holds, direct grants only or expanded. */
    held: async (team: string, userId: string, recursive = false) => {
      const res = await srv("GET", `${PERMISSIONS}?team_id=${team}&user_id=${userId}&recursive=${recursive}`);
      return ((await expectJson(res)).items as Grant[]).map((g) => g.id);
    },
    config: async () => (await server.deps.projects.find(projectId))?.config,
  };

  async function join(team: string) {
    const member = await user();
    await expectJson(await srv("POST", `/api/v1/team-memberships/${team}/${member}`), 201);
    return member;
  }
}

describe("GET /team-permission-definitions", () => {
  it("lists the system permissions and the project's definitions, sorted by id", async () => {
    const s = await setup();
    expect(await expectJson(await s.admin("GET", DEFINITIONS))).toEqual({
      items: [...SYSTEM, TEAM_ADMIN, TEAM_MEMBER],
      is_paginated: false,
    });
    await s.create({ id: "a:b", contained_permission_ids: [] });
    await s.create({ id: "zeta", description: "Last", contained_permission_ids: ["a:b"] });
    await s.create({ id: "0_first" });
    expect(await s.definitions()).toEqual([
      ...SYSTEM,
      { id: "0_first", contained_permission_ids: [] },
      { id: "a:b", contained_permission_ids: [] },
      TEAM_ADMIN,
      TEAM_MEMBER,
      { id: "zeta", description: "Last", contained_permission_ids: ["a:b"] },
    ]);
    await expectKnownError(await s.admin("GET", `${DEFINITIONS}?recursive=true`), "SCHEMA_ERROR");
  });

  it("shows only the caller's project", async () => {
    const s = await setup();
    const other = await setup();
    await s.create({ id: "mine" });
    expect(await other.customIds()).toEqual(["team_admin", "team_member"]);
    await expectKnownError(await other.admin("PATCH", `${DEFINITIONS}/mine`, {}), "PERMISSION_NOT_FOUND", {
      permission_id: "mine",
    });
    await expectKnownError(await other.admin("DELETE", `${DEFINITIONS}/mine`), "PERMISSION_NOT_FOUND");
    expect(await s.customIds()).toEqual(["mine", "team_admin", "team_member"]);
  });
});

describe("POST /team-permission-definitions", () => {
  it("creates a definition (201) containing system and custom permissions, each once", async () => {
    const s = await setup();
    const created = await expectJson(
      await s.admin("POST", DEFINITIONS, {
        id: "billing:read",
        description: "Read billing",
        contained_permission_ids: ["$read_members", "team_member", "$read_members"],
      }),
      201,
    );
    expect(created).toEqual({
      id: "billing:read",
      description: "Read billing",
      contained_permission_ids: ["$read_members", "team_member"],
    });
    expect(await s.create({ id: "bare" })).toEqual({ id: "bare", contained_permission_ids: [] });
    // A definition may contain itself.
    expect(await s.create({ id: "self", contained_permission_ids: ["self", "bare"] })).toEqual({
      id: "self",
      contained_permission_ids: ["self", "bare"],
    });
    const listed = await s.definitions();
    expect(listed.find((d) => d.id === "billing:read")).toEqual(created);
    expect(await s.customIds()).toEqual(["bare", "billing:read", "self", "team_admin", "team_member"]);
  });

  it("refuses system ids, taken ids and unknown contained ids", async () => {
    const s = await setup();
    await expectTextError(await s.admin("POST", DEFINITIONS, { id: "$read_members" }), 400, SYSTEM_REFUSED);
    await expectTextError(await s.admin("POST", DEFINITIONS, { id: "$custom" }), 400, SYSTEM_REFUSED);
    await expectKnownError(
      await s.admin("POST", DEFINITIONS, { id: "team_admin", contained_permission_ids: [] }),
      "PERMISSION_ID_ALREADY_EXISTS",
      { permission_id: "team_admin" },
    );
    await expectKnownError(
      await s.admin("POST", DEFINITIONS, {
        id: "fresh",
        contained_permission_ids: ["$read_members", "nope"],
      }),
      "CONTAINED_PERMISSION_NOT_FOUND",
      { permission_id: "nope" },
    );
    // Names of Object.prototype are not system permissions.
    for (const name of ["constructor", "__proto__", "$constructor"]) {
      await expectKnownError(
        await s.admin("POST", DEFINITIONS, { id: "fresh", contained_permission_ids: [name] }),
        "CONTAINED_PERMISSION_NOT_FOUND",
        { permission_id: name },
      );
    }
    expect(await s.customIds()).toEqual(["team_admin", "team_member"]);
    // As custom ids they are fine.
    await s.create({ id: "constructor" });
    await s.create({ id: "holder", contained_permission_ids: ["constructor"] });
    expect(await s.customIds()).toEqual(["constructor", "holder", "team_admin", "team_member"]);
  });

  it("validates the body", async () => {
    const s = await setup();
    const bad = await expectKnownError(await s.admin("POST", DEFINITIONS, { id: "Bad Id" }), "SCHEMA_ERROR");
    expect(bad.message).toBe(
      "Request validation failed on POST /api/v1/team-permission-definitions:\n  - body.id: must match ^[a-z0-9_:]+$",
    );
    for (const body of [
      {},
      { id: "" },
      { id: "ok", extra: 1 },
      { id: 5 },
      { id: "x".repeat(257) },
      { id: "ok", description: 5 },
      { id: "ok", contained_permission_ids: "team_member" },
      { id: "ok", contained_permission_ids: [5] },
      { id: "ok", contained_permission_ids: [""] },
    ]) {
      await expectKnownError(await s.admin("POST", DEFINITIONS, body), "SCHEMA_ERROR");
    }
    const missing = await expectKnownError(await s.admin("POST", DEFINITIONS), "SCHEMA_ERROR");
    expect(missing.message).toContain("  - body must be defined");
    expect(await s.customIds()).toEqual(["team_admin", "team_member"]);
  });
});

describe("PATCH /team-permission-definitions/{permission_id}", () => {
  it("changes the description and the contained permissions", async () => {
    const s = await setup();
    await s.create({ id: "editor", description: "Edits", contained_permission_ids: ["$update_team"] });
    const path = `${DEFINITIONS}/editor`;
    expect(await expectJson(await s.admin("PATCH", path, { description: "Edits things" }))).toEqual({
      id: "editor",
      description: "Edits things",
      contained_permission_ids: ["$update_team"],
    });
    const changed = await expectJson(
      await s.admin("PATCH", path, { contained_permission_ids: ["team_member", "editor", "team_member"] }),
    );
    expect(changed).toEqual({
      id: "editor",
      description: "Edits things",
      contained_permission_ids: ["team_member", "editor"],
    });
    expect(await expectJson(await s.admin("PATCH", path, {}))).toEqual(changed);
    expect(await expectJson(await s.admin("PATCH", path))).toEqual(changed);
    expect(await expectJson(await s.admin("PATCH", path, { id: "editor" }))).toEqual(changed);
    expect((await s.definitions()).find((d) => d.id === "editor")).toEqual(changed);
  });

  it("refuses system and unknown definitions, taken and system new ids, and unknown contained ids", async () => {
    const s = await setup();
    await s.create({ id: "editor", contained_permission_ids: ["$update_team"] });
    await expectTextError(await s.admin("PATCH", `${DEFINITIONS}/$update_team`, {}), 400, SYSTEM_REFUSED);
    await expectTextError(
      await s.admin("PATCH", `${DEFINITIONS}/$update_team`, { description: "x" }),
      400,
      SYSTEM_REFUSED,
    );
    await expectKnownError(await s.admin("PATCH", `${DEFINITIONS}/nope`, {}), "PERMISSION_NOT_FOUND", {
      permission_id: "nope",
    });
    const path = `${DEFINITIONS}/editor`;
    await expectTextError(await s.admin("PATCH", path, { id: "$update_team" }), 400, SYSTEM_REFUSED);
    await expectTextError(await s.admin("PATCH", path, { id: "$editor" }), 400, SYSTEM_REFUSED);
    await expectKnownError(
      await s.admin("PATCH", path, { id: "team_member" }),
      "PERMISSION_ID_ALREADY_EXISTS",
      {
        permission_id: "team_member",
      },
    );
    await expectKnownError(
      await s.admin("PATCH", path, { contained_permission_ids: ["ghost"] }),
      "CONTAINED_PERMISSION_NOT_FOUND",
      { permission_id: "ghost" },
    );
    // After a rename the old id no longer exists.
    await expectKnownError(
      await s.admin("PATCH", path, { id: "writer", contained_permission_ids: ["editor"] }),
      "CONTAINED_PERMISSION_NOT_FOUND",
      { permission_id: "editor" },
    );
    for (const body of [{ id: "Bad" }, { id: 1 }, { description: null }, { contained: [] }]) {
      await expectKnownError(await s.admin("PATCH", path, body), "SCHEMA_ERROR");
    }
    await expectKnownError(await s.admin("PATCH", `${DEFINITIONS}/${"x".repeat(257)}`, {}), "SCHEMA_ERROR");
    expect(await s.customIds()).toEqual(["editor", "team_admin", "team_member"]);
    expect((await s.definitions()).find((d) => d.id === "editor")).toEqual({
      id: "editor",
      contained_permission_ids: ["$update_team"],
    });
  });

  it("renames: grants move, contained and default lists are rewritten, new members get the new id", async () => {
    const s = await setup({
      team_creator_default_permissions: [{ id: "team_admin" }, { id: "editor" }],
      team_member_default_permissions: [{ id: "editor" }],
    });
    await s.create({ id: "editor", description: "Edits", contained_permission_ids: ["$update_team"] });
    await s.create({ id: "reviewer", contained_permission_ids: ["editor", "$read_members"] });
    await s.create({ id: "untouched", contained_permission_ids: ["$read_members"] });
    const { team, creator, members } = await s.team(1);
    const bob = members[0] as string;
    await expectJson(await s.server("POST", `${PERMISSIONS}/${team}/${bob}/reviewer`), 201);
    expect(await s.held(team, bob)).toEqual(["editor", "reviewer"]);
    const events = (await server.deps.events.list(s.projectId)).length;

    const renamed = await expectJson(
      await s.admin("PATCH", `${DEFINITIONS}/editor`, { id: "writer", description: "Writes" }),
    );
    expect((await server.deps.events.list(s.projectId)).length).toBe(events);
    expect(renamed).toEqual({
      id: "writer",
      description: "Writes",
      contained_permission_ids: ["$update_team"],
    });
    expect(await s.definitions()).toEqual([
      ...SYSTEM,
      { id: "reviewer", contained_permission_ids: ["writer", "$read_members"] },
      TEAM_ADMIN,
      TEAM_MEMBER,
      { id: "untouched", contained_permission_ids: ["$read_members"] },
      renamed,
    ]);
    expect(await s.held(team, bob)).toEqual(["reviewer", "writer"]);
    expect(await s.held(team, bob, true)).toEqual(["$read_members", "$update_team", "reviewer", "writer"]);
    expect(await s.held(team, creator)).toEqual(["team_admin", "writer"]);
    const recursive = await expectJson(
      await s.server("GET", `${PERMISSIONS}?recursive=true&permission_id=writer`),
    );
    expect((recursive.items as Grant[]).map((g) => g.user_id).sort()).toEqual([bob, creator].sort());
    const config = await s.config();
    expect(config?.team_creator_default_permissions).toEqual([{ id: "team_admin" }, { id: "writer" }]);
    expect(config?.team_member_default_permissions).toEqual([{ id: "writer" }]);
    const carol = await s.join(team);
    expect(await s.held(team, carol)).toEqual(["writer"]);
    const other = await s.team();
    expect(await s.held(other.team, other.creator)).toEqual(["team_admin", "writer"]);
    // The old id is gone everywhere.
    await expectKnownError(await s.admin("PATCH", `${DEFINITIONS}/editor`, {}), "PERMISSION_NOT_FOUND");
    await expectKnownError(
      await s.server("POST", `${PERMISSIONS}/${team}/${bob}/editor`),
      "PERMISSION_NOT_FOUND",
    );
    const fresh = await expectJson(
      await s.server("GET", `${PERMISSIONS}?recursive=true&permission_id=editor`),
    );
    expect(fresh.items).toEqual([]);
  });

  it("renames a definition that contains itself, and leaves default lists without it alone", async () => {
    const s = await setup();
    await s.create({ id: "loop", contained_permission_ids: ["loop", "$delete_team"] });
    const before = await s.config();
    expect(await expectJson(await s.admin("PATCH", `${DEFINITIONS}/loop`, { id: "ring" }))).toEqual({
      id: "ring",
      contained_permission_ids: ["ring", "$delete_team"],
    });
    expect(await s.config()).toEqual(before);
    // Renaming a default definition rewrites the default list that names it.
    await expectJson(await s.admin("PATCH", `${DEFINITIONS}/team_member`, { id: "member" }));
    const config = await s.config();
    expect(config?.team_member_default_permissions).toEqual([{ id: "member" }]);
    expect(config?.team_creator_default_permissions).toEqual([{ id: "team_admin" }]);
  });
});

describe("DELETE /team-permission-definitions/{permission_id}", () => {
  it("removes the definition from contained lists and deletes its grants without events; defaults stay", async () => {
    const s = await setup({ team_member_default_permissions: [{ id: "team_member" }, { id: "editor" }] });
    await s.create({ id: "editor", contained_permission_ids: ["$update_team"] });
    await s.create({ id: "reviewer", contained_permission_ids: ["editor", "$read_members", "editor"] });
    const { team, members } = await s.team(1);
    const bob = members[0] as string;
    await expectJson(await s.server("POST", `${PERMISSIONS}/${team}/${bob}/reviewer`), 201);
    expect(await s.held(team, bob)).toEqual(["editor", "reviewer", "team_member"]);
    const events = (await server.deps.events.list(s.projectId)).length;

    expect(await expectJson(await s.admin("DELETE", `${DEFINITIONS}/editor`))).toEqual({ success: true });
    expect(await s.customIds()).toEqual(["reviewer", "team_admin", "team_member"]);
    expect((await s.definitions()).find((d) => d.id === "reviewer")).toEqual({
      id: "reviewer",
      contained_permission_ids: ["$read_members"],
    });
    expect(await s.held(team, bob)).toEqual(["reviewer", "team_member"]);
    expect(await s.held(team, bob, true)).toEqual([
      "$invite_members",
      "$read_members",
      "reviewer",
      "team_member",
    ]);
    expect((await server.deps.events.list(s.projectId)).length).toBe(events);
    expect((await s.config())?.team_member_default_permissions).toEqual([
      { id: "team_member" },
      { id: "editor" },
    ]);
    // Defaults naming a deleted definition are skipped; a new definition of that id is granted again.
    expect(await s.held(team, await s.join(team))).toEqual(["team_member"]);
    await s.create({ id: "editor" });
    expect(await s.held(team, await s.join(team))).toEqual(["editor", "team_member"]);
    // The re-created definition starts without the old grants.
    expect(await s.held(team, bob)).toEqual(["reviewer", "team_member"]);
  });

  it("refuses system and unknown definitions and bodies other than {}", async () => {
    const s = await setup();
    await s.create({ id: "editor" });
    await expectTextError(await s.admin("DELETE", `${DEFINITIONS}/$read_members`), 400, SYSTEM_REFUSED);
    await expectKnownError(await s.admin("DELETE", `${DEFINITIONS}/nope`), "PERMISSION_NOT_FOUND", {
      permission_id: "nope",
    });
    await expectKnownError(
      await s.admin("DELETE", `${DEFINITIONS}/editor`, { id: "editor" }),
      "SCHEMA_ERROR",
    );
    expect(await expectJson(await s.admin("DELETE", `${DEFINITIONS}/editor`, {}))).toEqual({ success: true });
    await expectKnownError(await s.admin("DELETE", `${DEFINITIONS}/editor`, {}), "PERMISSION_NOT_FOUND");
    expect((await s.definitions()).map((d) => d.id)).toEqual([
      ...SYSTEM.map((d) => d.id),
      "team_admin",
      "team_member",
    ]);
  });
});

describe("cycles", () => {
  it("expands definitions that contain each other, and enforcement follows them", async () => {
    const s = await setup();
    await s.create({ id: "a", contained_permission_ids: ["$remove_members"] });
    await s.create({ id: "b", contained_permission_ids: ["a", "$update_team"] });
    await expectJson(
      await s.admin("PATCH", `${DEFINITIONS}/a`, { contained_permission_ids: ["$remove_members", "b"] }),
    );
    const { team } = await s.team();
    const signedIn = await server.signIn(s.projectId);
    const bob = signedIn.userId;
    await expectJson(await s.server("POST", `/api/v1/team-memberships/${team}/${bob}`), 201);
    const rename = () =>
      send(
        { ...accessHeaders("client", s.keys), "x-stack-access-token": signedIn.accessToken },
        "PATCH",
        `/api/v1/teams/${team}`,
        { display_name: "Renamed" },
      );
    await expectKnownError(await rename(), "TEAM_PERMISSION_REQUIRED", {
      team_id: team,
      user_id: bob,
      permission_id: "$update_team",
    });
    await expectJson(await s.server("POST", `${PERMISSIONS}/${team}/${bob}/a`), 201);
    expect(await s.held(team, bob, true)).toEqual([
      "$invite_members",
      "$read_members",
      "$remove_members",
      "$update_team",
      "a",
      "b",
      "team_member",
    ]);
    await expectJson(await s.server("DELETE", `${PERMISSIONS}/${team}/${bob}/team_member`));
    expect(await s.held(team, bob, true)).toEqual(["$remove_members", "$update_team", "a", "b"]);
    expect((await expectJson(await rename())).display_name).toBe("Renamed");
    // Renaming one end of the cycle keeps it closed.
    await expectJson(await s.admin("PATCH", `${DEFINITIONS}/b`, { id: "c" }));
    expect((await s.definitions()).filter((d) => ["a", "c"].includes(d.id))).toEqual([
      { id: "a", contained_permission_ids: ["$remove_members", "c"] },
      { id: "c", contained_permission_ids: ["a", "$update_team"] },
    ]);
    expect(await s.held(team, bob, true)).toEqual(["$remove_members", "$update_team", "a", "c"]);
    // Deleting it opens the cycle.
    await expectJson(await s.admin("DELETE", `${DEFINITIONS}/c`));
    expect(await s.held(team, bob, true)).toEqual(["$remove_members", "a"]);
  });
});

describe("access", () => {
  it("is for admin callers only: the admin key or an admin access token of an owner-team member", async () => {
    const s = await setup();
    await s.create({ id: "editor" });
    const calls: [string, string, unknown?][] = [
      ["GET", DEFINITIONS],
      ["POST", DEFINITIONS, { id: "other" }],
      ["PATCH", `${DEFINITIONS}/editor`, { description: "x" }],
      ["DELETE", `${DEFINITIONS}/editor`],
    ];
    for (const [method, path, body] of calls) {
      for (const type of ["client", "server"] as const) {
        await expectKnownError(await s.as(type)(method, path, body), "INSUFFICIENT_ACCESS_TYPE", {
          actual_access_type: type,
          allowed_access_types: ["admin"],
        });
      }
      await expectKnownError(await s.as(null)(method, path, body), "ACCESS_TYPE_REQUIRED");
    }
    expect(await s.customIds()).toEqual(["editor", "team_admin", "team_member"]);

    const internal = await server.deps.projects.find("internal");
    if (!internal) throw new Error("no internal project");
    const owner = await server.signIn("internal", { email: uniqueEmail("owner") });
    await inTransaction(server.deps.db, async (tx) => {
      const team = await server.deps.teams.create(tx, internal, { displayName: "Owners" }, owner.userId);
      await server.deps.projectsRepo.setOwnerTeam(tx, s.projectId, team.id);
    });
    const byOwner = (method: string, path: string, body?: unknown) =>
      send(
        {
          "x-stack-access-type": "admin",
          "x-stack-project-id": s.projectId,
          "x-stack-admin-access-token": owner.accessToken,
        },
        method,
        path,
        body,
      );
    expect(await expectJson(await byOwner("POST", DEFINITIONS, { id: "other" }), 201)).toEqual({
      id: "other",
      contained_permission_ids: [],
    });
    expect(await expectJson(await byOwner("PATCH", `${DEFINITIONS}/editor`, { description: "x" }))).toEqual({
      id: "editor",
      description: "x",
      contained_permission_ids: [],
    });
    expect(await expectJson(await byOwner("DELETE", `${DEFINITIONS}/editor`))).toEqual({ success: true });
    const listed = (await expectJson(await byOwner("GET", DEFINITIONS))).items as Definition[];
    expect(listed.map((d) => d.id).filter((id) => !id.startsWith("$"))).toEqual([
      "other",
      "team_admin",
      "team_member",
    ]);
  });
});
