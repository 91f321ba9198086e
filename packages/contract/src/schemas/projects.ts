// Project configuration (WIRE.md §4.13, §7): the stored settings and their defaults, the bodies that change them,
// and the two views of a project: the client view for sign-in screens, the admin view for dashboards.
import { z } from "zod";
import { SUPPORTED_LOCALES } from "../locales.ts";
import { accessTokenClaimsSchema } from "./token-claims.ts";

/** [GO] The language of the built-in e-mails to people with no stored locale of their own (null: English). */
const defaultLanguageSchema = z.enum(SUPPORTED_LOCALES).nullable();

export const STANDARD_OAUTH_PROVIDER_IDS = [
  "github",
  "facebook",
  "google",
  "microsoft",
  "spotify",
  "discord",
  "gitlab",
  "bitbucket",
  "linkedin",
  "x",
  "twitch",
  // [GO] beyond Stack Auth's list:
  "apple",
] as const;

/**
 * [GO] Generic OpenID Connect providers: `oidc`, or `oidc-<name>` for several, each configured by `issuer_url`
 * (discovery) with the project's own client id and secret.
 */
export const GENERIC_OIDC_PROVIDER_ID = /^oidc(-[a-z0-9][a-z0-9-]{0,40})?$/;

/** Providers that may use the instance's shared credentials. */
export const SHARED_OAUTH_PROVIDER_IDS = ["google", "github", "microsoft", "spotify"] as const;

const configText = z.string().min(1).max(2048);

const oauthProviderFields = {
  id: z.string().min(1).max(64),
  type: z.enum(["shared", "standard"]),
  enabled: z.boolean(),
  client_id: configText.optional(),
  client_secret: configText.optional(),
  facebook_config_id: configText.optional(),
  microsoft_tenant_id: configText.optional(),
  /** [GO] For generic OpenID Connect providers: the issuer, whose discovery document gives the endpoints. */
  issuer_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
};

/** A provider entry as stored. The server keeps `client_secret` sealed (services/projects.ts). */
export const oauthProviderConfigSchema = z.strictObject(oauthProviderFields);

/**
 * A provider entry as written: `enabled` defaults to true (the Stack SDK does not send it), and a standard provider
 * needs its own client id and secret. Whether the id names a known provider is checked by the server (known errors).
 */
export const oauthProviderWriteSchema = z
  .strictObject({ ...oauthProviderFields, enabled: z.boolean().default(true) })
  .superRefine((provider, ctx) => {
    if (provider.type !== "standard") return;
    for (const key of ["client_id", "client_secret"] as const) {
      if (provider[key] === undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: "must be defined for a standard provider" });
      }
    }
    if (GENERIC_OIDC_PROVIDER_ID.test(provider.id) && provider.issuer_url === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["issuer_url"],
        message: "must be defined for an OpenID Connect provider",
      });
    }
  });

/** `http(s)://host[:port]`: a host name or bracketed IPv6 address, and nothing after the port. */
const ORIGIN = /^https?:\/\/([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** A trusted domain is an origin: no path, query, fragment, user info or wildcard (WIRE.md §7). */
export const trustedDomainSchema = z.strictObject({
  domain: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .refine(
      (value) => ORIGIN.test(value),
      "must be an origin: http(s)://host[:port], without path, query, fragment or wildcard",
    ),
  handler_path: z.string().max(2048).startsWith("/").default("/handler"),
});

export const emailConfigSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("shared") }),
  z.strictObject({
    type: z.literal("standard"),
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535),
    username: z.string(),
    password: z.string(),
    sender_name: z.string(),
    sender_email: z.string(),
  }),
]);

const auditRetentionSchema = z.number().int().min(1).max(36500).nullable();

const permissionRefSchema = z.strictObject({ id: z.string().min(1).max(256) });

const oauthAccountMergeStrategySchema = z.enum(["link_method", "raise_error", "allow_duplicates"]);

/**
 * [GO] Password policy (issue 21). `password_breach_check`: `list` refuses the most common passwords from a list
 * shipped with the server; `range` also asks a Have I Been Pwned range service (only a 5-character SHA-1 prefix
 * leaves), falling back to the list when it cannot be reached; `off` checks neither. `password_breach_range_url`:
 * the range service's base (`null`: HIBP's). `password_min_strength`: the lowest zxcvbn score (0-4) accepted, `null`
 * for no strength estimation. `access_token_claims`: the project's claim template (schemas/token-claims.ts).
 */
/** Cloudflare Turnstile's widget script, which our pages load unless the project names another. */
export const TURNSTILE_SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js";

