// Project API key routes (WIRE.md §4.14): admin callers list, create, read and revoke the key sets of their project.
// A key set holds up to three keys sharing description, expiry and revocation; full keys are shown only on create.
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";
import { listOf } from "../schemas/common.ts";

const ADMIN_ACCESS = ["admin"] as const;

const apiKeyFields = {
  id: z.uuid(),
  description: z.string(),
  created_at_millis: z.number(),
  expires_at_millis: z.number(),
  /** Present once the key set was revoked. */
  manually_revoked_at_millis: z.number().optional(),
};

const lastFourSchema = z.object({ last_four: z.string() });

/** A key set as listed and read: each key it has by its last four characters. */
export const apiKeySchema = z
  .object({
    ...apiKeyFields,
    publishable_client_key: lastFourSchema.optional(),
    secret_server_key: lastFourSchema.optional(),
    super_secret_admin_key: lastFourSchema.optional(),
  })
  .meta({ id: "ApiKey" });

/** A key set as its create answers it: the full keys, never shown again. */
export const apiKeyFirstViewSchema = z
  .object({
    ...apiKeyFields,
    publishable_client_key: z.string().optional(),
    secret_server_key: z.string().optional(),
    super_secret_admin_key: z.string().optional(),
  })
  .meta({ id: "ApiKeyFirstView" });

export type ApiKey = z.output<typeof apiKeySchema>;
export type ApiKeyFirstView = z.output<typeof apiKeyFirstViewSchema>;

/** JavaScript dates reach ±8.64e15 ms; beyond that a timestamp means nothing. */
const millisSchema = z.number().int().min(0).max(8.64e15);

const apiKeyCreateSchema = z
  .strictObject({
    description: z.string(),
    expires_at_millis: millisSchema,
    has_publishable_client_key: z.boolean(),
    has_secret_server_key: z.boolean(),
    has_super_secret_admin_key: z.boolean(),
  })
  .refine((b) => b.has_publishable_client_key || b.has_secret_server_key || b.has_super_secret_admin_key, {
    message:
      "at least one of has_publishable_client_key, has_secret_server_key, has_super_secret_admin_key must be true",
  });

/** Revocation is permanent: `revoked` can only be set, never cleared. */
const apiKeyUpdateSchema = z
  .strictObject({ description: z.string().optional(), revoked: z.literal(true).optional() })
  .default({});

const apiKeyParams = z.strictObject({ api_key_id: z.uuid() });

export const listApiKeysRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/api-keys",
  access: ADMIN_ACCESS,
  summary: "Lists the project's API key sets, newest first",
  tag: "API keys",
  response: { status: 200, kind: "json", schema: listOf(apiKeySchema) },
});

export const createApiKeyRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/api-keys",
  access: ADMIN_ACCESS,
  summary: "Creates an API key set; the answer holds the full keys, shown only this once",
  tag: "API keys",
  body: apiKeyCreateSchema,
  response: { status: 200, kind: "json", schema: apiKeyFirstViewSchema },
});

export const getApiKeyRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/api-keys/{api_key_id}",
  access: ADMIN_ACCESS,
  summary: "Reads an API key set",
  tag: "API keys",
  params: apiKeyParams,
  response: { status: 200, kind: "json", schema: apiKeySchema },
});

export const updateApiKeyRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/internal/api-keys/{api_key_id}",
  access: ADMIN_ACCESS,
  summary: "Changes an API key set's description or revokes it (permanently)",
  tag: "API keys",
  params: apiKeyParams,
  body: apiKeyUpdateSchema,
  response: { status: 200, kind: "json", schema: apiKeySchema },
});

/** The API key routes, in the order the API reference lists them. */
export const apiKeyRoutes = [
  listApiKeysRoute,
  createApiKeyRoute,
  getApiKeyRoute,
  updateApiKeyRoute,
] as const satisfies readonly RouteDefinition[];
