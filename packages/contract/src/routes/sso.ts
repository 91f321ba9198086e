// [GO] Enterprise single sign-on routes: a team's SSO connections (OIDC or SAML 2.0 identity providers), starting an
// SSO sign-in (by connection or by the e-mail's verified domain), and the identity providers' return addresses.
// The sign-in ends like an OAuth one: the app gets an authorization code for `POST /auth/oauth/token`.
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { urlSchema } from "../schemas/auth.ts";
import { listOf, successSchema } from "../schemas/common.ts";

/** Servers and admins; clients (a team's own administrators) need the team permission `$manage_sso`. */
const MANAGE_ACCESS = ["client", "server", "admin"] as const;
const ANY_ACCESS = ["client", "server", "admin"] as const;
const TAG = "SSO";

const httpUrl = urlSchema;
const text = z.string().min(1).max(4096);
/** A PEM certificate or its base64 body, as identity providers show them. */
const certificate = z.string().min(16).max(16_384);

/**
 * How the identity provider's claims or attributes become the user's: the claim (OIDC) or attribute name (SAML)
 * holding each value, and which team permissions a group grants on top of the team's default ones.
 */
export const ssoAttributeMappingSchema = z.strictObject({
  email: z.string().min(1).max(256).default("email"),
  name: z.string().min(1).max(256).default("name"),
  groups: z.string().min(1).max(256).default("groups"),
  group_permissions: z
    .record(z.string().min(1).max(256), z.array(z.string().min(1).max(256)).max(50))
    .refine((value) => Object.keys(value).length <= 100, "At most 100 groups")
    .default({}),
});

const oidcSettingsSchema = z.object({
  issuer_url: z.string(),
  client_id: z.string(),
  /** The callback to register at the identity provider. */
  redirect_uri: z.string(),
});

const samlSettingsSchema = z.object({
  idp_entity_id: z.string(),
  idp_sso_url: z.string(),
  /** The PEM certificates whose signatures are accepted: two during a rotation. */
  idp_certificates: z.array(z.string()),
  /**
   * Our certificate (PEM) for encrypted assertions, also in our SP metadata: an IdP that encrypts assertions uses it.
   * Null for connections made before encryption was supported (changing the SAML settings makes one).
   */
  sp_encryption_certificate: z.string().nullable(),
  /** What to paste into the identity provider. */
  sp_entity_id: z.string(),
  acs_url: z.string(),
  sp_metadata_url: z.string(),
});

export const ssoConnectionSchema = z
  .object({
    id: z.uuid(),
    team_id: z.uuid(),
    protocol: z.enum(["oidc", "saml"]),
    display_name: z.string(),
    enabled: z.boolean(),
    attribute_mapping: ssoAttributeMappingSchema,
    oidc: oidcSettingsSchema.nullable(),
    saml: samlSettingsSchema.nullable(),
    created_at_millis: z.number(),
  })
  .meta({ id: "SsoConnection" });

export type SsoConnection = z.output<typeof ssoConnectionSchema>;

const oidcInput = z.strictObject({
  /** The issuer; its `/.well-known/openid-configuration` is read at every sign-in. */
  issuer_url: httpUrl,
  client_id: text,
  client_secret: text,
});

const samlInput = z.strictObject({
  /** The identity provider's metadata document (XML), or where to fetch it; or the three values by hand. */
  idp_metadata_xml: z.string().min(1).max(262_144).optional(),
  idp_metadata_url: httpUrl.optional(),
  idp_entity_id: text.optional(),
  idp_sso_url: httpUrl.optional(),
  idp_certificates: z.array(certificate).min(1).max(2).optional(),
});

const commonInput = {
  display_name: z.string().min(1).max(256),
  enabled: z.boolean().default(true),
  attribute_mapping: ssoAttributeMappingSchema.optional(),
};

export const createSsoConnectionBodySchema = z.discriminatedUnion("protocol", [
  z.strictObject({ protocol: z.literal("oidc"), ...commonInput, oidc: oidcInput }),
  z.strictObject({ protocol: z.literal("saml"), ...commonInput, saml: samlInput }),
]);

export type CreateSsoConnectionBody = z.output<typeof createSsoConnectionBodySchema>;

const teamParams = z.strictObject({ team_id: z.uuid() });
const connectionParams = z.strictObject({ team_id: z.uuid(), connection_id: z.uuid() });

export const listSsoConnectionsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/teams/{team_id}/sso-connections",
  access: MANAGE_ACCESS,
  summary: "[GO] Lists a team's SSO connections, oldest first",
  tag: TAG,
  params: teamParams,
  response: { status: 200, kind: "json", schema: listOf(ssoConnectionSchema) },
});

