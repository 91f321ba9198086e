// Migration 0017's data step: projects made before SSO get $manage_sso in their full-admin team_admin, so their team
// admins can manage SSO and SCIM like those of new projects; a narrowed team_admin and the internal project's stay.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationStatement } from "../testing/migration-step.ts";
import { createTestServer, type TestServer } from "../testing/test-server.ts";
import { permissionDefinitions } from "./schema.ts";

const OLD_ADMIN = [
  "$update_team",
  "$delete_team",
  "$read_members",
  "$remove_members",
  "$invite_members",
  "$manage_api_keys",
];

/** The migration's UPDATE. */
const dataStep = migrationStatement("0017_scim.sql", 'UPDATE "permission_definitions"');

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const adminOf = async (projectId: string) => {
  const [row] = await server.deps.db
    .select()
    .from(permissionDefinitions)
    .where(and(eq(permissionDefinitions.projectId, projectId), eq(permissionDefinitions.id, "team_admin")));
  return row?.containedPermissionIds;
};
const setAdmin = (projectId: string, ids: string[]) =>
  server.deps.db
    .update(permissionDefinitions)
    .set({ containedPermissionIds: ids })
    .where(and(eq(permissionDefinitions.projectId, projectId), eq(permissionDefinitions.id, "team_admin")));

describe("migration 0017: $manage_sso for existing projects", () => {
  it("adds it to a pre-SSO full-admin team_admin, once, and leaves a narrowed one and the internal project", async () => {
    expect(dataStep).toBeDefined();
    const old = (await server.createProject({ displayName: "Made before SSO" })).keys.projectId;
    const narrowed = (await server.createProject({ displayName: "Narrowed admin" })).keys.projectId;
    const fresh = (await server.createProject({ displayName: "New" })).keys.projectId;
    expect(await adminOf(fresh)).toContain("$manage_sso");
    await setAdmin(old, OLD_ADMIN);
    await setAdmin(narrowed, ["$read_members", "$update_team"]);
    const internalBefore = await adminOf("internal");

    await server.deps.db.execute(sql.raw(dataStep ?? ""));
    await server.deps.db.execute(sql.raw(dataStep ?? ""));

    expect(await adminOf(old)).toEqual([...OLD_ADMIN, "$manage_sso"]);
    expect(await adminOf(narrowed)).toEqual(["$read_members", "$update_team"]);
    expect((await adminOf(fresh))?.filter((id) => id === "$manage_sso")).toHaveLength(1);
    expect(await adminOf("internal")).toEqual(internalBefore);
  });
});
