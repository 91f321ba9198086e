// Project API key routes (WIRE.md §4.14): admin callers manage the key sets of their own project; `internal` in
// the path only marks an admin API. Another project's key set is API_KEY_NOT_FOUND.
import { createApiKeyRoute, getApiKeyRoute, listApiKeysRoute, updateApiKeyRoute } from "@gatehouse/contract";
import type { Hono } from "hono";
import { inTransaction } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { toApiKey, toApiKeyFirstView } from "../services/api-keys.ts";
import { projectOf } from "./auth.ts";

export function registerApiKeyRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, listApiKeysRoute, async (_input, { caller }) => {
    const rows = await deps.apiKeys.list(deps.db, projectOf(caller).id);
    return { items: rows.map(toApiKey), is_paginated: false as const };
  });

  bindRoute(app, deps, createApiKeyRoute, async ({ body }, { caller }) => {
    const { set, keys } = await inTransaction(deps.db, (tx) =>
      deps.apiKeys.save(tx, projectOf(caller).id, {
        description: body.description,
        expiresAt: new Date(body.expires_at_millis),
        createdAt: deps.clock.now(),
        keys: {
          ...(body.has_publishable_client_key ? { pck: true } : {}),
          ...(body.has_secret_server_key ? { ssk: true } : {}),
          ...(body.has_super_secret_admin_key ? { sak: true } : {}),
        },
      }),
    );
    return toApiKeyFirstView(set, keys);
  });

  bindRoute(app, deps, getApiKeyRoute, async ({ params }, { caller }) =>
    toApiKey(await deps.apiKeys.get(deps.db, projectOf(caller).id, params.api_key_id)),
  );

  bindRoute(app, deps, updateApiKeyRoute, async ({ params, body }, { caller }) => {
    const updated = await inTransaction(deps.db, (tx) =>
      deps.apiKeys.update(tx, projectOf(caller).id, params.api_key_id, {
        description: body.description,
        revokedAt: body.revoked ? deps.clock.now() : undefined,
      }),
    );
    return toApiKey(updated);
  });
}
