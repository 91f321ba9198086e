// Which of Stack Auth's config keys Gatehouse acts on, and how each maps onto our ProjectConfig: rendering a project's
// config in Stack's format, and turning a changed key back into a ProjectConfigUpdate. Keys not listed here are
// stored and rendered, and reported as unsupported.
import {
  DEFAULT_PROJECT_CONFIG,
  type ProjectConfig,
  type ProjectConfigUpdate,
  projectConfigUpdateSchema,
} from "@gatehouse/contract";
import { TextError } from "../text-error.ts";
import { type ConfigObject, deepMerge, getPath, isPlainObject, setPath } from "./config-format.ts";

type Facet = {
  /** The dotted path in Stack's config; records (trusted domains, providers…) map as a whole. */
  path: string;
  /** `overrides`: the merged overrides, where record ids come from. */
  render(config: ProjectConfig, overrides: ConfigObject): unknown;
  /** The change for a new value at `path`; `undefined` means the key was removed (our default applies). */
  apply(value: unknown): ProjectConfigUpdate;
};

function invalid(path: string, expected: string): never {
  throw new TextError(400, `Invalid config: ${path} must be ${expected}.`);
}

function flag(path: string, key: keyof ProjectConfig & keyof ProjectConfigUpdate): Facet {
  return {
    path,
    render: (c) => c[key],
    apply(value) {
      if (value === undefined || value === null) return { [key]: DEFAULT_PROJECT_CONFIG[key] };
      if (typeof value !== "boolean") invalid(path, "a boolean");
      return { [key]: value };
    },
  };
}

/** A record of entries whose value is an object; `null` entries are deleted ones. */
function recordEntries(path: string, value: unknown): [string, ConfigObject][] {
  if (value === undefined || value === null) return [];
  if (!isPlainObject(value)) invalid(path, "an object");
  return Object.entries(value).flatMap(([id, entry]) => {
    if (entry === null || entry === undefined) return [];
    if (!isPlainObject(entry)) invalid(`${path}.${id}`, "an object");
    return [[id, entry] as [string, ConfigObject]];
  });
}

/** `rbac.defaultPermissions.*`: a record of permission id → true. */
function permissionList(
  path: string,
  key: "team_creator_default_permissions" | "team_member_default_permissions",
) {
  return {
    path,
    render: (c: ProjectConfig) => Object.fromEntries(c[key].map(({ id }) => [id, true])),
    apply(value: unknown): ProjectConfigUpdate {
      if (value === undefined || value === null) return { [key]: DEFAULT_PROJECT_CONFIG[key] };
      if (!isPlainObject(value)) invalid(path, "an object");
      return { [key]: Object.entries(value).flatMap(([id, on]) => (on ? [{ id }] : [])) };
    },
  } satisfies Facet;
}

const optionalText = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