const passwordBreachCheckSchema = z.enum(["off", "list", "range"]);
const httpUrlSchema = z.url({ protocol: /^https?$/ }).max(2048);
const trustFields = {
  password_breach_check: passwordBreachCheckSchema,
  password_breach_range_url: httpUrlSchema.nullable(),
  password_min_strength: z.number().int().min(0).max(4).nullable(),
  /**
   * [GO] Bot protection: `always` requires a passing Turnstile challenge on sign-up, sign-in, code sending and OAuth
   * sign-in; `suspicious` only from an IP with many recent failures. The secret is stored sealed; the verify URL is
   * Cloudflare's siteverify unless set (`null`).
   */
  bot_protection: z.enum(["off", "always", "suspicious"]),
  bot_protection_site_key: z.string().min(1).max(256).nullable(),
  bot_protection_secret: z.string().min(1).max(512).nullable(),
  bot_protection_verify_url: httpUrlSchema.nullable(),
  /** [GO] Claims added to access tokens (schemas/token-claims.ts); `null`: none. */
  access_token_claims: accessTokenClaimsSchema.nullable(),
};

/** The writable configuration of a project, as stored. Derived and read-only keys are computed for views. */
export const projectConfigSchema = z.strictObject({
  sign_up_enabled: z.boolean(),
  credential_enabled: z.boolean(),
  magic_link_enabled: z.boolean(),
  passkey_enabled: z.boolean(),
  client_team_creation_enabled: z.boolean(),
  client_user_deletion_enabled: z.boolean(),
  allow_localhost: z.boolean(),
  create_team_on_sign_up: z.boolean(),
  domains: z.array(trustedDomainSchema),
  oauth_providers: z.array(oauthProviderConfigSchema),
  email_config: emailConfigSchema,
  team_creator_default_permissions: z.array(permissionRefSchema),
  team_member_default_permissions: z.array(permissionRefSchema),
  /** Project permissions every new user gets (Stack's `rbac.defaultPermissions.signUp`). */
  user_default_permissions: z.array(permissionRefSchema),
  oauth_account_merge_strategy: oauthAccountMergeStrategySchema,
  require_publishable_client_key: z.boolean(),
  refresh_token_rotation: z.boolean(),
  /** Whether users, and teams, may hold API keys of their own (`/user-api-keys`, `/team-api-keys`). */
  allow_user_api_keys: z.boolean(),
  allow_team_api_keys: z.boolean(),
  default_language: defaultLanguageSchema,
  ...trustFields,
  /** [GO] Days audit entries are kept before the pruner deletes them; null or absent: kept for good. */
  audit_log_retention_days: auditRetentionSchema.optional(),
  /** [GO] Whether each audit entry is also sent as an `audit_log.entry_created` webhook event. */
  audit_log_webhooks: z.boolean().optional(),
  /** [GO] Whether a sign-in from a device the user has not used before e-mails them; absent: on. */
  new_device_notice_enabled: z.boolean().optional(),
  /** [GO] Where our pages load the challenge widget's script from; null or absent: Cloudflare's Turnstile. */
  bot_protection_script_url: httpUrlSchema.nullable().optional(),
  /** The project's logos (top-level `logo_url`, … on the wire, as Stack has them); absent: none. */
  logo_url: z.string().nullable().optional(),
  logo_full_url: z.string().nullable().optional(),
  logo_dark_mode_url: z.string().nullable().optional(),
  logo_full_dark_mode_url: z.string().nullable().optional(),
});

export type ProjectConfig = z.output<typeof projectConfigSchema>;

/** Defaults for new projects (WIRE.md §4.13). */
export const DEFAULT_PROJECT_CONFIG: ProjectConfig = {
  sign_up_enabled: true,
  credential_enabled: true,
  magic_link_enabled: false,
  passkey_enabled: false,
  client_team_creation_enabled: false,
  client_user_deletion_enabled: false,
  allow_localhost: true,
  create_team_on_sign_up: false,
  domains: [],
  oauth_providers: [],
  email_config: { type: "shared" },
  team_creator_default_permissions: [{ id: "team_admin" }],
  team_member_default_permissions: [{ id: "team_member" }],
  user_default_permissions: [],
  oauth_account_merge_strategy: "link_method",
  require_publishable_client_key: false,
  refresh_token_rotation: false,
  allow_user_api_keys: false,
  allow_team_api_keys: false,
  default_language: null,
  password_breach_check: "list",
  password_breach_range_url: null,
  password_min_strength: null,
  access_token_claims: null,
  bot_protection: "off",
  bot_protection_site_key: null,
  bot_protection_secret: null,
  bot_protection_verify_url: null,
};

