// The team permission model (WIRE.md §6): system permissions, project definitions, expansion of direct grants, and
// the enforcement check that client callers pass through.
import { KnownErrors } from "@gatehouse/contract";
import type { Db } from "../db/client.ts";
import type { DefinitionRow, DefinitionScope, GrantKey, TeamsRepo } from "../db/teams-repo.ts";

export const SYSTEM_PERMISSIONS = {
  $update_team: "Update the team information",
  $delete_team: "Delete the team",
  $read_members: "Read and list the other members of the team",
  $remove_members: "Remove other members from the team",
  $invite_members: "Invite other users to the team",
  $manage_api_keys: "Create and manage API keys for the team",
  /** [GO] The team's SSO connections and domains (apps/server/src/sso/). */
  $manage_sso: "Manage the team's single sign-on connections and domains",
} as const;

export type SystemPermissionId = keyof typeof SYSTEM_PERMISSIONS;
/** Own keys only: `constructor` or `__proto__` are valid custom ids, not system permissions. */
export const isSystemPermission = (id: string): id is SystemPermissionId =>
  Object.hasOwn(SYSTEM_PERMISSIONS, id);

export type PermissionDefinition = { id: string; description?: string; contained_permission_ids: string[] };

/** The definitions every new project starts with. */
export const DEFAULT_PERMISSION_DEFINITIONS: PermissionDefinition[] = [
  {
    id: "team_member",
    description: "Default permission for team members",
    contained_permission_ids: ["$read_members", "$invite_members"],
  },
  {
    id: "team_admin",
    description: "Default permission for team admins",
    contained_permission_ids: Object.keys(SYSTEM_PERMISSIONS),
  },
];

/** A stored definition as the wire shows it: `description` omitted when there is none. */
export const toWireDefinition = (row: DefinitionRow): PermissionDefinition => ({
  id: row.id,
  ...(row.description === null ? {} : { description: row.description }),
  contained_permission_ids: row.containedPermissionIds,
});

/** Project definitions by id, for expansion. */
export type DefinitionMap = ReadonlyMap<string, readonly string[]>;

export const toDefinitionMap = (rows: DefinitionRow[]): DefinitionMap =>
  new Map(rows.map((r) => [r.id, r.containedPermissionIds]));

/**
 * Direct grants plus everything reachable through contained permissions, depth-first, each id once. Cycles end at
 * ids already seen; grants of deleted definitions (neither system nor defined) are skipped.
 */
export function expandPermissions(direct: Iterable<string>, definitions: DefinitionMap): string[] {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    if (!isSystemPermission(id) && !definitions.has(id)) return;
    seen.add(id);
    for (const contained of definitions.get(id) ?? []) visit(contained);
  };
  for (const id of direct) visit(id);
  return [...seen];
}

export type GrantFilter = { teamId?: string; userId?: string; permissionId?: string };

/** Plain code-unit order: ids sort the same whatever the database's collation (`$…` before letters). */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The wire's order of team permissions: team id, user id, permission id. */
const compareGrants = (a: GrantKey, b: GrantKey) =>
  byCodeUnits(a.teamId, b.teamId) ||
  byCodeUnits(a.userId, b.userId) ||
  byCodeUnits(a.permissionId, b.permissionId);

/** Each member's direct grants replaced by their expansion (one member's grants at a time). */
function expandGrants(direct: GrantKey[], definitions: DefinitionMap): GrantKey[] {
  const byMember = new Map<string, { teamId: string; userId: string; ids: string[] }>();
  for (const g of direct) {
    const key = `${g.teamId}/${g.userId}`;
    const member = byMember.get(key) ?? { teamId: g.teamId, userId: g.userId, ids: [] };
    member.ids.push(g.permissionId);
    byMember.set(key, member);
  }
  return [...byMember.values()].flatMap(({ teamId, userId, ids }) =>
    expandPermissions(ids, definitions).map((permissionId) => ({ teamId, userId, permissionId })),
  );
}

export function createPermissionService(deps: { teamsRepo: TeamsRepo }) {
  const { teamsRepo } = deps;
  return {
    /** Every definition of the project, system ones first, as the wire shows them. */
    async listDefinitions(projectId: string): Promise<PermissionDefinition[]> {
      const system = Object.entries(SYSTEM_PERMISSIONS).map(([id, description]) => ({
        id,
        description,
        contained_permission_ids: [],
      }));
      const custom = (await teamsRepo.listDefinitions(projectId)).map(toWireDefinition);
      return [...system, ...custom].sort((a, b) => byCodeUnits(a.id, b.id));
    },

    async definitionMap(
      projectId: string,
      executor?: Db,
      scope: DefinitionScope = "team",
    ): Promise<DefinitionMap> {
      return toDefinitionMap(await teamsRepo.listDefinitions(projectId, executor, scope));
    },

    /** Inserts the default definitions of a new project. */
    async createDefaults(
      tx: Db,
      projectId: string,
      definitions = DEFAULT_PERMISSION_DEFINITIONS,
      now = new Date(),
    ) {
      await teamsRepo.insertDefinitions(
        tx,
        definitions.map((d) => ({
          projectId,
          id: d.id,
          description: d.description ?? null,
          containedPermissionIds: d.contained_permission_ids,
          createdAt: now,
        })),
      );
    },

    /**
     * Team permissions as `GET /team-permissions` lists them: direct grants, or with `recursive` everything they
     * contain; the permission filter applies after expansion, so it asks "does the member hold this?".
     */
    async listGrants(projectId: string, filter: GrantFilter, recursive: boolean): Promise<GrantKey[]> {
      const direct = await teamsRepo.listGrants(projectId, filter);
      const grants = recursive ? expandGrants(direct, await this.definitionMap(projectId)) : direct;
      return grants
        .filter((g) => filter.permissionId === undefined || g.permissionId === filter.permissionId)
        .sort(compareGrants);
    },

    /**
     * The check of every enforcement point: the user must be a member (`TEAM_MEMBERSHIP_NOT_FOUND`) holding each
     * named permission, directly or through contained ones (`TEAM_PERMISSION_REQUIRED`).
     */
    async require(
      projectId: string,
      teamId: string,
      userId: string,
      required: readonly SystemPermissionId[],
    ): Promise<void> {
      const membership = await teamsRepo.membership(teamId, userId);
      if (!membership) throw KnownErrors.TEAM_MEMBERSHIP_NOT_FOUND({ team_id: teamId, user_id: userId });
      if (required.length === 0) return;
      const held = new Set(expandPermissions(membership.permissionIds, await this.definitionMap(projectId)));
      for (const permission of required) {
        if (!held.has(permission)) {
          throw KnownErrors.TEAM_PERMISSION_REQUIRED({
            team_id: teamId,
            user_id: userId,
            permission_id: permission,
          });
        }
      }
    },
  };
}

export type PermissionService = ReturnType<typeof createPermissionService>;
