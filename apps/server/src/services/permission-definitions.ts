// Custom permission definitions of one scope (team: WIRE.md §4.12 definition rows, §6; project: Stack's
// `/project-permission-definitions`): create, change, rename and delete. Each change runs in the caller's transaction
// together with everything that names the definition: other definitions' contained lists, direct grants and, for a
// rename, the project's default permission lists. Both scopes share one id space, as in Stack.
import { KnownErrors, type ProjectConfig } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import type { ProjectPermissionsRepo } from "../db/project-permissions-repo.ts";
import type { ProjectsRepo } from "../db/projects-repo.ts";
import type { DefinitionRow, DefinitionScope, TeamsRepo } from "../db/teams-repo.ts";
import { TextError } from "../text-error.ts";
import { isSystemPermission, type PermissionDefinition, toWireDefinition } from "./permissions.ts";

export type NewDefinition = { id: string; description?: string; containedPermissionIds?: string[] };
export type DefinitionChanges = { id?: string; description?: string; containedPermissionIds?: string[] };

/** System (`$…`) permissions are built in: they cannot be created, changed, renamed to or deleted. */
function refuseSystem(id: string): void {
  if (id.startsWith("$")) throw new TextError(400, "System permissions cannot be modified.");
}

const unique = (ids: string[]) => [...new Set(ids)];

/** Contained ids must be ids in `defined`, or system permissions (team scope only: they are team permissions). */
function checkContained(ids: string[], defined: ReadonlySet<string>, scope: DefinitionScope): void {
  for (const id of ids) {
    if (!(scope === "team" && isSystemPermission(id)) && !defined.has(id)) {
      throw KnownErrors.CONTAINED_PERMISSION_NOT_FOUND({ permission_id: id });
    }
  }
}

/** The definition a path names, among the project's locked definitions. */
function findTarget(rows: DefinitionRow[], id: string): DefinitionRow {
  refuseSystem(id);
  const row = rows.find((r) => r.id === id);
  if (!row) throw KnownErrors.PERMISSION_NOT_FOUND({ permission_id: id });
  return row;
}

type DefaultList = ProjectConfig["team_member_default_permissions"];

/** The project's default permission lists that name definitions of each scope. */
const DEFAULT_LISTS = {
  team: ["team_creator_default_permissions", "team_member_default_permissions"],
  project: ["user_default_permissions"],
} as const satisfies Record<DefinitionScope, readonly (keyof ProjectConfig)[]>;

/** A default permission list with `from` renamed to `to`, each id once. */
const renameInDefaults = (list: DefaultList, from: string, to: string): DefaultList =>
  unique(list.map((p) => (p.id === from ? to : p.id))).map((id) => ({ id }));

