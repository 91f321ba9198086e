// OAuth provider record routes (Stack's `/oauth-providers`): clients read, change and unlink their own provider
// accounts; servers anyone's, and link new ones.
import {
  createOAuthProviderRoute,
  deleteOAuthProviderRoute,
  getOAuthProviderRoute,
  listOAuthProvidersRoute,
  updateOAuthProviderRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import { inTransaction } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { createOAuthProviderService } from "../services/oauth-providers.ts";
import { projectOf } from "./auth.ts";
import { assertOwnUser } from "./own-user.ts";

export function registerOAuthProviderRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const providers = createOAuthProviderService({
    accounts: deps.oauthAccounts,
    usersRepo: deps.usersRepo,
    clock: deps.clock,
  });

  bindRoute(app, deps, listOAuthProvidersRoute, async ({ query }, { caller }) => {
    assertOwnUser(caller, query.user_id, "Client can only list OAuth providers for their own user.");
    const items = await providers.list(deps.db, projectOf(caller).id, query.user_id);
    return { items, is_paginated: false as const };
  });

  bindRoute(app, deps, createOAuthProviderRoute, async ({ body }, { caller }) =>
    inTransaction(deps.db, (tx) =>
      providers.create(tx, projectOf(caller), {
        userId: body.user_id,
        providerConfigId: body.provider_config_id,
        accountId: body.account_id,
        email: body.email,
        allowSignIn: body.allow_sign_in,
        allowConnectedAccounts: body.allow_connected_accounts,
      }),
    ),
  );

  bindRoute(app, deps, getOAuthProviderRoute, async ({ params }, { caller }) => {
    assertOwnUser(caller, params.user_id, "Client can only read OAuth providers for their own user.");
    return providers.get(deps.db, projectOf(caller).id, params.user_id, params.provider_id);
  });

  bindRoute(app, deps, updateOAuthProviderRoute, async ({ params, body }, { caller }) => {
    assertOwnUser(caller, params.user_id, "Client can only update OAuth providers for their own user.");
    return inTransaction(deps.db, (tx) =>
      providers.update(tx, projectOf(caller).id, params.user_id, params.provider_id, {
        allowSignIn: body.allow_sign_in,
        allowConnectedAccounts: body.allow_connected_accounts,
        email: body.email,
        accountId: body.account_id,
      }),
    );
  });

  bindRoute(app, deps, deleteOAuthProviderRoute, async ({ params }, { caller }) => {
    assertOwnUser(caller, params.user_id, "Client can only delete OAuth providers for their own user.");
    await inTransaction(deps.db, (tx) =>
      providers.delete(tx, projectOf(caller).id, params.user_id, params.provider_id),
    );
    return { success: true as const };
  });
}
