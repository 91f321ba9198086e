// Project permission routes (Stack's `/project-permissions`, `/project-permission-definitions`): clients list their
// own, servers list, grant and revoke anyone's, admins manage the definitions.
import {
  createProjectPermissionDefinitionRoute,
  deleteProjectPermissionDefinitionRoute,
  grantProjectPermissionRoute,
  listProjectPermissionDefinitionsRoute,
  listProjectPermissionsRoute,
  revokeProjectPermissionRoute,
  updateProjectPermissionDefinitionRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import { inTransaction } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { createPermissionDefinitionService } from "../services/permission-definitions.ts";
import { projectOf } from "./auth.ts";
import { assertOwnUser } from "./own-user.ts";

export function registerProjectPermissionRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const definitions = createPermissionDefinitionService({
    teamsRepo: deps.teamsRepo,
    projectsRepo: deps.projectsRepo,
    projectGrants: deps.projectPermissionsRepo,
    clock: deps.clock,
    scope: "project",
  });

  bindRoute(app, deps, listProjectPermissionsRoute, async ({ query }, { caller }) => {
    // Stack's rule: a client must name itself (`user_id=me`); leaving it out is refused too, not widened.
    assertOwnUser(
      caller,
      query.user_id,
      'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user',
    );
    const filter = { userId: query.user_id, permissionId: query.permission_id };
    const items = await deps.projectPermissions.list(projectOf(caller).id, filter, query.recursive);
    return { items, is_paginated: false as const };
  });

  bindRoute(app, deps, grantProjectPermissionRoute, async ({ params }, { caller }) => {
    const grant = { userId: params.user_id, permissionId: params.permission_id };
    return inTransaction(deps.db, (tx) => deps.projectPermissions.grant(tx, projectOf(caller).id, grant));
  });

  bindRoute(app, deps, revokeProjectPermissionRoute, async ({ params }, { caller }) => {
    const grant = { userId: params.user_id, permissionId: params.permission_id };
    await inTransaction(deps.db, (tx) => deps.projectPermissions.revoke(tx, projectOf(caller).id, grant));
    return { success: true as const };
  });

  bindRoute(app, deps, listProjectPermissionDefinitionsRoute, async (_input, { caller }) => ({
    items: await deps.projectPermissions.listDefinitions(projectOf(caller).id),
    is_paginated: false as const,
  }));

  bindRoute(app, deps, createProjectPermissionDefinitionRoute, async ({ body }, { caller }) =>
    inTransaction(deps.db, (tx) =>
      definitions.create(tx, projectOf(caller).id, {
        id: body.id,
        description: body.description,
        containedPermissionIds: body.contained_permission_ids,
      }),
    ),
  );

  bindRoute(app, deps, updateProjectPermissionDefinitionRoute, async ({ params, body }, { caller }) =>
    inTransaction(deps.db, (tx) =>
      definitions.update(tx, projectOf(caller).id, params.permission_id, {
        id: body.id,
        description: body.description,
        containedPermissionIds: body.contained_permission_ids,
      }),
    ),
  );

  bindRoute(app, deps, deleteProjectPermissionDefinitionRoute, async ({ params }, { caller }) => {
    await inTransaction(deps.db, (tx) => definitions.delete(tx, projectOf(caller).id, params.permission_id));
    return { success: true as const };
  });
}
