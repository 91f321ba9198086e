// Project permission routes (Stack's `/project-permissions` and `/project-permission-definitions`): permissions a user
// holds outside any team, the grants server callers make, and the definitions admins manage.
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";
import { listOf, queryBoolean, successSchema, userIdOrMe } from "../schemas/common.ts";
import { permissionDefinitionSchema, permissionIdSchema } from "../schemas/teams.ts";

const ANY_ACCESS = ["client", "server", "admin"] as const;
const SERVER_ACCESS = ["server", "admin"] as const;
const ADMIN_ACCESS = ["admin"] as const;

export const projectPermissionSchema = z
  .object({ id: z.string(), user_id: z.uuid() })
  .meta({ id: "ProjectPermission" });

export type ProjectPermission = z.output<typeof projectPermissionSchema>;

/** Stack's permission id: lowercase, digits, `_` and `:`, with a leading `$` for system ones. */
const anyPermissionIdSchema = z
  .string()
  .max(256)
  .regex(/^\$?[a-z0-9_:]+$/, "must match ^\\$?[a-z0-9_:]+$");

const grantParams = z.strictObject({ user_id: userIdOrMe, permission_id: anyPermissionIdSchema });

const definitionBody = {
  description: z.string().optional(),
  contained_permission_ids: z.array(z.string().min(1).max(256)).optional(),
};

export const listProjectPermissionsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/project-permissions",
  access: ANY_ACCESS,
  summary:
    "Lists project permissions, direct grants only unless `recursive=true` (clients: `user_id=me` only)",
  tag: "Project permissions",
  query: z.strictObject({
    user_id: userIdOrMe.optional(),
    permission_id: anyPermissionIdSchema.optional(),
    recursive: queryBoolean.default(false),
  }),
  response: { status: 200, kind: "json", schema: listOf(projectPermissionSchema) },
});

export const grantProjectPermissionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/project-permissions/{user_id}/{permission_id}",
  access: SERVER_ACCESS,
  summary: "Grants a project permission to a user directly (idempotent)",
  tag: "Project permissions",
  params: grantParams,
  response: { status: 201, kind: "json", schema: projectPermissionSchema },
});

export const revokeProjectPermissionRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/project-permissions/{user_id}/{permission_id}",
  access: SERVER_ACCESS,
  summary: "Revokes a direct project permission grant",
  tag: "Project permissions",
  params: grantParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

export const listProjectPermissionDefinitionsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/project-permission-definitions",
  access: ADMIN_ACCESS,
  summary: "Lists the project's project permission definitions, sorted by id",
  tag: "Project permission definitions",
  response: { status: 200, kind: "json", schema: listOf(permissionDefinitionSchema) },
});

export const createProjectPermissionDefinitionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/project-permission-definitions",
  access: ADMIN_ACCESS,
  summary: "Creates a project permission definition (ids are shared with team definitions)",
  tag: "Project permission definitions",
  body: z.strictObject({ id: permissionIdSchema, ...definitionBody }),
  response: { status: 201, kind: "json", schema: permissionDefinitionSchema },
});

export const updateProjectPermissionDefinitionRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/project-permission-definitions/{permission_id}",
  access: ADMIN_ACCESS,
  summary: "Changes a project permission definition; a new `id` renames it everywhere it is used",
  tag: "Project permission definitions",
  params: z.strictObject({ permission_id: z.string().min(1).max(256) }),
  body: z.strictObject({ id: permissionIdSchema.optional(), ...definitionBody }).default({}),
  response: { status: 200, kind: "json", schema: permissionDefinitionSchema },
});

export const deleteProjectPermissionDefinitionRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/project-permission-definitions/{permission_id}",
  access: ADMIN_ACCESS,
  summary: "Deletes a project permission definition, its direct grants and its place in other definitions",
  tag: "Project permission definitions",
  params: z.strictObject({ permission_id: z.string().min(1).max(256) }),
  response: { status: 200, kind: "json", schema: successSchema },
});

/** The project permission routes, in the order the API reference lists them. */
export const projectPermissionRoutes = [
  listProjectPermissionsRoute,
  grantProjectPermissionRoute,
  revokeProjectPermissionRoute,
  listProjectPermissionDefinitionsRoute,
  createProjectPermissionDefinitionRoute,
  updateProjectPermissionDefinitionRoute,
  deleteProjectPermissionDefinitionRoute,
] as const satisfies readonly RouteDefinition[];
