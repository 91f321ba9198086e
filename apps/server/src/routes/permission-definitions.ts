// Team permission definition routes (WIRE.md §4.12 definition rows, §6): admin callers list the project's
// definitions (system ones included) and create, change, rename and delete the custom ones.
import {
  createPermissionDefinitionRoute,
  deletePermissionDefinitionRoute,
  listPermissionDefinitionsRoute,
  updatePermissionDefinitionRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import { inTransaction } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { createPermissionDefinitionService } from "../services/permission-definitions.ts";
import { projectOf } from "./auth.ts";

export function registerPermissionDefinitionRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const definitions = createPermissionDefinitionService({
    teamsRepo: deps.teamsRepo,
    projectsRepo: deps.projectsRepo,
    projectGrants: deps.projectPermissionsRepo,
    clock: deps.clock,
  });

  bindRoute(app, deps, listPermissionDefinitionsRoute, async ({ query }, { caller }) => {
    const all = await deps.permissions.listDefinitions(projectOf(caller).id);
    if (query.limit === undefined && query.query === undefined && query.cursor === undefined)
      return { items: all, is_paginated: false as const };
    // A project has tens of definitions: paging the list in memory is enough. Sorted here by code unit so that the
    // cursor comparison below agrees with the order whatever the database's collation.
    const needle = query.query?.toLowerCase();
    const byId = [...all].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const matching = byId.filter(
      (d) =>
        (query.cursor === undefined || d.id > query.cursor) &&
        (!needle || d.id.toLowerCase().includes(needle) || d.description?.toLowerCase().includes(needle)),
    );
    const items = matching.slice(0, query.limit ?? matching.length);
    const more = items.length < matching.length;
    return {
      items,
      is_paginated: true as const,
      pagination: { next_cursor: more ? (items.at(-1)?.id ?? null) : null },
    };
  });

  bindRoute(app, deps, createPermissionDefinitionRoute, async ({ body }, { caller }) =>
    inTransaction(deps.db, (tx) =>
      definitions.create(tx, projectOf(caller).id, {
        id: body.id,
        description: body.description,
        containedPermissionIds: body.contained_permission_ids,
      }),
    ),
  );

  bindRoute(app, deps, updatePermissionDefinitionRoute, async ({ params, body }, { caller }) =>
    inTransaction(deps.db, (tx) =>
      definitions.update(tx, projectOf(caller).id, params.permission_id, {
        id: body.id,
        description: body.description,
        containedPermissionIds: body.contained_permission_ids,
      }),
    ),
  );

  bindRoute(app, deps, deletePermissionDefinitionRoute, async ({ params }, { caller }) => {
    await inTransaction(deps.db, (tx) => definitions.delete(tx, projectOf(caller).id, params.permission_id));
    return { success: true as const };
  });
}
