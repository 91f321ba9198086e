// Project configuration (WIRE.md §4.13, §7): the stored settings, their defaults, and the client view.
import { z } from "zod";

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
] as const;

/** Providers that may use the instance's shared credentials. */
export const SHARED_OAUTH_PROVIDER_IDS = ["google", "github", "microsoft", "spotify"] as const;

export const oauthProviderConfigSchema = z.strictObject({
  id: z.string(),
  type: z.enum(["shared", "standard"]),
  enabled: z.boolean(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  facebook_config_id: z.string().optional(),
  microsoft_tenant_id: z.string().optional(),
});

export const trustedDomainSchema = z.strictObject({
  domain: z.string(),
  handler_path: z.string().startsWith("/").default("/handler"),
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

const permissionRefSchema = z.strictObject({ id: z.string() });

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
  oauth_account_merge_strategy: z.enum(["link_method", "raise_error", "allow_duplicates"]),
  require_publishable_client_key: z.boolean(),
  refresh_token_rotation: z.boolean(),
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
  oauth_account_merge_strategy: "link_method",
  require_publishable_client_key: false,
  refresh_token_rotation: false,
};

const idRef = z.object({ id: z.string() });

/** What client and server callers see of a project; UI components read it to choose sign-in methods. */
export const projectClientViewSchema = z
  .object({
    id: z.string(),
    display_name: z.string(),
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
      domains: z.array(z.object({ domain: z.string(), handler_path: z.string() })),
    }),
  })
  .meta({ id: "ProjectClientView" });

export type ProjectClientView = z.output<typeof projectClientViewSchema>;
