// Project routes (WIRE.md §4.13, §8): the current project (read, configure, delete; also under `/internal`, where
// the SDK's admin app calls them), the projects a dashboard user owns, and the per-project JSON Web Key Sets (§3.2).
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { listOf, queryBoolean, successSchema } from "../schemas/common.ts";
import { jwksSchema } from "../schemas/jwks.ts";
import {
  projectAdminViewSchema,
  projectClientViewSchema,
  projectCreateBodySchema,
  projectUpdateBodySchema,
  projectViewSchema,
} from "../schemas/projects.ts";

const ANY_ACCESS = ["client", "server", "admin"] as const;
const ADMIN = ["admin"] as const;
const TAG = "Projects";

export const getCurrentProjectRoute = defineRoute({
  method: "GET",
  path: "/api/v1/projects/current",
  access: ANY_ACCESS,
  summary: "The current project: the admin view for admin callers, the client view for the others",
  tag: TAG,
  response: { status: 200, kind: "json", schema: projectViewSchema, clientSchema: projectClientViewSchema },
});

export const updateCurrentProjectRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/projects/current",
  access: ADMIN,
  summary: "Changes the current project's name, description, production mode and configuration",
  tag: TAG,
  body: projectUpdateBodySchema,
  response: { status: 200, kind: "json", schema: projectAdminViewSchema },
});

export const deleteCurrentProjectRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/projects/current",
  access: ADMIN,
  summary: "Deletes the current project and all its data",
  tag: TAG,
  response: { status: 200, kind: "json", schema: successSchema },
});

export const getInternalCurrentProjectRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/projects/current",
  access: ADMIN,
  summary: "The current project's admin view (the admin app's path)",
  tag: TAG,
  response: { status: 200, kind: "json", schema: projectAdminViewSchema },
});

export const updateInternalCurrentProjectRoute = defineRoute({
  ...updateCurrentProjectRoute,
  path: "/api/v1/internal/projects/current",
  summary: "Changes the current project (the admin app's path)",
});

export const deleteInternalCurrentProjectRoute = defineRoute({
  ...deleteCurrentProjectRoute,
  path: "/api/v1/internal/projects/current",
  summary: "Deletes the current project and all its data (the admin app's path)",
});

export const listOwnedProjectsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/projects",
  access: ANY_ACCESS,
  user: "required",
  summary: "The projects owned by the teams the signed-in dashboard user belongs to",
  tag: TAG,
  response: { status: 200, kind: "json", schema: listOf(projectAdminViewSchema) },
});

export const createOwnedProjectRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/projects",
  access: ANY_ACCESS,
  user: "required",
  summary: "Creates a project owned by one of the signed-in dashboard user's teams",
  tag: TAG,
  body: projectCreateBodySchema,
  response: { status: 201, kind: "json", schema: projectAdminViewSchema },
});

const projectIdParams = z.strictObject({ project_id: z.string().min(1).max(64) });

export const jwksRoute = defineRoute({
  method: "GET",
  path: "/api/v1/projects/{project_id}/.well-known/jwks.json",
  access: "none",
  summary: "The project's token signing keys",
  tag: "Tokens",
  params: projectIdParams,
  query: z.strictObject({
    include_restricted: queryBoolean.optional(),
    include_anonymous: queryBoolean.optional(),
  }),
  response: { status: 200, kind: "json", schema: jwksSchema },
});

export const anonymousJwksRoute = defineRoute({
  method: "GET",
  path: "/api/v1/projects-anonymous-users/{project_id}/.well-known/jwks.json",
  access: "none",
  summary: "Redirects to the JWKS including anonymous and restricted keys",
  tag: "Tokens",
  params: projectIdParams,
  response: { status: 307, kind: "redirect", description: "to `…/jwks.json?include_anonymous=true`" },
});

export const restrictedJwksRoute = defineRoute({
  method: "GET",
  path: "/api/v1/projects-restricted-users/{project_id}/.well-known/jwks.json",
  access: "none",
  summary: "Redirects to the JWKS including restricted keys",
  tag: "Tokens",
  params: projectIdParams,
  response: { status: 307, kind: "redirect", description: "to `…/jwks.json?include_restricted=true`" },
});

/** The project routes, in the order the API reference lists them. */
export const projectRoutes = [
  getCurrentProjectRoute,
  updateCurrentProjectRoute,
  deleteCurrentProjectRoute,
  getInternalCurrentProjectRoute,
  updateInternalCurrentProjectRoute,
  deleteInternalCurrentProjectRoute,
  listOwnedProjectsRoute,
  createOwnedProjectRoute,
  jwksRoute,
  anonymousJwksRoute,
  restrictedJwksRoute,
] as const;
