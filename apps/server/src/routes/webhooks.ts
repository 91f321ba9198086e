// Webhook routes (WIRE.md §4.16): the management token, and the management API. The management routes are declared
// with access `any` because a Bearer token alone must do; they are authorised here: admin headers, or a live token.
import {
  createWebhookEndpointRoute,
  createWebhookTokenRoute,
  deleteWebhookEndpointRoute,
  getWebhookEndpointRoute,
  getWebhookSecretRoute,
  KnownErrors,
  listWebhookAttemptsRoute,
  listWebhookEndpointsRoute,
  listWebhookEventTypesRoute,
  rotateWebhookSecretRoute,
  testWebhookEndpointRoute,
  updateWebhookEndpointRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute, type HandlerContext } from "../http/bind.ts";
import { jsonResponse } from "../http/respond.ts";
import type { Project } from "../services/projects.ts";
import { TextError } from "../text-error.ts";
import { projectOf } from "./auth.ts";

const INVALID_TOKEN = "Invalid or expired webhook management token.";

const bearerToken = (request: Request) =>
  request.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];

/**
 * The project a management request acts on. With an access type, it must be admin (the headers were checked when
 * the caller was resolved); without one, the request needs a live management token.
 */
async function managedProject({ caller, request, deps }: HandlerContext): Promise<Project> {
  if (caller.accessType !== null) {
    if (caller.accessType !== "admin") {
      throw KnownErrors.INSUFFICIENT_ACCESS_TYPE({
        actual_access_type: caller.accessType,
        allowed_access_types: ["admin"],
      });
    }
    return caller.project;
  }
  const token = bearerToken(request);
  const projectId = token && deps.webhooks.projectOfToken(token);
  const project = projectId ? await deps.projects.find(projectId) : undefined;
  if (!project) throw new TextError(401, INVALID_TOKEN);
  return project;
}

export function registerWebhookRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, createWebhookTokenRoute, async (_input, { caller }) =>
    jsonResponse(201, deps.webhooks.issueToken(projectOf(caller).id)),
  );

  bindRoute(app, deps, listWebhookEventTypesRoute, async (_input, ctx) => {
    await managedProject(ctx);
    return { items: deps.webhooks.eventTypes(), is_paginated: false as const };
  });

  bindRoute(app, deps, listWebhookEndpointsRoute, async (_input, ctx) => ({
    items: await deps.webhooks.list(await managedProject(ctx)),
    is_paginated: false as const,
  }));

  bindRoute(app, deps, createWebhookEndpointRoute, async ({ body }, ctx) =>
    jsonResponse(201, await deps.webhooks.create(await managedProject(ctx), body)),
  );

  bindRoute(app, deps, getWebhookEndpointRoute, async ({ params }, ctx) =>
    deps.webhooks.get(await managedProject(ctx), params.endpoint_id),
  );

  bindRoute(app, deps, updateWebhookEndpointRoute, async ({ params, body }, ctx) =>
    deps.webhooks.update(await managedProject(ctx), params.endpoint_id, body),
  );

  bindRoute(app, deps, deleteWebhookEndpointRoute, async ({ params }, ctx) => {
    await deps.webhooks.delete(await managedProject(ctx), params.endpoint_id);
    return { success: true as const };
  });

  bindRoute(app, deps, getWebhookSecretRoute, async ({ params }, ctx) =>
    deps.webhooks.secret(await managedProject(ctx), params.endpoint_id),
  );

  bindRoute(app, deps, rotateWebhookSecretRoute, async ({ params }, ctx) =>
    deps.webhooks.rotateSecret(await managedProject(ctx), params.endpoint_id),
  );

  bindRoute(app, deps, listWebhookAttemptsRoute, async ({ params }, ctx) => ({
    items: await deps.webhooks.attempts(await managedProject(ctx), params.endpoint_id),
    is_paginated: false as const,
  }));

  bindRoute(app, deps, testWebhookEndpointRoute, async ({ params }, ctx) =>
    deps.webhooks.test(await managedProject(ctx), params.endpoint_id),
  );
}
