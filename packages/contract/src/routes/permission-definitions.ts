// Team permission definition routes (WIRE.md §4.12 definition rows, §6): admin callers list the system and custom
// definitions of their project and create, change, rename and delete the custom ones.
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";
import { listOf, successSchema } from "../schemas/common.ts";
import { permissionDefinitionSchema, permissionIdSchema } from "../schemas/teams.ts";

const ADMIN_ACCESS = ["admin"] as const;

/**
 * A definition id in a body: a custom id, or a system (`$…`) id, which passes validation so that the server can
 * refuse it with WIRE.md's text `System permissions cannot be modified.`
 */
const definitionIdSchema = z
  .string()
  .max(256)
  .refine((id) => id.startsWith("$") || permissionIdSchema.safeParse(id).success, "must match ^[a-z0-9_:]+$");

/** Any permission id, system or custom; an unknown one is a CONTAINED_PERMISSION_NOT_FOUND, not a schema error. */
const containedIdsSchema = z.array(z.string().min(1).max(256));

const definitionCreateSchema = z.strictObject({
  id: definitionIdSchema,
  description: z.string().optional(),
  contained_permission_ids: containedIdsSchema.optional(),
});

const definitionUpdateSchema = z
  .strictObject({
    id: definitionIdSchema.optional(),
    description: z.string().optional(),
    contained_permission_ids: containedIdsSchema.optional(),
  })
  .default({});

const definitionParams = z.strictObject({ permission_id: z.string().min(1).max(256) });

/**
 * Stack's admin SDK pages through the definitions (listTeamPermissionDefinitionsPaginated): with `limit`, a page in
 * id order after the id `cursor`, `query` matching ids and descriptions (case-insensitive); without, every one.
 */
const definitionPageQuery = z.strictObject({
  limit: z
    .string()
    .regex(/^[0-9]+$/, "must be an integer")
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .optional(),
  cursor: z.string().max(256).optional(),
  query: z.string().max(256).optional(),
});

export const listPermissionDefinitionsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/team-permission-definitions",
  access: ADMIN_ACCESS,
  summary:
    "Lists the project's team permission definitions, system ones included, sorted by id (a page with `limit`)",
  tag: "Team permission definitions",
  query: definitionPageQuery,
  response: {
    status: 200,
    kind: "json",
    schema: z.union([
      listOf(permissionDefinitionSchema),
      z.object({
        items: z.array(permissionDefinitionSchema),
        is_paginated: z.literal(true),
        pagination: z.object({ next_cursor: z.string().nullable() }),
      }),
    ]),
  },
});

export const createPermissionDefinitionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/team-permission-definitions",
  access: ADMIN_ACCESS,
  summary: "Creates a custom team permission definition",
  tag: "Team permission definitions",
  body: definitionCreateSchema,
  response: { status: 201, kind: "json", schema: permissionDefinitionSchema },
});

export const updatePermissionDefinitionRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/team-permission-definitions/{permission_id}",
  access: ADMIN_ACCESS,
  summary: "Changes a custom definition; a new `id` renames it everywhere it is used",
  tag: "Team permission definitions",
  params: definitionParams,
  body: definitionUpdateSchema,
  response: { status: 200, kind: "json", schema: permissionDefinitionSchema },
});

export const deletePermissionDefinitionRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/team-permission-definitions/{permission_id}",
  access: ADMIN_ACCESS,
  summary: "Deletes a custom definition, its direct grants and its place in other definitions",
  tag: "Team permission definitions",
  params: definitionParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

/** The permission definition routes, in the order the API reference lists them. */
export const permissionDefinitionRoutes = [
  listPermissionDefinitionsRoute,
  createPermissionDefinitionRoute,
  updatePermissionDefinitionRoute,
  deletePermissionDefinitionRoute,
] as const satisfies readonly RouteDefinition[];