export const createSsoConnectionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/teams/{team_id}/sso-connections",
  access: MANAGE_ACCESS,
  summary: "[GO] Connects an OIDC or SAML 2.0 identity provider to a team",
  tag: TAG,
  params: teamParams,
  body: createSsoConnectionBodySchema,
  response: { status: 201, kind: "json", schema: ssoConnectionSchema },
});

export const getSsoConnectionRoute = defineRoute({
  method: "GET",
  path: "/api/v1/teams/{team_id}/sso-connections/{connection_id}",
  access: MANAGE_ACCESS,
  summary: "[GO] Reads an SSO connection (its secrets are never shown)",
  tag: TAG,
  params: connectionParams,
  response: { status: 200, kind: "json", schema: ssoConnectionSchema },
});

export const updateSsoConnectionRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/teams/{team_id}/sso-connections/{connection_id}",
  access: MANAGE_ACCESS,
  summary:
    "[GO] Renames, enables or disables an SSO connection, or changes its mapping, secret or certificates",
  tag: TAG,
  params: connectionParams,
  body: z.strictObject({
    display_name: commonInput.display_name.optional(),
    enabled: z.boolean().optional(),
    attribute_mapping: ssoAttributeMappingSchema.optional(),
    oidc: oidcInput.partial().optional(),
    saml: samlInput.optional(),
  }),
  response: { status: 200, kind: "json", schema: ssoConnectionSchema },
});

export const deleteSsoConnectionRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/teams/{team_id}/sso-connections/{connection_id}",
  access: MANAGE_ACCESS,
  summary: "[GO] Removes an SSO connection and the identities it signed in",
  tag: TAG,
  params: connectionParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

export const ssoAuthorizeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/sso/authorize",
  access: ANY_ACCESS,
  summary:
    "[GO] Starts an SSO sign-in through a connection, or through the connection of the e-mail's verified domain: " +
    "answers the identity provider's URL to send the browser to. The sign-in returns to `redirect_uri` with an " +
    "authorization code for `POST /auth/oauth/token`, as an OAuth sign-in does",
  tag: TAG,
  body: z.strictObject({
    connection_id: z.uuid().optional(),
    email: z.email().max(256).optional(),
    redirect_uri: text,
    state: text,
    code_challenge: z.string().min(43).max(128),
    code_challenge_method: z.literal("S256").default("S256"),
    error_redirect_uri: text.optional(),
    after_callback_redirect_url: text.optional(),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ location: z.string(), connection_id: z.uuid() }),
  },
});

export const ssoOidcCallbackRoute = defineRoute({
  method: "GET",
  path: "/api/v1/auth/sso/oidc/{connection_id}/callback",
  access: "none",
  summary:
    "[GO] Where an OIDC identity provider returns: validates the id_token, signs the user in (just in time) and " +
    "sends them to the app's redirect URI with an authorization code (303)",
  tag: TAG,
  params: z.strictObject({ connection_id: z.uuid() }),
  tolerateUnknownFields: true,
  response: { status: 303, kind: "redirect", description: "To the app's redirect URI" },
});

/** The DNS TXT record that proves a domain: its name and the value to publish. */
export const ssoDomainSchema = z
  .object({
    id: z.uuid(),
    team_id: z.uuid(),
    domain: z.string(),
    verified: z.boolean(),
    verified_at_millis: z.number().nullable(),
    verification_record: z.object({ type: z.literal("TXT"), name: z.string(), value: z.string() }),
    /** The connection that signs in the domain's addresses (null: the team's first enabled one). */
    connection_id: z.uuid().nullable(),
    /** Password and other sign-in methods are refused for the domain's addresses (once verified). */
    enforce_sso: z.boolean(),
  })
  .meta({ id: "SsoDomain" });

export type SsoDomain = z.output<typeof ssoDomainSchema>;

const domainName = z
  .string()
  .min(3)
  .max(253)
  .regex(/^([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/, "Must be a domain name");
const domainParams = z.strictObject({ team_id: z.uuid(), domain_id: z.uuid() });

export const listSsoDomainsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/teams/{team_id}/sso-domains",
  access: MANAGE_ACCESS,
  summary: "[GO] Lists the e-mail domains a team claims, with their DNS proof",
  tag: TAG,
  params: teamParams,
  response: { status: 200, kind: "json", schema: listOf(ssoDomainSchema) },
});

export const createSsoDomainRoute = defineRoute({
  method: "POST",
  path: "/api/v1/teams/{team_id}/sso-domains",
  access: MANAGE_ACCESS,
  summary: "[GO] Claims an e-mail domain for a team: answers the TXT record to publish before verifying",
  tag: TAG,
  params: teamParams,
  body: z.strictObject({ domain: domainName, connection_id: z.uuid().nullable().optional() }),
  response: { status: 201, kind: "json", schema: ssoDomainSchema },
});

