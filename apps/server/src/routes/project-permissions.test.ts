// Project permissions over HTTP (Stack's `/project-permissions`, `/project-permission-definitions`): definitions in
// their own scope but one id space with team ones, grants and revocations with their events, recursive listings,
// sign-up defaults, and the access matrix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import { accessHeaders, createTestServer, type TestServer, uniqueIp } from "../testing/test-server.ts";

const DEFINITIONS = "/api/v1/project-permission-definitions";
const PERMISSIONS = "/api/v1/project-permissions";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

async function setup() {
  const { keys } = await server.createProject({ displayName: "Project permissions" });
  const projectId = keys.projectId;
  const call =
    (type: "client" | "server" | "admin", token?: string) =>
    (method: string, path: string, body?: unknown) => {
      const headers: Record<string, string> = { "x-forwarded-for": uniqueIp(), ...accessHeaders(type, keys) };
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
  let seen = (await server.deps.events.list(projectId)).length;
  return {
    projectId,
    user,
    client: (token?: string) => call("client", token),
    server: call("server"),
    admin: call("admin"),
    newEvents: async () => {
      const all = await server.deps.events.list(projectId);
      const fresh = all.slice(seen).map((e) => ({ type: e.type, data: e.data }));
      seen = all.length;
      return fresh;
    },
  };
}

const items = async (res: Response) => (await expectJson(res)).items as { id: string; user_id: string }[];

describe("project permission definitions", () => {
  it("are created, listed, renamed and deleted apart from team definitions", async () => {
    const s = await setup();
    expect(await items(await s.admin("GET", DEFINITIONS))).toEqual([]);
    await expectJson(await s.admin("POST", DEFINITIONS, { id: "read" }), 201);
    const admin = await expectJson(
      await s.admin("POST", DEFINITIONS, {
        id: "admin",
        description: "All",
        contained_permission_ids: ["read"],
      }),
      201,
    );
    expect(admin).toEqual({ id: "admin", description: "All", contained_permission_ids: ["read"] });
    expect((await items(await s.admin("GET", DEFINITIONS))).map((d) => d.id)).toEqual(["admin", "read"]);
    // Team definitions do not list project ones, and the other way round.
    const team = (await items(await s.admin("GET", "/api/v1/team-permission-definitions"))).map((d) => d.id);
    expect(team).not.toContain("admin");
    expect(team).toContain("team_admin");

    const renamed = await expectJson(await s.admin("PATCH", `${DEFINITIONS}/read`, { id: "view" }));
    expect(renamed).toEqual({ id: "view", contained_permission_ids: [] });
    const list = await expectJson<{ items: unknown[] }>(await s.admin("GET", DEFINITIONS));
    expect(list.items).toContainEqual({
      id: "admin",
      description: "All",
      contained_permission_ids: ["view"],
    });
    await expectJson(await s.admin("DELETE", `${DEFINITIONS}/view`));
    expect(await items(await s.admin("GET", DEFINITIONS))).toEqual([
      { id: "admin", description: "All", contained_permission_ids: [] },
    ]);
  });

  it("share one id space with team definitions, and contain only project ones", async () => {
    const s = await setup();
    await expectKnownError(
      await s.admin("POST", DEFINITIONS, { id: "team_admin" }),
      "PERMISSION_ID_ALREADY_EXISTS",
    );
    await expectKnownError(
      await s.admin("POST", DEFINITIONS, { id: "x", contained_permission_ids: ["team_member"] }),
      "CONTAINED_PERMISSION_NOT_FOUND",
    );
    await expectKnownError(
      await s.admin("POST", DEFINITIONS, { id: "x", contained_permission_ids: ["$read_members"] }),
      "CONTAINED_PERMISSION_NOT_FOUND",
    );
    await expectJson(await s.admin("POST", DEFINITIONS, { id: "mine" }), 201);
    await expectKnownError(
      await s.admin("POST", "/api/v1/team-permission-definitions", { id: "mine" }),
      "PERMISSION_ID_ALREADY_EXISTS",
    );
    // A team definition cannot be changed or deleted through the project routes.
    await expectKnownError(await s.admin("DELETE", `${DEFINITIONS}/team_member`), "PERMISSION_NOT_FOUND");
    await expectKnownError(
      await s.admin("DELETE", "/api/v1/team-permission-definitions/mine"),
      "PERMISSION_NOT_FOUND",
    );
  });

  it("are for admins only", async () => {
    const s = await setup();
    await expectKnownError(await s.server("GET", DEFINITIONS), "INSUFFICIENT_ACCESS_TYPE");
    await expectKnownError(await s.client()("POST", DEFINITIONS, { id: "x" }), "INSUFFICIENT_ACCESS_TYPE");
  });
});

describe("project permissions", () => {
  it("are granted idempotently, listed directly or recursively, and revoked, with Stack's events", async () => {
    const s = await setup();
    const [alice, bob] = [await s.user(), await s.user()];
    await expectJson(await s.admin("POST", DEFINITIONS, { id: "read" }), 201);
    await expectJson(
      await s.admin("POST", DEFINITIONS, { id: "admin", contained_permission_ids: ["read"] }),
      201,
    );
    await s.newEvents();

    const granted = await expectJson(await s.server("POST", `${PERMISSIONS}/${alice.id}/admin`, {}), 201);
    expect(granted).toEqual({ id: "admin", user_id: alice.id });
    await expectJson(await s.server("POST", `${PERMISSIONS}/${alice.id}/admin`, {}), 201);
    expect(await s.newEvents()).toEqual([
      { type: "project_permission.created", data: { id: "admin", user_id: alice.id } },
    ]);

    expect(await items(await s.server("GET", `${PERMISSIONS}?user_id=${alice.id}`))).toEqual([
      { id: "admin", user_id: alice.id },
    ]);
    expect(
      await items(await s.client(alice.token)("GET", `${PERMISSIONS}?user_id=me&recursive=true`)),
    ).toEqual([
      { id: "admin", user_id: alice.id },
      { id: "read", user_id: alice.id },
    ]);
    expect(await items(await s.client(bob.token)("GET", `${PERMISSIONS}?user_id=me&recursive=true`))).toEqual(
      [],
    );
    expect(await items(await s.server("GET", `${PERMISSIONS}?permission_id=read&recursive=true`))).toEqual([
      { id: "read", user_id: alice.id },
    ]);

    await expectKnownError(
      await s.server("DELETE", `${PERMISSIONS}/${alice.id}/read`, {}),
      "PERMISSION_NOT_FOUND",
    );
    await expectJson(await s.server("DELETE", `${PERMISSIONS}/${alice.id}/admin`, {}));
    expect(await s.newEvents()).toEqual([
      { type: "project_permission.deleted", data: { id: "admin", user_id: alice.id } },
    ]);
    expect(await items(await s.server("GET", PERMISSIONS))).toEqual([]);
  });

  it("refuse unknown users, unknown permissions and team permissions", async () => {
    const s = await setup();
    const alice = await s.user();
    await expectJson(await s.admin("POST", DEFINITIONS, { id: "read" }), 201);
    await expectKnownError(await s.server("POST", `${PERMISSIONS}/${UNKNOWN}/read`), "USER_NOT_FOUND");
    await expectKnownError(await s.server("POST", `${PERMISSIONS}/${alice.id}/nope`), "PERMISSION_NOT_FOUND");
    await expectKnownError(
      await s.server("POST", `${PERMISSIONS}/${alice.id}/team_admin`),
      "WRONG_PERMISSION_SCOPE",
      {
        permission_id: "team_admin",
        expected_scope: "project",
        actual_scope: "team",
      },
    );
    // And a project permission is not a team permission.
    const team = (
      await expectJson(
        await s.server("POST", "/api/v1/teams", { display_name: "T", creator_user_id: alice.id }),
        201,
      )
    ).id;
    await expectKnownError(
      await s.server("POST", `/api/v1/team-permissions/${team}/${alice.id}/read`),
      "WRONG_PERMISSION_SCOPE",
      { permission_id: "read", expected_scope: "team", actual_scope: "project" },
    );
  });

  it("let clients list only their own, and not grant", async () => {
    const s = await setup();
    const [alice, bob] = [await s.user(), await s.user()];
    const refused =
      'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user';
    await expectTextError(
      await s.client(alice.token)("GET", `${PERMISSIONS}?user_id=${bob.id}`),
      403,
      refused,
    );
    await expectTextError(await s.client(alice.token)("GET", PERMISSIONS), 403, refused);
    expect(await items(await s.client(alice.token)("GET", `${PERMISSIONS}?user_id=${alice.id}`))).toEqual([]);
    await expectKnownError(
      await s.client()("GET", `${PERMISSIONS}?user_id=me`),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await expectKnownError(
      await s.client(alice.token)("POST", `${PERMISSIONS}/me/x`),
      "INSUFFICIENT_ACCESS_TYPE",
    );
  });

  it("are granted to new users from the project's sign-up defaults", async () => {
    const s = await setup();
    await expectJson(await s.admin("POST", DEFINITIONS, { id: "member" }), 201);
    await expectKnownError(
      await s.admin("PATCH", "/api/v1/projects/current", {
        config: { user_default_permissions: [{ id: "team_member" }] },
      }),
      "PERMISSION_NOT_FOUND",
    );
    await expectJson(
      await s.admin("PATCH", "/api/v1/projects/current", {
        config: { user_default_permissions: [{ id: "member" }] },
      }),
    );
    const project = await expectJson<{ config: Record<string, unknown> }>(
      await s.admin("GET", "/api/v1/projects/current"),
    );
    expect(project.config.user_default_permissions).toEqual([{ id: "member" }]);
    const carol = await s.user();
    expect(await items(await s.client(carol.token)("GET", `${PERMISSIONS}?user_id=me`))).toEqual([
      { id: "member", user_id: carol.id },
    ]);
    // A rename follows into the defaults.
    await expectJson(await s.admin("PATCH", `${DEFINITIONS}/member`, { id: "user" }));
    const after = await expectJson<{ config: Record<string, unknown> }>(
      await s.admin("GET", "/api/v1/projects/current"),
    );
    expect(after.config.user_default_permissions).toEqual([{ id: "user" }]);
  });
});
