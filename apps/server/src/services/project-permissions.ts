// Project permissions (Stack's `/project-permissions`): permissions a user holds outside any team. Direct grants are
// stored; `recursive` listings add everything their definitions contain. Grants and revocations record Stack's
// `project_permission.created` / `.deleted` events; new users get the project's sign-up defaults silently, as in Stack.
import { KnownErrors } from "@gatehouse/contract";
import type { AuditLog } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import type { ProjectGrantKey, ProjectPermissionsRepo } from "../db/project-permissions-repo.ts";
import type { TeamsRepo } from "../db/teams-repo.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import type { WebhookEvent, WebhookEvents } from "../webhooks/events.ts";
import { type DefinitionMap, expandPermissions, toDefinitionMap, toWireDefinition } from "./permissions.ts";
import type { Project } from "./projects.ts";

export type ProjectPermission = { id: string; user_id: string };

const toWire = (g: ProjectGrantKey): ProjectPermission => ({ id: g.permissionId, user_id: g.userId });

/** Plain code-unit order, whatever the database's collation. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const grantEvent = (type: "project_permission.created" | "project_permission.deleted", g: ProjectGrantKey) =>
  ({ type, data: toWire(g) }) satisfies WebhookEvent;

export function createProjectPermissionService(deps: {
  teamsRepo: TeamsRepo;
  grants: ProjectPermissionsRepo;
  usersRepo: UsersRepo;
  events: WebhookEvents;
  clock: Clock;
  audit: AuditLog;
}) {
  const { teamsRepo, grants, events } = deps;

  const definitionMap = async (projectId: string, executor?: Db): Promise<DefinitionMap> =>
    toDefinitionMap(await teamsRepo.listDefinitions(projectId, executor, "project"));

  /** The permission must be a project definition: a team one is Stack's WRONG_PERMISSION_SCOPE. */
  async function assertProjectDefinition(tx: Db, projectId: string, permissionId: string): Promise<void> {
    const scope = await teamsRepo.definitionScope(tx, projectId, permissionId);
    if (scope === "project") return;
    if (scope === undefined && !permissionId.startsWith("$")) {
      throw KnownErrors.PERMISSION_NOT_FOUND({ permission_id: permissionId });
    }
    // Team system permissions (`$…`) exist only in the team scope.
    throw KnownErrors.WRONG_PERMISSION_SCOPE({
      permission_id: permissionId,
      expected_scope: "project",
      actual_scope: "team",
    });
  }

  return {
    async listDefinitions(projectId: string) {
      return (await teamsRepo.listDefinitions(projectId, undefined, "project")).map(toWireDefinition);
    },

    /**
     * Permissions as `GET /project-permissions` lists them, in user then permission order: direct grants, or with
     * `recursive` everything they contain. Grants of deleted definitions are skipped; the permission filter applies
     * after expansion, so it asks "does the user hold this?".
     */
    async list(
      projectId: string,
      filter: { userId?: string; permissionId?: string },
      recursive: boolean,
    ): Promise<ProjectPermission[]> {
      const [direct, definitions] = await Promise.all([
        grants.listGrants(projectId, filter.userId),
        definitionMap(projectId),
      ]);
      const byUser = new Map<string, string[]>();
      for (const g of direct) byUser.set(g.userId, [...(byUser.get(g.userId) ?? []), g.permissionId]);
      const held = [...byUser].flatMap(([userId, ids]) =>
        (recursive ? expandPermissions(ids, definitions) : ids.filter((id) => definitions.has(id))).map(
          (id) => ({ id, user_id: userId }),
        ),
      );
      return held
        .filter((p) => filter.permissionId === undefined || p.id === filter.permissionId)
        .sort((a, b) => byCodeUnits(a.user_id, b.user_id) || byCodeUnits(a.id, b.id));
    },

    /** A direct grant; idempotent (the event fires only when the grant is new). */
    async grant(tx: Db, projectId: string, grant: ProjectGrantKey): Promise<ProjectPermission> {
      if (!(await deps.usersRepo.find(projectId, grant.userId, tx))) throw KnownErrors.USER_NOT_FOUND();
      await assertProjectDefinition(tx, projectId, grant.permissionId);
      const granted = await grants.insertGrants(tx, projectId, [grant], deps.clock.now());
      await events.record(tx, projectId, ...granted.map((g) => grantEvent("project_permission.created", g)));
      await deps.audit.record(
        tx,
        projectId,
        ...granted.map(() => ({
          type: "permission.granted" as const,
          target: { type: "user", id: grant.userId },
          details: { scope: "project", permission_id: grant.permissionId },
        })),
      );
      return toWire(grant);
    },

    /** Revokes a direct grant; one the user does not hold directly is PERMISSION_NOT_FOUND, as in Stack. */
    async revoke(tx: Db, projectId: string, grant: ProjectGrantKey): Promise<void> {
      if (!(await grants.deleteGrant(tx, projectId, grant))) {
        throw KnownErrors.PERMISSION_NOT_FOUND({ permission_id: grant.permissionId });
      }
      await events.record(tx, projectId, grantEvent("project_permission.deleted", grant));
      await deps.audit.record(tx, projectId, {
        type: "permission.revoked",
        target: { type: "user", id: grant.userId },
        details: { scope: "project", permission_id: grant.permissionId },
      });
    },

    /**
     * A new user's sign-up defaults (`user_default_permissions`), in the creating transaction. Ids that no longer
     * name a project definition are skipped, so a stale default never blocks sign-ups.
     */
    async grantDefaults(tx: Db, project: Project, userId: string): Promise<void> {
      const ids = (project.config.user_default_permissions ?? []).map((p) => p.id);
      if (ids.length === 0) return;
      const defined = new Set(await teamsRepo.existingDefinitionIds(tx, project.id, ids, "project"));
      const keys = ids.filter((id) => defined.has(id)).map((permissionId) => ({ userId, permissionId }));
      await grants.insertGrants(tx, project.id, keys, deps.clock.now());
    },
  };
}

export type ProjectPermissionService = ReturnType<typeof createProjectPermissionService>;
