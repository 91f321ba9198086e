// [GO] Gatehouse as an OpenID Provider: the project's OAuth clients (admin), the sign-in/consent step the handler
// pages drive for a signed-in user, and the user's granted apps. The protocol endpoints themselves (discovery,
// authorize, token, userinfo, JWKS, revocation, introspection, logout) live under
// `/api/v1/projects/{project_id}/oidc` and speak OAuth/OIDC, not this wire; they are not in this table.
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { listOf, successSchema } from "../schemas/common.ts";

const TAG = "OpenID Provider";

export const OIDC_PROVIDER_SCOPES = ["openid", "profile", "email", "offline_access", "team"] as const;
export const oidcScopeSchema = z.enum(OIDC_PROVIDER_SCOPES);

/** Redirect URIs are matched exactly; https, or http on loopback for development and native apps. */
const redirectUriSchema = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .refine((value) => !value.includes("#"), "must not contain a fragment");

const webUriSchema = z.url({ protocol: /^https?$/ }).max(2048);
const tokenAuthMethodSchema = z.enum(["client_secret_basic", "client_secret_post", "private_key_jwt"]);
/** Public keys only: a private key member (d, p, q, …, k) is refused so a client cannot leak its own key here. */
const jwksSchema = z.object({
  keys: z
    .array(
      z
        .record(z.string(), z.unknown())
        .refine(
          (key) => !["d", "p", "q", "dp", "dq", "qi", "k"].some((m) => m in key),
          "must be a public key",
        ),
    )
    .min(1)
    .max(10),
});

export const oidcClientSchema = z
  .object({
    client_id: z.string(),
    display_name: z.string(),
    type: z.enum(["confidential", "public"]),
    redirect_uris: z.array(z.string()),
    post_logout_redirect_uris: z.array(z.string()),
    allowed_scopes: z.array(z.string()),
    logo_url: z.string().nullable(),
    first_party: z.boolean(),
    token_endpoint_auth_method: z.enum([
      "client_secret_basic",
      "client_secret_post",
      "private_key_jwt",
      "none",
    ]),
    /** private_key_jwt: the client's public keys, inline or where to fetch them (one of the two). */
    jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).nullable(),
    jwks_uri: z.string().nullable(),
    id_token_signed_response_alg: z.enum(["ES256", "RS256"]),
    backchannel_logout_uri: z.string().nullable(),
    created_at_millis: z.number(),
  })
  .meta({ id: "OidcClient" });

export type OidcClient = z.output<typeof oidcClientSchema>;

/** The created client with its secret: shown this once, only its SHA-256 hash is kept. */
export const createdOidcClientSchema = oidcClientSchema.extend({ client_secret: z.string().nullable() });

const clientFields = {
  display_name: z.string().min(1).max(200),
  redirect_uris: z.array(redirectUriSchema).min(1).max(50),
  post_logout_redirect_uris: z.array(redirectUriSchema).max(50).default([]),
  allowed_scopes: z.array(oidcScopeSchema).min(1).max(10).default(["openid", "profile", "email"]),
  logo_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .default(null),
  first_party: z.boolean().default(false),
  /**
   * How a confidential client authenticates at the token endpoint (public clients always use none): its secret in
   * the Authorization header or the body, or a JWT signed with its own key (private_key_jwt, needs jwks or jwks_uri;
   * such a client gets no secret). Only the registered method is accepted.
   */
  token_endpoint_auth_method: tokenAuthMethodSchema.default("client_secret_basic"),
  jwks: jwksSchema.nullable().default(null),
  jwks_uri: webUriSchema.nullable().default(null),
  /** RS256 for relying parties that cannot verify ES256 id_tokens. */
  id_token_signed_response_alg: z.enum(["ES256", "RS256"]).default("ES256"),
  /** Called with a logout_token when the user's session ends (OpenID Connect Back-Channel Logout 1.0). */
  backchannel_logout_uri: webUriSchema.nullable().default(null),
};

const createClientBody = z.strictObject({ ...clientFields, type: z.enum(["confidential", "public"]) });
const updateClientBody = z.strictObject({
  display_name: clientFields.display_name.optional(),
  redirect_uris: clientFields.redirect_uris.optional(),
  post_logout_redirect_uris: z.array(redirectUriSchema).max(50).optional(),
  allowed_scopes: z.array(oidcScopeSchema).min(1).max(10).optional(),
  logo_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
  first_party: z.boolean().optional(),
  token_endpoint_auth_method: tokenAuthMethodSchema.optional(),
  jwks: jwksSchema.nullable().optional(),
  jwks_uri: webUriSchema.nullable().optional(),
  id_token_signed_response_alg: z.enum(["ES256", "RS256"]).optional(),
  backchannel_logout_uri: webUriSchema.nullable().optional(),
});

const clientParams = z.strictObject({ client_id: z.string().min(1).max(100) });
const interactionParams = z.strictObject({ interaction_id: z.string().min(1).max(100) });

