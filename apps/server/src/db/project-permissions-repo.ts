// Direct grants of project permissions (`project_permission_grants`): permissions a user holds outside any team.
// Contained permissions are expanded by the service when read, never stored.
import { and, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { projectPermissionGrants } from "./schema.ts";

export type ProjectGrantKey = { userId: string; permissionId: string };

const grantColumns = {
  userId: projectPermissionGrants.userId,
  permissionId: projectPermissionGrants.permissionId,
};

export function createProjectPermissionsRepo(db: Db) {
  return {
    /** Inserts the grants that do not exist yet; returns the ones that were new. */
    async insertGrants(
      tx: Db,
      projectId: string,
      grants: ProjectGrantKey[],
      createdAt: Date,
    ): Promise<ProjectGrantKey[]> {
      if (grants.length === 0) return [];
      return tx
        .insert(projectPermissionGrants)
        .values(grants.map((g) => ({ ...g, projectId, createdAt })))
        .onConflictDoNothing()
        .returning(grantColumns);
    },

    async deleteGrant(tx: Db, projectId: string, grant: ProjectGrantKey): Promise<boolean> {
      const deleted = await tx
        .delete(projectPermissionGrants)
        .where(
          and(
            eq(projectPermissionGrants.projectId, projectId),
            eq(projectPermissionGrants.userId, grant.userId),
            eq(projectPermissionGrants.permissionId, grant.permissionId),
          ),
        )
        .returning(grantColumns);
      return deleted.length > 0;
    },

    /** Direct grants of the project, or of one user (unordered: the service sorts in the wire's order). */
    listGrants(projectId: string, userId?: string, executor: Db = db): Promise<ProjectGrantKey[]> {
      return executor
        .select(grantColumns)
        .from(projectPermissionGrants)
        .where(
          and(
            eq(projectPermissionGrants.projectId, projectId),
            userId === undefined ? undefined : eq(projectPermissionGrants.userId, userId),
          ),
        );
    },

    /** Moves every direct grant of a permission to another id (a definition's rename). */
    async renameGrants(tx: Db, projectId: string, from: string, to: string): Promise<void> {
      await tx
        .update(projectPermissionGrants)
        .set({ permissionId: to })
        .where(
          and(
            eq(projectPermissionGrants.projectId, projectId),
            eq(projectPermissionGrants.permissionId, from),
          ),
        );
    },

    /** Deletes every direct grant of a permission (a definition's deletion; no events, as in Stack). */
    async deleteGrantsOf(tx: Db, projectId: string, permissionId: string): Promise<void> {
      await tx
        .delete(projectPermissionGrants)
        .where(
          and(
            eq(projectPermissionGrants.projectId, projectId),
            eq(projectPermissionGrants.permissionId, permissionId),
          ),
        );
    },
  };
}

export type ProjectPermissionsRepo = ReturnType<typeof createProjectPermissionsRepo>;