/**
 * A change of configuration: any writable key; keys not sent keep their values, lists are replaced whole. Read-only
 * keys (`id`, `enabled_oauth_providers`, …) are unknown here, so sending one is a SCHEMA_ERROR.
 */
export const projectConfigUpdateSchema = z.strictObject({
  sign_up_enabled: z.boolean().optional(),
  credential_enabled: z.boolean().optional(),
  magic_link_enabled: z.boolean().optional(),
  passkey_enabled: z.boolean().optional(),
  client_team_creation_enabled: z.boolean().optional(),
  client_user_deletion_enabled: z.boolean().optional(),
  allow_localhost: z.boolean().optional(),
  create_team_on_sign_up: z.boolean().optional(),
  domains: z.array(trustedDomainSchema).max(100).optional(),
  oauth_providers: z
    .array(oauthProviderWriteSchema)
    .refine((list) => new Set(list.map((p) => p.id)).size === list.length, "must not name a provider twice")
    .optional(),
  email_config: emailConfigSchema.optional(),
  team_creator_default_permissions: z.array(permissionRefSchema).max(100).optional(),
  team_member_default_permissions: z.array(permissionRefSchema).max(100).optional(),
  user_default_permissions: z.array(permissionRefSchema).max(100).optional(),
  oauth_account_merge_strategy: oauthAccountMergeStrategySchema.optional(),
  require_publishable_client_key: z.boolean().optional(),
  refresh_token_rotation: z.boolean().optional(),
  allow_user_api_keys: z.boolean().optional(),
  allow_team_api_keys: z.boolean().optional(),
  default_language: defaultLanguageSchema.optional(),
  password_breach_check: trustFields.password_breach_check.optional(),
  password_breach_range_url: trustFields.password_breach_range_url.optional(),
  password_min_strength: trustFields.password_min_strength.optional(),
  access_token_claims: trustFields.access_token_claims.optional(),
  bot_protection: trustFields.bot_protection.optional(),
  bot_protection_site_key: trustFields.bot_protection_site_key.optional(),
  bot_protection_secret: trustFields.bot_protection_secret.optional(),
  bot_protection_verify_url: trustFields.bot_protection_verify_url.optional(),
  audit_log_retention_days: auditRetentionSchema.optional(),
  audit_log_webhooks: z.boolean().optional(),
  new_device_notice_enabled: z.boolean().optional(),
  bot_protection_script_url: httpUrlSchema.nullable().optional(),
});

export type ProjectConfigUpdate = z.output<typeof projectConfigUpdateSchema>;

const projectDisplayNameSchema = z.string().min(1).max(256);