const CLIENTS = "/api/v1/oidc-provider/clients";

export const listOidcClientsRoute = defineRoute({
  method: "GET",
  path: CLIENTS,
  access: ["admin"],
  summary: "[GO] The project's OAuth/OIDC clients, oldest first",
  tag: TAG,
  response: { status: 200, kind: "json", schema: listOf(oidcClientSchema) },
});

export const createOidcClientRoute = defineRoute({
  method: "POST",
  path: CLIENTS,
  access: ["admin"],
  summary: "[GO] Registers a client; a confidential client's secret is in this answer only",
  tag: TAG,
  body: createClientBody,
  response: { status: 201, kind: "json", schema: createdOidcClientSchema },
});

export const getOidcClientRoute = defineRoute({
  method: "GET",
  path: `${CLIENTS}/{client_id}`,
  access: ["admin"],
  summary: "[GO] Reads a client (its secret is never shown)",
  tag: TAG,
  params: clientParams,
  response: { status: 200, kind: "json", schema: oidcClientSchema },
});

export const updateOidcClientRoute = defineRoute({
  method: "PATCH",
  path: `${CLIENTS}/{client_id}`,
  access: ["admin"],
  summary: "[GO] Changes a client's name, redirect URIs, scopes, logo or first-party flag",
  tag: TAG,
  params: clientParams,
  body: updateClientBody,
  response: { status: 200, kind: "json", schema: oidcClientSchema },
});

export const deleteOidcClientRoute = defineRoute({
  method: "DELETE",
  path: `${CLIENTS}/{client_id}`,
  access: ["admin"],
  summary: "[GO] Deletes a client and ends every grant and token it holds",
  tag: TAG,
  params: clientParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

export const oidcInteractionSchema = z
  .object({
    interaction_id: z.string(),
    client: z.object({
      client_id: z.string(),
      display_name: z.string(),
      logo_url: z.string().nullable(),
      first_party: z.boolean(),
    }),
    /** The scopes the client asks for that the user has not granted it yet. */
    scopes: z.array(z.string()),
    /** True when nothing needs the user's consent (a first-party client, or scopes granted before). */
    consent_required: z.boolean(),
    /**
     * True when the app asked for a fresh sign-in (prompt=login after this session began, or a max_age the session
     * is older than): the page signs the user out and in again before answering.
     */
    sign_in_required: z.boolean(),
  })
  .meta({ id: "OidcInteraction" });

const redirectAnswer = z.object({ redirect_url: z.string() });

export const getOidcInteractionRoute = defineRoute({
  method: "GET",
  path: "/api/v1/oidc-provider/interactions/{interaction_id}",
  access: ["client"],
  user: "required",
  summary: "[GO] What an app signing in through the project's OpenID Provider asks of the signed-in user",
  tag: TAG,
  params: interactionParams,
  response: { status: 200, kind: "json", schema: oidcInteractionSchema },
});

export const acceptOidcInteractionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/oidc-provider/interactions/{interaction_id}/accept",
  access: ["client"],
  user: "required",
  summary:
    "[GO] Signs the user in to the app and grants the asked scopes; the browser continues at redirect_url",
  tag: TAG,
  params: interactionParams,
  response: { status: 200, kind: "json", schema: redirectAnswer },
});

export const denyOidcInteractionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/oidc-provider/interactions/{interaction_id}/deny",
  access: ["client"],
  user: "required",
  summary: "[GO] Refuses the app (it gets access_denied); the browser continues at redirect_url",
  tag: TAG,
  params: interactionParams,
  response: { status: 200, kind: "json", schema: redirectAnswer },
});

export const oidcGrantSchema = z
  .object({
    client_id: z.string(),
    display_name: z.string(),
    logo_url: z.string().nullable(),
    scopes: z.array(z.string()),
  })
  .meta({ id: "OidcGrant" });

export const listOwnOidcGrantsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/oidc-provider/grants",
  access: ["client"],
  user: "required",
  summary: "[GO] The apps the signed-in user has let sign them in through the project's OpenID Provider",
  tag: TAG,
  response: { status: 200, kind: "json", schema: listOf(oidcGrantSchema) },
});

export const revokeOwnOidcGrantRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/oidc-provider/grants/{client_id}",
  access: ["client"],
  user: "required",
  summary: "[GO] Revokes an app: its grant, refresh and access tokens end",
  tag: TAG,
  params: clientParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

export const oidcProviderRoutes = [
  listOidcClientsRoute,
  createOidcClientRoute,
  getOidcClientRoute,
  updateOidcClientRoute,
  deleteOidcClientRoute,
  getOidcInteractionRoute,
  acceptOidcInteractionRoute,
  denyOidcInteractionRoute,
  listOwnOidcGrantsRoute,
  revokeOwnOidcGrantRoute,
] as const;
