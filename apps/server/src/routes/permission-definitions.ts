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

  bindRoute(app, deps, listPermissionDefinitionsRoute, async (_input, { caller }) => ({
    items: await deps.permissions.listDefinitions(projectOf(caller).id),
    is_paginated: false as const,
  }));

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
