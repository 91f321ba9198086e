// The current project and the per-project JSON Web Key Sets.
import {
  anonymousJwksRoute,
  getCurrentProjectRoute,
  jwksRoute,
  restrictedJwksRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { jsonResponse, textResponse } from "../http/respond.ts";
import { projectClientView } from "../services/projects.ts";

export function registerProjectRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, getCurrentProjectRoute, async (_input, { caller }) => {
    if (caller.accessType === null) throw new Error("Access check let an unauthenticated caller through");
    return projectClientView(caller.project);
  });

  bindRoute(app, deps, jwksRoute, async ({ params, query }) => {
    const project = await deps.projects.find(params.project_id);
    if (!project) return textResponse(404, "Project not found.");
    const keys = await deps.signingKeys.jwks(project.id, {
      // Anonymous tokens are restricted too, so asking for anonymous keys brings the restricted ones.
      restricted: query.include_restricted === true || query.include_anonymous === true,
      anonymous: query.include_anonymous === true,
    });
    return jsonResponse(200, { keys }, { "cache-control": "public, max-age=3600" });
  });

  const redirectTo = (projectId: string, flag: string) =>
    new Response(null, {
      status: 307,
      headers: {
        location: `/api/v1/projects/${encodeURIComponent(projectId)}/.well-known/jwks.json?${flag}=true`,
      },
    });
  bindRoute(app, deps, anonymousJwksRoute, async ({ params }) =>
    redirectTo(params.project_id, "include_anonymous"),
  );
  bindRoute(app, deps, restrictedJwksRoute, async ({ params }) =>
    redirectTo(params.project_id, "include_restricted"),
  );
}
