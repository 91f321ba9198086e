// Project routes (WIRE.md §4.13) and the per-project JSON Web Key Sets (§3.2).
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { queryBoolean } from "../schemas/common.ts";
import { jwksSchema } from "../schemas/jwks.ts";
import { projectClientViewSchema } from "../schemas/projects.ts";

export const getCurrentProjectRoute = defineRoute({
  method: "GET",
  path: "/api/v1/projects/current",
  access: ["client", "server", "admin"],
  summary: "The current project as the caller may see it",
  tag: "Projects",
  response: { status: 200, kind: "json", schema: projectClientViewSchema },
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
  jwksRoute,
  anonymousJwksRoute,
  restrictedJwksRoute,
] as const;
