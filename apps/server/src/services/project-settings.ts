// Project settings (WIRE.md §4.13, §7): merging a configuration change into the stored configuration, the checks
// that need more than the body's schema, the production-mode rules, and the two views of a project. Pure functions:
// services/projects.ts reads and writes the rows (and seals the secrets) around them.
import {
  DEFAULT_PROJECT_CONFIG,
  GENERIC_OIDC_PROVIDER_ID,
  KnownErrors,
  PROJECT_LOGO_KEYS,
  type ProjectAdminView,
  type ProjectClientView,
  type ProjectConfig,
  type ProjectConfigUpdate,
  type ProjectLogos,
  SHARED_OAUTH_PROVIDER_IDS,
  STANDARD_OAUTH_PROVIDER_IDS,
  TURNSTILE_SCRIPT_URL,
} from "@gatehouse/contract";
import type { ProjectRow } from "../db/projects-repo.ts";
import { isSystemPermission } from "./permissions.ts";
import { isLocalhost } from "./trusted-urls.ts";

/**
 * The configuration after a change: keys sent replace their values (lists as a whole), the others keep theirs. Keys
 * missing from an old stored configuration get their defaults.
 */
export function mergeConfig(current: ProjectConfig, update: ProjectConfigUpdate = {}): ProjectConfig {
  const sent = Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_PROJECT_CONFIG, ...current, ...sent } as ProjectConfig;
}

const includes = (ids: readonly string[], id: string) => ids.includes(id);

/**
 * What the schema cannot know: provider ids and the shared-keys list, and the permission ids of the default lists
 * (system ids, or `definedIds`: the project's definitions). Only the lists sent are checked, so a default naming a
 * since-deleted definition does not block unrelated changes.
 */
export function assertKnownReferences(
  update: ProjectConfigUpdate,
  definedIds: ReadonlySet<string>,
  projectDefinedIds: ReadonlySet<string> = new Set(),
): void {
  for (const provider of update.oauth_providers ?? []) {
    const provider_id = provider.id;
    if (provider.type === "shared" && !includes(SHARED_OAUTH_PROVIDER_IDS, provider_id)) {
      throw KnownErrors.INVALID_SHARED_OAUTH_PROVIDER_ID({ provider_id });
    }
    const standard =
      includes(STANDARD_OAUTH_PROVIDER_IDS, provider_id) || GENERIC_OIDC_PROVIDER_ID.test(provider_id);
    if (provider.type === "standard" && !standard) {
      throw KnownErrors.INVALID_STANDARD_OAUTH_PROVIDER_ID({ provider_id });
    }
  }
  const defaults = [
    ...(update.team_creator_default_permissions ?? []),
    ...(update.team_member_default_permissions ?? []),
  ];
  for (const { id } of defaults) {
    if (!isSystemPermission(id) && !definedIds.has(id))
      throw KnownErrors.PERMISSION_NOT_FOUND({ permission_id: id });
  }
  // Sign-up defaults are project permissions: neither system nor team ids.
  for (const { id } of update.user_default_permissions ?? []) {
    if (!projectDefinedIds.has(id)) throw KnownErrors.PERMISSION_NOT_FOUND({ permission_id: id });
  }
}

const LOCALHOST_NOT_ALLOWED =
  "Localhost is not allowed in production mode, turn off Allow localhost in project settings";

const isIpAddress = (hostname: string) => /^\d+\.\d+\.\d+\.\d+$/.test(hostname) || hostname.startsWith("[");

/** The domain rules of production mode, in the order of WIRE.md §7, each with the start of its message. */
const DOMAIN_RULES: { broken: (url: URL) => boolean; message: string }[] = [
  {
    broken: (url) => isLocalhost(url.hostname),
    message: "Localhost domains are not allowed to be trusted in production mode: ",
  },
  {
    broken: (url) => isIpAddress(url.hostname),
    message: "Direct IPs are not valid for trusted domains in production mode: ",
  },
  { broken: (url) => url.protocol === "http:", message: "Trusted domains should be HTTPS: " },
];

function parseDomain(domain: string): URL | undefined {
  try {
    return new URL(domain);
  } catch {
    return undefined;
  }
}

/**
 * Every production-mode rule (WIRE.md §7) the configuration breaks, as its message: `allow_localhost` first, then
 * each domain rule in the table's order, naming the domains that break it in their list order. Each rule is checked
 * on its own, so `http://127.0.0.1` breaks three.
 */
