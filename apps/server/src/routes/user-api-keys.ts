// User and team API key routes (`/user-api-keys`, `/team-api-keys`): thin handlers over the owned-API-key service,
// which applies Stack's rules (clients manage their own keys and their teams' with $manage_api_keys).
import {
  checkTeamApiKeyRoute,
  checkUserApiKeyRoute,
  createTeamApiKeyRoute,
  createUserApiKeyRoute,
  getTeamApiKeyRoute,
  getUserApiKeyRoute,
  listTeamApiKeysRoute,
  listUserApiKeysRoute,
  type OwnedApiKeyType,
  updateTeamApiKeyRoute,
  updateUserApiKeyRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller } from "../http/caller.ts";
import type { KeyActor } from "../user-api-keys/service.ts";
import { projectOf } from "./auth.ts";

const actorOf = (caller: Caller): KeyActor => ({
  project: projectOf(caller),
  client: caller.accessType === "client" ? { userId: caller.user?.id ?? null } : null,
});

const routesByType = {
  user: {
    list: listUserApiKeysRoute,
    create: createUserApiKeyRoute,
    check: checkUserApiKeyRoute,
    get: getUserApiKeyRoute,
    update: updateUserApiKeyRoute,
  },
  team: {
    list: listTeamApiKeysRoute,
    create: createTeamApiKeyRoute,
    check: checkTeamApiKeyRoute,
    get: getTeamApiKeyRoute,
    update: updateTeamApiKeyRoute,
  },
} as const;

/** The owner a list or create names: `user_id` (with `me` already resolved) or `team_id`. */
const ownerIdOf = (fields: { user_id?: string; team_id?: string }) =>
  (fields.user_id ?? fields.team_id) as string;

export function registerOwnedApiKeyRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const keys = deps.ownedApiKeys;
  for (const type of ["user", "team"] as const satisfies OwnedApiKeyType[]) {
    const routes = routesByType[type];

    bindRoute(app, deps, routes.list, async ({ query }, { caller }) => ({
      items: await keys.list(actorOf(caller), type, ownerIdOf(query)),
      is_paginated: false as const,
    }));

    bindRoute(app, deps, routes.create, async ({ body }, { caller }) =>
      keys.create(actorOf(caller), type, {
        ownerId: ownerIdOf(body),
        description: body.description,
        expiresAtMillis: body.expires_at_millis,
        isPublic: body.is_public,
      }),
    );

    bindRoute(app, deps, routes.check, async ({ body }, { caller }) =>
      keys.check(projectOf(caller), type, body.api_key),
    );

    bindRoute(app, deps, routes.get, async ({ params }, { caller }) =>
      keys.get(actorOf(caller), type, params.api_key_id),
    );

    bindRoute(app, deps, routes.update, async ({ params, body }, { caller }) =>
      keys.update(actorOf(caller), type, params.api_key_id, {
        description: body.description,
        revoked: body.revoked,
        expiresAtMillis: body.expires_at_millis,
      }),
    );
  }
}
