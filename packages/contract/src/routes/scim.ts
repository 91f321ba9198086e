// [GO] A team's SCIM bearer tokens: the identity provider's provisioning client (Okta, Entra ID, …) calls the SCIM 2.0
// endpoints under `/api/v1/scim/v2` with one. A token is shown once, when created; revoking it takes effect at once.
// The SCIM endpoints themselves speak RFC 7644 (application/scim+json), not this API's conventions.
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { listOf, successSchema } from "../schemas/common.ts";

/** Servers and admins; clients (a team's own administrators) need the team permission `$manage_sso`. */
const MANAGE_ACCESS = ["client", "server", "admin"] as const;
const TAG = "SSO";

export const scimTokenSchema = z
  .object({
    id: z.uuid(),
    team_id: z.uuid(),
    description: z.string(),
    created_at_millis: z.number(),
    last_used_at_millis: z.number().nullable(),
  })
  .meta({ id: "ScimToken" });

export type ScimToken = z.output<typeof scimTokenSchema>;

const teamParams = z.strictObject({ team_id: z.uuid() });

export const listScimTokensRoute = defineRoute({
  method: "GET",
  path: "/api/v1/teams/{team_id}/scim-tokens",
  access: MANAGE_ACCESS,
  summary: "[GO] Lists a team's SCIM tokens (never the tokens themselves), oldest first",
  tag: TAG,
  params: teamParams,
  response: { status: 200, kind: "json", schema: listOf(scimTokenSchema) },
});

export const createScimTokenRoute = defineRoute({
  method: "POST",
  path: "/api/v1/teams/{team_id}/scim-tokens",
  access: MANAGE_ACCESS,
  summary:
    "[GO] Creates a SCIM bearer token for the team: the answer holds the token (shown this once) and the SCIM base " +
    "URL to paste into the identity provider",
  tag: TAG,
  params: teamParams,
  body: z.strictObject({ description: z.string().min(1).max(256) }),
  response: {
    status: 201,
    kind: "json",
    schema: scimTokenSchema.extend({ token: z.string(), scim_base_url: z.string() }),
  },
});

export const deleteScimTokenRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/teams/{team_id}/scim-tokens/{token_id}",
  access: MANAGE_ACCESS,
  summary: "[GO] Revokes a SCIM token: the identity provider's next request with it is refused",
  tag: TAG,
  params: z.strictObject({ team_id: z.uuid(), token_id: z.uuid() }),
  response: { status: 200, kind: "json", schema: successSchema },
});

export const scimRoutes = [listScimTokensRoute, createScimTokenRoute, deleteScimTokenRoute] as const;