const FACETS: Facet[] = [
  flag("auth.allowSignUp", "sign_up_enabled"),
  flag("auth.password.allowSignIn", "credential_enabled"),
  flag("auth.otp.allowSignIn", "magic_link_enabled"),
  flag("auth.passkey.allowSignIn", "passkey_enabled"),
  flag("teams.createPersonalTeamOnSignUp", "create_team_on_sign_up"),
  flag("teams.allowClientTeamCreation", "client_team_creation_enabled"),
  flag("users.allowClientUserDeletion", "client_user_deletion_enabled"),
  flag("domains.allowLocalhost", "allow_localhost"),
  flag("project.requirePublishableClientKey", "require_publishable_client_key"),
  {
    path: "auth.oauth.accountMergeStrategy",
    render: (c) => c.oauth_account_merge_strategy,
    apply(value) {
      if (value === undefined || value === null)
        return { oauth_account_merge_strategy: DEFAULT_PROJECT_CONFIG.oauth_account_merge_strategy };
      if (value !== "link_method" && value !== "raise_error" && value !== "allow_duplicates")
        invalid("auth.oauth.accountMergeStrategy", "link_method, raise_error or allow_duplicates");
      return { oauth_account_merge_strategy: value };
    },
  },
  {
    // Keyed by an id of the caller's choosing in Stack: an override's id where one names the domain, else its index.
    path: "domains.trustedDomains",
    render: (c, overrides) => {
      const named = recordEntries("domains.trustedDomains", getPath(overrides, "domains.trustedDomains"));
      const idOf = (domain: string, i: number) =>
        named.find(([, e]) => e.baseUrl === domain)?.[0] ?? String(i);
      return Object.fromEntries(
        c.domains.map((d, i) => [idOf(d.domain, i), { baseUrl: d.domain, handlerPath: d.handler_path }]),
      );
    },
    apply(value) {
      const domains = new Map<string, string>();
      for (const [, e] of recordEntries("domains.trustedDomains", value)) {
        // One entry per domain: the last one naming it wins, as a later override would.
        if (typeof e.baseUrl !== "string") continue;
        domains.delete(e.baseUrl);
        domains.set(e.baseUrl, optionalText(e.handlerPath) ?? "/handler");
      }
      return { domains: [...domains].map(([domain, handler_path]) => ({ domain, handler_path })) };
    },
  },
  {
    path: "auth.oauth.providers",
    render: (c) =>
      Object.fromEntries(
        c.oauth_providers.map((p) => [
          p.id,
          {
            type: p.id,
            isShared: p.type === "shared",
            allowSignIn: p.enabled,
            allowConnectedAccounts: true,
            clientId: p.client_id,
            clientSecret: p.client_secret,
            facebookConfigId: p.facebook_config_id,
            microsoftTenantId: p.microsoft_tenant_id,
          },
        ]),
      ),
    apply(value) {
      const entries = recordEntries("auth.oauth.providers", value);
      return {
        oauth_providers: entries.map(([id, e]) => ({
          id: optionalText(e.type) ?? id,
          type: e.isShared === false ? ("standard" as const) : ("shared" as const),
          enabled: e.allowSignIn !== false,
          client_id: optionalText(e.clientId),
          client_secret: optionalText(e.clientSecret),
          facebook_config_id: optionalText(e.facebookConfigId),
          microsoft_tenant_id: optionalText(e.microsoftTenantId),
        })),
      };
    },
  },
  {
    path: "emails.server",
    render: (c) => {
      const e = c.email_config;
      if (e.type === "shared") return { isShared: true, provider: "smtp" };
      return {
        isShared: false,
        provider: "smtp",
        host: e.host,
        port: e.port,
        username: e.username,
        password: e.password,
        senderName: e.sender_name,
        senderEmail: e.sender_email,
      };
    },
    apply(value) {
      if (value === undefined || value === null || (isPlainObject(value) && value.isShared !== false))
        return { email_config: { type: "shared" } };
      if (!isPlainObject(value)) invalid("emails.server", "an object");
      return {
        email_config: {
          type: "standard",
          host: value.host as string,
          port: value.port as number,
          username: value.username as string,
          password: value.password as string,
          sender_name: value.senderName as string,
          sender_email: value.senderEmail as string,
        },
      };
    },
  },
  permissionList("rbac.defaultPermissions.teamCreator", "team_creator_default_permissions"),
  permissionList("rbac.defaultPermissions.teamMember", "team_member_default_permissions"),
];

export const SUPPORTED_CONFIG_PATHS = FACETS.map((f) => f.path);

/** The facets that are records of entries keyed by id. */
const RECORD_PATHS = new Set([
  "domains.trustedDomains",
  "auth.oauth.providers",
  "rbac.defaultPermissions.teamCreator",
  "rbac.defaultPermissions.teamMember",
]);

/** Whether Gatehouse acts on a (leaf) key: it is a supported path or lies below one. */
export const isSupportedKey = (key: string) =>
  SUPPORTED_CONFIG_PATHS.some((path) => key === path || key.startsWith(`${path}.`));

/** The supported keys of the project's configuration in Stack's nested format. */
export function renderSupported(
  config: ProjectConfig,
  overrides: ConfigObject,
  into: ConfigObject = {},
): ConfigObject {
  // Each supported key is replaced whole: the project's value is the truth, not a merge with the overrides.
  for (const facet of FACETS) setPath(into, facet.path, facet.render(config, overrides));
  return into;
}

/**
 * The ProjectConfig change for the supported keys whose value differs between the merged overrides `before` and
 * `after` a write. `rendered` is the project as it is (rendered with `before`'s record ids). A changed value is laid
 * over the rendered one; a removed value takes our default. Records (trusted domains, providers, default
 * permissions) change entry by entry: entries the overrides no longer name are dropped, the others are kept, so an
 * override naming one trusted domain adds it rather than replacing domains set from the dashboard. A value of the
 * wrong type is a 400.
 */
export function changesBetween(
  before: ConfigObject,
  after: ConfigObject,
  rendered: ConfigObject,
): ProjectConfigUpdate {
  const update: ProjectConfigUpdate = {};
  for (const facet of FACETS) {
    const previous = getPath(before, facet.path);
    const next = getPath(after, facet.path);
    if (JSON.stringify(previous) === JSON.stringify(next)) continue;
    const current = getPath(rendered, facet.path);
    let value: unknown;
    if (RECORD_PATHS.has(facet.path)) {
      const kept: ConfigObject = { ...(isPlainObject(current) ? current : {}) };
      const named = isPlainObject(next) ? next : {};
      for (const id of Object.keys(isPlainObject(previous) ? previous : {}))
        if (!(id in named)) delete kept[id];
      value = deepMerge(kept, next ?? {});
    } else {
      value = next === undefined ? undefined : deepMerge(current, next);
    }
    Object.assign(update, facet.apply(value));
  }
  const parsed = projectConfigUpdateSchema.safeParse(update);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TextError(400, `Invalid config: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  return parsed.data;
}