export function productionModeErrors(config: ProjectConfig): string[] {
  const errors = config.allow_localhost ? [LOCALHOST_NOT_ALLOWED] : [];
  const domains = config.domains.flatMap(({ domain }) => {
    const url = parseDomain(domain);
    return url ? [{ domain, url }] : [];
  });
  for (const rule of DOMAIN_RULES) {
    for (const { domain, url } of domains) if (rule.broken(url)) errors.push(`${rule.message}${domain}`);
  }
  return errors;
}

/** The project's logos, null where none is set (configurations stored before logos existed have none). */
const logosOf = (c: ProjectConfig): ProjectLogos =>
  Object.fromEntries(PROJECT_LOGO_KEYS.map((key) => [key, c[key] ?? null])) as ProjectLogos;

/** The client view (WIRE.md §4.13): only what sign-in screens need. Disabled providers are not revealed. */
export function projectClientView(project: ProjectRow): ProjectClientView {
  const c = project.config;
  const enabled = c.oauth_providers.filter((p) => p.enabled).map((p) => ({ id: p.id }));
  return {
    id: project.id,
    display_name: project.displayName,
    ...logosOf(c),
    config: {
      sign_up_enabled: c.sign_up_enabled,
      credential_enabled: c.credential_enabled,
      magic_link_enabled: c.magic_link_enabled,
      passkey_enabled: c.passkey_enabled,
      client_team_creation_enabled: c.client_team_creation_enabled,
      client_user_deletion_enabled: c.client_user_deletion_enabled,
      // `=== true`: configurations stored before these flags existed lack them.
      allow_user_api_keys: c.allow_user_api_keys === true,
      allow_team_api_keys: c.allow_team_api_keys === true,
      oauth_providers: enabled,
      enabled_oauth_providers: enabled,
      domains: c.domains.map((d) => ({ domain: d.domain, handler_path: d.handler_path })),
      // Only when on, so pages know to render the widget; the site key is public by design, the secret never here.
      ...(c.bot_protection && c.bot_protection !== "off"
        ? {
            bot_challenge_site_key: c.bot_protection_site_key ?? null,
            bot_challenge_script_url: c.bot_protection_script_url ?? TURNSTILE_SCRIPT_URL,
          }
        : {}),
    },
  };
}

/**
 * The admin view (WIRE.md §4.13): every setting with the read-only keys, and the production-mode problems. `config`
 * must be the project's configuration with its secrets opened: admins read them back.
 */
export function projectAdminView(
  project: ProjectRow,
  config: ProjectConfig,
  userCount: number,
): ProjectAdminView {
  const c = mergeConfig(config);
  return {
    id: project.id,
    display_name: project.displayName,
    description: project.description,
    created_at_millis: project.createdAt.getTime(),
    user_count: userCount,
    is_production_mode: project.isProductionMode,
    owner_team_id: project.ownerTeamId,
    ...logosOf(c),
    config: {
      // What clients see, then what only admins see; providers in full, secrets included.
      ...projectClientView({ ...project, config: c }).config,
      id: project.id,
      legacy_global_jwt_signing: false,
      allow_localhost: c.allow_localhost,
      create_team_on_sign_up: c.create_team_on_sign_up,
      oauth_providers: c.oauth_providers.map((p) => ({ ...p, provider_config_id: p.id })),
      email_config: c.email_config,
      team_creator_default_permissions: c.team_creator_default_permissions,
      team_member_default_permissions: c.team_member_default_permissions,
      user_default_permissions: c.user_default_permissions,
      oauth_account_merge_strategy: c.oauth_account_merge_strategy,
      require_publishable_client_key: c.require_publishable_client_key,
      refresh_token_rotation: c.refresh_token_rotation,
      // Stored before the setting existed: no default language.
      default_language: c.default_language ?? null,
      password_breach_check: c.password_breach_check,
      password_breach_range_url: c.password_breach_range_url,
      password_min_strength: c.password_min_strength,
      access_token_claims: c.access_token_claims,
      bot_protection: c.bot_protection,
      bot_protection_site_key: c.bot_protection_site_key,
      bot_protection_secret: c.bot_protection_secret,
      bot_protection_verify_url: c.bot_protection_verify_url,
      audit_log_retention_days: c.audit_log_retention_days ?? null,
      audit_log_webhooks: c.audit_log_webhooks === true,
      // On unless turned off, also for projects stored before the setting existed.
      new_device_notice_enabled: c.new_device_notice_enabled !== false,
      bot_protection_script_url: c.bot_protection_script_url ?? null,
    },
    production_mode_errors: productionModeErrors(c),
  };
}