export function createPermissionDefinitionService(deps: {
  teamsRepo: TeamsRepo;
  projectsRepo: ProjectsRepo;
  projectGrants: ProjectPermissionsRepo;
  clock: Clock;
  /** The scope this service manages; team unless told. */
  scope?: DefinitionScope;
}) {
  const { teamsRepo, projectsRepo, projectGrants, scope = "team" } = deps;
  const grants = scope === "team" ? teamsRepo : projectGrants;
  const ofScope = (rows: DefinitionRow[]) => rows.filter((r) => r.scope === scope);

  /** Every other definition's contained list, rewritten by `rewrite` where it names `id`. */
  async function rewriteContainedLists(
    tx: Db,
    projectId: string,
    others: DefinitionRow[],
    id: string,
    rewrite: (ids: string[]) => string[],
  ): Promise<void> {
    for (const row of others) {
      if (!row.containedPermissionIds.includes(id)) continue;
      await teamsRepo.updateDefinition(tx, projectId, row.id, {
        containedPermissionIds: rewrite(row.containedPermissionIds),
      });
    }
  }

  /** Everything that names the definition `from` now names `to`: contained lists, direct grants, default lists. */
  async function renameReferences(
    tx: Db,
    projectId: string,
    others: DefinitionRow[],
    from: string,
    to: string,
  ) {
    const rename = (ids: string[]) => unique(ids.map((id) => (id === from ? to : id)));
    await rewriteContainedLists(tx, projectId, others, from, rename);
    await grants.renameGrants(tx, projectId, from, to);
    const project = await projectsRepo.find(projectId, tx);
    if (!project) throw new Error(`No project ${projectId}`);
    const config = { ...project.config };
    const lists = DEFAULT_LISTS[scope];
    // Configurations stored before a list existed lack it: absent means empty.
    if (!lists.some((key) => (config[key] ?? []).some((p) => p.id === from))) return;
    for (const key of lists) config[key] = renameInDefaults(config[key] ?? [], from, to);
    await projectsRepo.updateConfig(tx, projectId, config);
  }

  return {
    async create(tx: Db, projectId: string, input: NewDefinition): Promise<PermissionDefinition> {
      refuseSystem(input.id);
      const rows = await teamsRepo.lockDefinitions(tx, projectId);
      // One id space for both scopes: a team definition's id is taken for project definitions too.
      if (rows.some((r) => r.id === input.id)) {
        throw KnownErrors.PERMISSION_ID_ALREADY_EXISTS({ permission_id: input.id });
      }
      const contained = unique(input.containedPermissionIds ?? []);
      // A definition may contain itself: cycles are tolerated (WIRE.md §6).
      checkContained(contained, new Set([...ofScope(rows).map((r) => r.id), input.id]), scope);
      const row = {
        projectId,
        id: input.id,
        scope,
        description: input.description ?? null,
        containedPermissionIds: contained,
        createdAt: deps.clock.now(),
      };
      // A concurrent create of the same id may have won since the lock (no row to lock then).
      if (!(await teamsRepo.insertDefinition(tx, row))) {
        throw KnownErrors.PERMISSION_ID_ALREADY_EXISTS({ permission_id: input.id });
      }
      return toWireDefinition(row);
    },

    /** Changes description and contained ids; a new `id` renames the definition everywhere it is named. */
    async update(
      tx: Db,
      projectId: string,
      id: string,
      changes: DefinitionChanges,
    ): Promise<PermissionDefinition> {
      const rows = await teamsRepo.lockDefinitions(tx, projectId);
      const current = findTarget(ofScope(rows), id);
      const newId = changes.id ?? id;
      refuseSystem(newId);
      if (newId !== id && rows.some((r) => r.id === newId)) {
        throw KnownErrors.PERMISSION_ID_ALREADY_EXISTS({ permission_id: newId });
      }
      const others = ofScope(rows).filter((r) => r.id !== id);
      // Ids as they are after the rename: the old id no longer exists, the new one does.
      const contained = changes.containedPermissionIds && unique(changes.containedPermissionIds);
      if (contained) checkContained(contained, new Set([...others.map((r) => r.id), newId]), scope);
      const updated = await teamsRepo.updateDefinition(tx, projectId, id, {
        id: newId,
        description: changes.description ?? current.description,
        containedPermissionIds:
          contained ?? unique(current.containedPermissionIds.map((c) => (c === id ? newId : c))),
      });
      if (!updated) throw KnownErrors.PERMISSION_NOT_FOUND({ permission_id: id });
      if (newId !== id) await renameReferences(tx, projectId, others, id, newId);
      return toWireDefinition(updated);
    },

    /** Deletes the definition, its place in other definitions and every direct grant of it (no events). */
    async delete(tx: Db, projectId: string, id: string): Promise<void> {
      const rows = ofScope(await teamsRepo.lockDefinitions(tx, projectId));
      findTarget(rows, id);
      await teamsRepo.deleteDefinition(tx, projectId, id);
      const others = rows.filter((r) => r.id !== id);
      await rewriteContainedLists(tx, projectId, others, id, (ids) => ids.filter((c) => c !== id));
      await grants.deleteGrantsOf(tx, projectId, id);
    },
  };
}

export type PermissionDefinitionService = ReturnType<typeof createPermissionDefinitionService>;
