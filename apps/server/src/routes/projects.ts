// Project routes (WIRE.md §4.13, §8): the current project (read, configure, delete, also under `/internal`), the
// projects a dashboard user owns and creates, and the per-project JSON Web Key Sets (§3.2).
import {
  anonymousJwksRoute,
  createOwnedProjectRoute,
  deleteCurrentProjectRoute,
  deleteInternalCurrentProjectRoute,
  getCurrentProjectRoute,
  getInternalCurrentProjectRoute,
  jwksRoute,
  KnownErrors,
  listOwnedProjectsRoute,
  type ProjectUpdateBody,
  restrictedJwksRoute,
  updateCurrentProjectRoute,
  updateInternalCurrentProjectRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller } from "../http/caller.ts";
import { jsonResponse, textResponse } from "../http/respond.ts";
import { projectClientView } from "../services/project-settings.ts";
import type { ProjectSettings } from "../services/projects.ts";
import { INTERNAL_PROJECT_ID } from "../services/seed.ts";
import { projectOf, userOf } from "./auth.ts";

const settingsOf = (body: ProjectUpdateBody): ProjectSettings => ({
  displayName: body.display_name,
  description: body.description,
  isProductionMode: body.is_production_mode,
  logos: {
    logo_url: body.logo_url,
    logo_full_url: body.logo_full_url,
    logo_dark_mode_url: body.logo_dark_mode_url,
    logo_full_dark_mode_url: body.logo_full_dark_mode_url,
  },
  config: body.config,
});

/** `/internal/projects` serves the dashboard's own users only (WIRE.md §8). */
function dashboardUser(caller: Caller) {
  if (projectOf(caller).id !== INTERNAL_PROJECT_ID) throw KnownErrors.EXPECTED_INTERNAL_PROJECT();
  return userOf(caller);
}

export function registerProjectRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, getCurrentProjectRoute, async (_input, { caller }) => {
    const project = projectOf(caller);
    return caller.accessType === "admin" ? deps.projects.adminView(project) : projectClientView(project);
  });
  bindRoute(app, deps, getInternalCurrentProjectRoute, async (_input, { caller }) =>
    deps.projects.adminView(projectOf(caller)),
  );

  for (const route of [updateCurrentProjectRoute, updateInternalCurrentProjectRoute]) {
    bindRoute(app, deps, route, async ({ body }, { caller }) =>
      deps.projects.adminView(await deps.projects.update(projectOf(caller).id, settingsOf(body))),
    );
  }

  for (const route of [deleteCurrentProjectRoute, deleteInternalCurrentProjectRoute]) {
    bindRoute(app, deps, route, async (_input, { caller }) => {
      await deps.projects.delete(projectOf(caller).id);
      return { success: true } as const;
    });
  }

  bindRoute(app, deps, listOwnedProjectsRoute, async (_input, { caller }) => ({
    items: await deps.projects.listOwnedBy(dashboardUser(caller).id),
    is_paginated: false as const,
  }));

  bindRoute(app, deps, createOwnedProjectRoute, async ({ body }, { caller }) => {
    const user = dashboardUser(caller);
    if (!(await deps.teamsRepo.findMember(body.owner_team_id, user.id))) {
      throw KnownErrors.TEAM_MEMBERSHIP_NOT_FOUND({ team_id: body.owner_team_id, user_id: user.id });
    }
    const project = await deps.projects.createOwned(body.owner_team_id, {
      ...settingsOf(body),
      displayName: body.display_name,
    });
    return deps.projects.adminView(project);
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