/** Stack's bound on an image sent inline (its `MAX_IMAGE_SIZE_BASE64_BYTES`). */
export const MAX_PROJECT_LOGO_LENGTH = 1_000_000;
const INLINE_IMAGE = /^data:image\/(png|jpeg|gif|webp|avif|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * A project logo (Stack's `logo_url` family): an https URL, or an inline base64 image. Pages put it in an `<img>`,
 * where neither can run script; plain http would be mixed content on an https page, and other schemes
 * (`javascript:`, `file:`) have no business in a logo.
 */
const httpsUrlSchema = z.url({ protocol: /^https$/ });
const projectLogoSchema = z
  .string()
  .max(MAX_PROJECT_LOGO_LENGTH)
  .refine(
    (value) => INLINE_IMAGE.test(value) || (!/\s/.test(value) && httpsUrlSchema.safeParse(value).success),
    "must be an https URL or a data:image/…;base64 URL",
  )
  .nullable();

export const PROJECT_LOGO_KEYS = [
  "logo_url",
  "logo_full_url",
  "logo_dark_mode_url",
  "logo_full_dark_mode_url",
] as const;
export type ProjectLogoKey = (typeof PROJECT_LOGO_KEYS)[number];
export type ProjectLogos = Record<ProjectLogoKey, string | null>;

const projectLogoFields = {
  logo_url: projectLogoSchema.optional(),
  logo_full_url: projectLogoSchema.optional(),
  logo_dark_mode_url: projectLogoSchema.optional(),
  logo_full_dark_mode_url: projectLogoSchema.optional(),
};
const logoViewFields = {
  logo_url: z.string().nullable(),
  logo_full_url: z.string().nullable(),
  logo_dark_mode_url: z.string().nullable(),
  logo_full_dark_mode_url: z.string().nullable(),
};

const projectSettingsFields = {
  description: z.string().max(4096).nullable().optional(),
  is_production_mode: z.boolean().optional(),
  ...projectLogoFields,
  config: projectConfigUpdateSchema.optional(),
};

/** `PATCH /projects/current`: every field optional; an empty body changes nothing. */
export const projectUpdateBodySchema = z
  .strictObject({ display_name: projectDisplayNameSchema.optional(), ...projectSettingsFields })
  .default({});

/** `POST /internal/projects`: the same settings, plus the name and the internal-project team that will own it. */
export const projectCreateBodySchema = z.strictObject({
  display_name: projectDisplayNameSchema,
  owner_team_id: z.uuid(),
  ...projectSettingsFields,
});

export type ProjectUpdateBody = z.output<typeof projectUpdateBodySchema>;

const idRef = z.object({ id: z.string() });
const domainView = z.object({ domain: z.string(), handler_path: z.string() });

/**
 * What client and server callers see of a project; UI components read it to choose sign-in methods. **[GO]** The
 * logos too (Stack shows them to admins only): our pages put the logo on the sign-in card.
 */
export const projectClientViewSchema = z
  .object({
    id: z.string(),
    display_name: z.string(),
    ...logoViewFields,
    config: z.object({
      sign_up_enabled: z.boolean(),
      credential_enabled: z.boolean(),
      magic_link_enabled: z.boolean(),
      passkey_enabled: z.boolean(),
      client_team_creation_enabled: z.boolean(),
      client_user_deletion_enabled: z.boolean(),
      allow_user_api_keys: z.boolean(),
      allow_team_api_keys: z.boolean(),
      oauth_providers: z.array(idRef),
      enabled_oauth_providers: z.array(idRef),
      domains: z.array(domainView),
      /** [GO] The Turnstile site key our pages render the widget with; null when bot protection is off. */
      bot_challenge_site_key: z.string().nullable().optional(),
      /** [GO] The widget script our pages load while bot protection is on (Turnstile's API: `turnstile.render`). */
      bot_challenge_script_url: z.string().optional(),
    }),
  })
  .meta({ id: "ProjectClientView" });

export type ProjectClientView = z.output<typeof projectClientViewSchema>;

/**
 * What admin callers see: every setting, secrets in clear (the admin SDK reads them back), the read-only keys, and
 * **[GO]** `production_mode_errors`, the §7 messages the project would fail with in production mode, so a dashboard
 * can show them before the switch.
 */
export const projectAdminViewSchema = z
  .object({
    id: z.string(),
    display_name: z.string(),
    description: z.string().nullable(),
    created_at_millis: z.number(),
    user_count: z.number().int(),
    is_production_mode: z.boolean(),
    owner_team_id: z.string().nullable(),
    ...logoViewFields,
    config: z.object({
      id: z.string(),
      legacy_global_jwt_signing: z.literal(false),
      sign_up_enabled: z.boolean(),
      credential_enabled: z.boolean(),
      magic_link_enabled: z.boolean(),
      passkey_enabled: z.boolean(),
      client_team_creation_enabled: z.boolean(),
      client_user_deletion_enabled: z.boolean(),
      allow_user_api_keys: z.boolean(),
      allow_team_api_keys: z.boolean(),
      allow_localhost: z.boolean(),
      create_team_on_sign_up: z.boolean(),
      domains: z.array(domainView),
      oauth_providers: z.array(
        z.object({
          id: z.string(),
          provider_config_id: z.string(),
          type: z.enum(["shared", "standard"]),
          enabled: z.boolean(),
          client_id: z.string().optional(),
          client_secret: z.string().optional(),
          facebook_config_id: z.string().optional(),
          microsoft_tenant_id: z.string().optional(),
          issuer_url: z.string().optional(),
        }),
      ),
      enabled_oauth_providers: z.array(idRef),
      email_config: emailConfigSchema,
      team_creator_default_permissions: z.array(idRef),
      team_member_default_permissions: z.array(idRef),
      user_default_permissions: z.array(idRef),
      oauth_account_merge_strategy: oauthAccountMergeStrategySchema,
      require_publishable_client_key: z.boolean(),
      refresh_token_rotation: z.boolean(),
      default_language: defaultLanguageSchema,
      ...trustFields,
      audit_log_retention_days: auditRetentionSchema,
      audit_log_webhooks: z.boolean(),
      new_device_notice_enabled: z.boolean(),
      bot_protection_script_url: httpUrlSchema.nullable(),
    }),
    production_mode_errors: z.array(z.string()),
  })
  .meta({ id: "ProjectAdminView" });

export type ProjectAdminView = z.output<typeof projectAdminViewSchema>;

/** `GET /projects/current`: the admin view for admin callers, the client view for everyone else. */
export const projectViewSchema = z.union([projectAdminViewSchema, projectClientViewSchema]);
