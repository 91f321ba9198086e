// [GO] Gatehouse as an OpenID Provider: the protocol endpoints of each project (mounted oidc-provider), the admin API
// for OAuth clients, and the consent step and granted apps for the signed-in user. Thin over oidc-provider/.
import {
  acceptOidcInteractionRoute,
  createOidcClientRoute,
  deleteOidcClientRoute,
  denyOidcInteractionRoute,
  getOidcClientRoute,
  getOidcInteractionRoute,
  listOidcClientsRoute,
  listOwnOidcGrantsRoute,
  revokeOwnOidcGrantRoute,
  updateOidcClientRoute,
} from "@gatehouse/contract";
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { textResponse } from "../http/respond.ts";
import { toWire } from "../oidc-provider/clients.ts";
import { projectOf, userOf } from "./auth.ts";

export function registerOidcProviderRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const op = deps.oidcProvider;

  const protocol = async (c: {
    req: { param(name: string): string | undefined };
    env: unknown;
  }): Promise<Response> => {
    const projectId = c.req.param("project_id") ?? "";
    if (!(await deps.projects.find(projectId))) return textResponse(404, "Not found.");
    const node = c.env as Partial<HttpBindings> | undefined;
    // oidc-provider is a Koa application: it answers on Node's request and response, which only a real server has.
    if (!node?.incoming || !node.outgoing)
      return textResponse(503, "The OpenID Provider needs the Node HTTP server.");
    await op.handle(projectId, node.incoming, node.outgoing);
    return RESPONSE_ALREADY_SENT;
  };
  app.all("/api/v1/projects/:project_id/oidc/no-handler", () =>
    textResponse(
      400,
      "This project has no trusted domain for its handler pages, so nobody can sign in to apps through it. Add one.",
    ),
  );
  app.all("/api/v1/projects/:project_id/oidc", protocol);
  app.all("/api/v1/projects/:project_id/oidc/*", protocol);

  bindRoute(app, deps, listOidcClientsRoute, async (_input, { caller }) => {
    const rows = await op.clients.list(projectOf(caller).id);
    return { items: rows.map(toWire), is_paginated: false as const };
  });

  bindRoute(app, deps, createOidcClientRoute, async ({ body }, { caller }) => {
    const { row, secret } = await op.clients.create(projectOf(caller).id, body);
    return { ...toWire(row), client_secret: secret };
  });

  bindRoute(app, deps, getOidcClientRoute, async ({ params }, { caller }) =>
    toWire(await op.clients.get(projectOf(caller).id, params.client_id)),
  );

  bindRoute(app, deps, updateOidcClientRoute, async ({ params, body }, { caller }) =>
    toWire(await op.clients.update(projectOf(caller).id, params.client_id, body)),
  );

  bindRoute(app, deps, deleteOidcClientRoute, async ({ params }, { caller }) => {
    await op.clients.delete(projectOf(caller).id, params.client_id);
    return { success: true as const };
  });

  bindRoute(app, deps, getOidcInteractionRoute, async ({ params }, { caller }) =>
    op.interactions.details(projectOf(caller).id, userOf(caller), params.interaction_id),
  );

  bindRoute(app, deps, acceptOidcInteractionRoute, async ({ params }, { caller }) => ({
    redirect_url: await op.interactions.accept(projectOf(caller).id, userOf(caller), params.interaction_id),
  }));

  bindRoute(app, deps, denyOidcInteractionRoute, async ({ params }, { caller }) => ({
    redirect_url: await op.interactions.deny(projectOf(caller).id, params.interaction_id),
  }));

  bindRoute(app, deps, listOwnOidcGrantsRoute, async (_input, { caller }) => ({
    items: await op.interactions.grants(projectOf(caller).id, userOf(caller).id),
    is_paginated: false as const,
  }));

  bindRoute(app, deps, revokeOwnOidcGrantRoute, async ({ params }, { caller }) => {
    await op.interactions.revoke(projectOf(caller).id, userOf(caller).id, params.client_id);
    return { success: true as const };
  });
}