export const verifySsoDomainRoute = defineRoute({
  method: "POST",
  path: "/api/v1/teams/{team_id}/sso-domains/{domain_id}/verify",
  access: MANAGE_ACCESS,
  summary: "[GO] Looks up the domain's TXT record; the domain is verified when it holds the expected value",
  tag: TAG,
  params: domainParams,
  body: z.strictObject({}).optional(),
  response: { status: 200, kind: "json", schema: ssoDomainSchema },
});

export const updateSsoDomainRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/teams/{team_id}/sso-domains/{domain_id}",
  access: MANAGE_ACCESS,
  summary: "[GO] Chooses the domain's connection, or enforces SSO for its addresses",
  tag: TAG,
  params: domainParams,
  body: z.strictObject({
    connection_id: z.uuid().nullable().optional(),
    enforce_sso: z.boolean().optional(),
  }),
  response: { status: 200, kind: "json", schema: ssoDomainSchema },
});

export const deleteSsoDomainRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/teams/{team_id}/sso-domains/{domain_id}",
  access: MANAGE_ACCESS,
  summary: "[GO] Gives up a domain claim",
  tag: TAG,
  params: domainParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

const samlParams = z.strictObject({ connection_id: z.uuid() });

export const ssoSamlMetadataRoute = defineRoute({
  method: "GET",
  path: "/api/v1/auth/sso/saml/{connection_id}/metadata",
  access: "none",
  summary:
    "[GO] Our SAML service provider metadata for a connection (entity id, ACS URL), for the identity provider",
  tag: TAG,
  params: samlParams,
  response: { status: 200, kind: "text", description: "SAML metadata (XML)" },
});

export const ssoSamlAcsRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/sso/saml/{connection_id}/acs",
  access: "none",
  summary:
    "[GO] The assertion consumer service: validates the IdP's signed assertion; an answer to our request signs the " +
    "user in and goes to the app's redirect URI with an authorization code, an IdP-initiated one goes to the app to " +
    "start an SP-initiated sign-in (303)",
  tag: TAG,
  params: samlParams,
  body: z.object({
    SAMLResponse: z.string().min(1).max(1_000_000),
    RelayState: z.string().max(4096).optional(),
  }),
  tolerateUnknownFields: true,
  response: { status: 303, kind: "redirect", description: "To the app" },
});

/**
 * A test sign-in through a connection: what the identity provider sent (subject and attributes or claims), or the
 * error, without creating a user, a membership or a session.
 */
export const ssoConnectionTestSchema = z
  .object({
    id: z.string(),
    connection_id: z.uuid(),
    status: z.enum(["pending", "succeeded", "failed"]),
    subject: z.string().nullable(),
    attributes: z.record(z.string(), z.unknown()).nullable(),
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }).nullable(),
  })
  .meta({ id: "SsoConnectionTest" });

export type SsoConnectionTest = z.output<typeof ssoConnectionTestSchema>;

export const startSsoConnectionTestRoute = defineRoute({
  method: "POST",
  path: "/api/v1/teams/{team_id}/sso-connections/{connection_id}/tests",
  access: MANAGE_ACCESS,
  summary:
    "[GO] Starts a test sign-in through a connection (enabled or not): answers the identity provider's URL to open. " +
    "The identity provider's answer is checked as at sign-in, but no user, membership or session is made; the " +
    "browser then goes to `return_url` (this server's own address, or one the project trusts) with `sso_test_id`",
  tag: TAG,
  params: connectionParams,
  body: z.strictObject({ return_url: text }),
  response: {
    status: 201,
    kind: "json",
    schema: ssoConnectionTestSchema.extend({ location: z.string() }),
  },
});

export const getSsoConnectionTestRoute = defineRoute({
  method: "GET",
  path: "/api/v1/teams/{team_id}/sso-connections/{connection_id}/tests/{test_id}",
  access: MANAGE_ACCESS,
  summary: "[GO] Reads a test sign-in's outcome: the subject and attributes received, or the error",
  tag: TAG,
  params: z.strictObject({ team_id: z.uuid(), connection_id: z.uuid(), test_id: z.string().min(1).max(128) }),
  response: { status: 200, kind: "json", schema: ssoConnectionTestSchema },
});

export const ssoRoutes = [
  listSsoConnectionsRoute,
  createSsoConnectionRoute,
  getSsoConnectionRoute,
  updateSsoConnectionRoute,
  deleteSsoConnectionRoute,
  startSsoConnectionTestRoute,
  getSsoConnectionTestRoute,
  ssoAuthorizeRoute,
  ssoOidcCallbackRoute,
  ssoSamlMetadataRoute,
  ssoSamlAcsRoute,
  listSsoDomainsRoute,
  createSsoDomainRoute,
  verifySsoDomainRoute,
  updateSsoDomainRoute,
  deleteSsoDomainRoute,
] as const;
