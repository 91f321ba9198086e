// OAuth provider record routes (Stack's `/oauth-providers`): the provider accounts linked to a user, each with
// whether it signs in and whether apps may get its tokens. Clients see and change their own; servers anyone's.
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";
import { listOf, successSchema, userIdOrMe } from "../schemas/common.ts";

const ANY_ACCESS = ["client", "server", "admin"] as const;
const SERVER_ACCESS = ["server", "admin"] as const;
const TAG = "OAuth providers";

const clientOAuthProviderFields = {
  user_id: z.uuid(),
  /** The id of this record (not the provider's): the `{provider_id}` of the paths below. */
  id: z.uuid(),
  email: z.string().optional(),
  /** The project's provider configuration the account belongs to, e.g. `github`. */
  provider_config_id: z.string(),
  /** The kind of provider, e.g. `github`. */
  type: z.string(),
  allow_sign_in: z.boolean(),
  allow_connected_accounts: z.boolean(),
};

export const clientOAuthProviderSchema = z
  .object(clientOAuthProviderFields)
  .meta({ id: "ClientOAuthProvider" });

export const serverOAuthProviderSchema = z
  .object({ ...clientOAuthProviderFields, account_id: z.string() })
  .meta({ id: "ServerOAuthProvider" });

/** Server callers get the account id too; the route's parse strips it for clients. */
export const oauthProviderSchema = z.union([serverOAuthProviderSchema, clientOAuthProviderSchema]);

export type ServerOAuthProvider = z.output<typeof serverOAuthProviderSchema>;

const recordParams = z.strictObject({ user_id: userIdOrMe, provider_id: z.uuid() });
const email = z.email().max(256);
const accountId = z.string().min(1).max(256);

const clientUpdateFields = {
  allow_sign_in: z.boolean().optional(),
  allow_connected_accounts: z.boolean().optional(),
};

export const listOAuthProvidersRoute = defineRoute({
  method: "GET",
  path: "/api/v1/oauth-providers",
  access: ANY_ACCESS,
  summary:
    "Lists linked provider accounts, oldest first: a user's (clients: `user_id=me` only) or the project's",
  tag: TAG,
  query: z.strictObject({ user_id: userIdOrMe.optional() }),
  response: {
    status: 200,
    kind: "json",
    schema: listOf(oauthProviderSchema),
    clientSchema: listOf(clientOAuthProviderSchema),
  },
});

export const createOAuthProviderRoute = defineRoute({
  method: "POST",
  path: "/api/v1/oauth-providers",
  access: SERVER_ACCESS,
  summary: "Links a provider account to a user",
  tag: TAG,
  body: z.strictObject({
    user_id: userIdOrMe,
    provider_config_id: z.string().min(1).max(64),
    email: email.optional(),
    allow_sign_in: z.boolean(),
    allow_connected_accounts: z.boolean(),
    account_id: accountId,
  }),
  response: { status: 201, kind: "json", schema: serverOAuthProviderSchema },
});

export const getOAuthProviderRoute = defineRoute({
  method: "GET",
  path: "/api/v1/oauth-providers/{user_id}/{provider_id}",
  access: ANY_ACCESS,
  summary: "One linked provider account of a user (clients: their own)",
  tag: TAG,
  params: recordParams,
  response: {
    status: 200,
    kind: "json",
    schema: oauthProviderSchema,
    clientSchema: clientOAuthProviderSchema,
  },
});

export const updateOAuthProviderRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/oauth-providers/{user_id}/{provider_id}",
  access: ANY_ACCESS,
  summary:
    "Changes whether an account signs in or serves connected accounts (servers: also e-mail and account id)",
  tag: TAG,
  params: recordParams,
  body: z
    .strictObject({ ...clientUpdateFields, email: email.optional(), account_id: accountId.optional() })
    .default({}),
  clientBody: z.strictObject(clientUpdateFields).default({}),
  response: {
    status: 200,
    kind: "json",
    schema: oauthProviderSchema,
    clientSchema: clientOAuthProviderSchema,
  },
});

export const deleteOAuthProviderRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/oauth-providers/{user_id}/{provider_id}",
  access: ANY_ACCESS,
  summary: "Unlinks a provider account from a user (clients: their own)",
  tag: TAG,
  params: recordParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

/** The OAuth provider record routes, in the order the API reference lists them. */
export const oauthProviderRoutes = [
  listOAuthProvidersRoute,
  createOAuthProviderRoute,
  getOAuthProviderRoute,
  updateOAuthProviderRoute,
  deleteOAuthProviderRoute,
] as const satisfies readonly RouteDefinition[];
