// The server's configuration: read from the environment once, validated, and passed down as a typed value.
import { resolve } from "node:path";
import { SHARED_OAUTH_PROVIDER_IDS } from "@gatehouse/contract";
import { z } from "zod";
import type { WorkersSetting } from "./cluster/worker-count.ts";
import type { DatabaseSettings } from "./db/client.ts";
import { parseSmtpUrl, type SmtpSettings } from "./email/mailer.ts";
import type { LogFormat, LogLevel } from "./logger.ts";
import type { OAuthCredentials } from "./oauth/directory.ts";
import { resources } from "./resources.ts";
import type { RateLimitSettings } from "./services/rate-limits.ts";
import type { SvixSettings } from "./webhooks/svix.ts";

/** The dashboard's build (apps/dashboard/dist in the repository, dashboard/ in the server artifact). */
export const DEFAULT_DASHBOARD_DIR = resources.dashboardDir;

const booleanFlag = z.enum(["true", "false"]).transform((v) => v === "true");
const optionalKey = (prefix: string) =>
  z
    .string()
    .regex(
      new RegExp(`^${prefix}_[0-9a-z]{20,}$`),
      `must look like ${prefix}_ followed by lowercase letters and digits`,
    )
    .optional();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8102),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  GATEHOUSE_DATA_DIR: z.string().min(1).default(".gatehouse"),
  GATEHOUSE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  GATEHOUSE_BASE_URL: z.url().optional(),
  GATEHOUSE_SMTP_URL: z.string().optional(),
  GATEHOUSE_RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  GATEHOUSE_TRUST_PROXY: booleanFlag.default(false),
  GATEHOUSE_RATE_LIMIT_IP: z.coerce.number().int().min(1).optional(),
  GATEHOUSE_RATE_LIMIT_SIGN_IN_EMAIL_IP: z.coerce.number().int().min(1).optional(),
  GATEHOUSE_RATE_LIMIT_SIGN_IN_EMAIL: z.coerce.number().int().min(1).optional(),
  GATEHOUSE_RATE_LIMIT_EMAIL_SEND: z.coerce.number().int().min(1).optional(),
  GATEHOUSE_RATE_LIMIT_CODE_IP: z.coerce.number().int().min(1).optional(),
  GATEHOUSE_RATE_LIMIT_MFA_USER: z.coerce.number().int().min(1).optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/./, "must be a redis:// or rediss:// URL")
    .optional(),
  GATEHOUSE_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, "must be 1 to 64 letters, digits, ':', '_', '.' or '-'")
    .optional(),
  GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS: booleanFlag.default(false),
  GATEHOUSE_SVIX_URL: z.url().optional(),
  GATEHOUSE_SVIX_API_KEY: z.string().min(1).optional(),
  GATEHOUSE_DEMO_PROJECT: z.enum(["on", "off"]).default("off"),
  GATEHOUSE_DEMO_URL: z.url().optional(),
  GATEHOUSE_DEVELOPMENT_OAUTH: z.string().optional(),
  /** [GO] DNS resolvers (comma-separated `host` or `host:port`) for SSO domain verification; the system's if unset. */
  GATEHOUSE_SSO_DNS_SERVERS: z.string().optional(),
  /** SSO identity providers (OIDC discovery, JWKS, token, userinfo; SAML metadata URLs) may be private addresses. */
  GATEHOUSE_SSO_ALLOW_PRIVATE_URLS: booleanFlag.default(false),
  GATEHOUSE_DASHBOARD_DIR: z.string().min(1).optional(),
  GATEHOUSE_ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  GATEHOUSE_WORKERS: z
    .union(
      [z.literal("auto"), z.coerce.number().int().min(1).max(256)],
      "must be a number of processes or auto",
    )
    .default(1),
  GATEHOUSE_DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  GATEHOUSE_DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  GATEHOUSE_DB_IDLE_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  GATEHOUSE_DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  GATEHOUSE_DB_STARTUP_WAIT_MS: z.coerce.number().int().min(0).default(60_000),
  GATEHOUSE_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  GATEHOUSE_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default("gatehouse"),
  GATEHOUSE_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  GATEHOUSE_LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  NODE_ENV: z.enum(["development", "production", "test"]).optional(),
  STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: optionalKey("pck"),
  STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY: optionalKey("ssk"),
  STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY: optionalKey("sak"),
  STACK_SEED_INTERNAL_PROJECT_SIGN_UP_ENABLED: booleanFlag.optional(),
  STACK_SEED_INTERNAL_PROJECT_OTP_ENABLED: booleanFlag.optional(),
  STACK_SEED_INTERNAL_PROJECT_ALLOW_LOCALHOST: booleanFlag.optional(),
  STACK_SEED_INTERNAL_PROJECT_OAUTH_PROVIDERS: z.string().optional(),
  STACK_SEED_INTERNAL_PROJECT_USER_EMAIL: z.email().optional(),
  STACK_SEED_INTERNAL_PROJECT_USER_PASSWORD: z.string().min(8).max(70).optional(),
  STACK_SEED_INTERNAL_PROJECT_USER_INTERNAL_ACCESS: booleanFlag.optional(),
});

export type SeedSettings = {
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  signUpEnabled?: boolean;
  otpEnabled?: boolean;
  allowLocalhost?: boolean;
  oauthProviders?: string[];
  /** The first operator account, created once if no user signs in with this address yet. */
  user?: { email: string; password?: string; internalAccess: boolean };
};

export type Config = {
  port: number;
  baseUrl: string;
  /** A postgres:// URL, or undefined for the embedded PGlite database in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Given by the operator; otherwise generated on first start and kept in `dataDir`. */
  secret: string | undefined;
  /** The instance's SMTP server (`smtp://user:pass@host:587?from=…`); unset keeps e-mails in the dev inbox. */
  smtp: SmtpSettings | undefined;
  rateLimits: RateLimitSettings;
  /** Count rate limits in this Redis instead of the database (for very high rates). */
  redisUrl: string | undefined;
  /** GATEHOUSE_REDIS_PREFIX: the start of every key this install writes to Redis; unset, derived from the database. */
  redisPrefix: string | undefined;
  /** Behind a reverse proxy: take the client IP from the first X-Forwarded-For address. */
  trustProxy: boolean;
  /** Development mode adds error text to 500 answers; never on in production. */
  development: boolean;
  seed: SeedSettings;
  /** Create the demo app's project (`npm start` runs the demo beside the server). */
  demoProject: boolean;
  /** Where the demo app runs: the demo project's trusted domain when it is created. */
  demoUrl: string | undefined;
  /** The dashboard's built files, served under /dashboard (an absolute path). */
  dashboardDir: string;
  /** Days analytics events (page views, clicks) are kept before the pruner deletes them. */
  analyticsRetentionDays: number;
  /** Credentials of shared OAuth providers, by provider id. */
  sharedOAuth: Record<string, OAuthCredentials>;
  /**
   * GATEHOUSE_DEVELOPMENT_OAUTH: the projects (ids, or `*` for every project but `internal`) whose shared providers
   * without instance credentials fall back to the development provider's test identities. Empty by default: a
   * stand-in page where anyone types any identity must be asked for, never offered on its own.
   */
  developmentOAuth: string[];
  /** GATEHOUSE_SSO_DNS_SERVERS: where SSO domain verification looks TXT records up (empty: the system's). */
  ssoDnsServers: string[];
  /** GATEHOUSE_SSO_ALLOW_PRIVATE_URLS: SSO identity providers may be loopback, private or link-local addresses. */
  ssoAllowPrivateUrls: boolean;
  /** GATEHOUSE_WORKERS: server processes on the port (cluster/), `auto` one per core; PGlite always runs one. */
  workers: WorkersSetting;
  /** The PostgreSQL pool (ignored on PGlite); timeouts in milliseconds, 0 turns a timeout off. */
  database: DatabaseSettings;
  /** /metrics: behind a bearer token on the API port, and/or on a port of its own; neither: not served. */
  metrics: { token: string | undefined; port: number | undefined };
  /** OpenTelemetry traces go to this OTLP/HTTP endpoint; unset: no tracing SDK is even loaded. */
  tracing: { endpoint: string; serviceName: string } | undefined;
  /** Unset format: pretty when stdout is a terminal, JSON otherwise (the logger decides, where stdout is known). */
  log: { level: LogLevel; format: LogFormat | undefined };
  webhooks: {
    /** Webhooks may go to loopback, private and link-local addresses (for development and tests). */
    allowPrivateUrls: boolean;
    /** Events go to this Svix server instead of the built-in delivery. */
    svix: SvixSettings | undefined;
  };
};

export class ConfigError extends Error {}

/**
 * The instance's own OAuth credentials for shared providers (WIRE.md §7): GATEHOUSE_OAUTH_<PROVIDER>_CLIENT_ID and
 * _CLIENT_SECRET, both or neither. A shared provider without them is unavailable, unless GATEHOUSE_DEVELOPMENT_OAUTH
 * lets the development provider stand in for it.
 */
function sharedOAuthCredentials(env: Record<string, string | undefined>): Record<string, OAuthCredentials> {
  const credentials: Record<string, OAuthCredentials> = {};
  for (const id of SHARED_OAUTH_PROVIDER_IDS) {
    const prefix = `GATEHOUSE_OAUTH_${id.toUpperCase()}_CLIENT_`;
    const clientId = env[`${prefix}ID`];
    const clientSecret = env[`${prefix}SECRET`];
    if (clientId && clientSecret) credentials[id] = { clientId, clientSecret };
    else if (clientId || clientSecret) {
      throw new ConfigError(`Invalid configuration:\n  ${prefix}ID and ${prefix}SECRET must be set together`);
    }
  }
  return credentials;
}

/**
 * The comma list of GATEHOUSE_DEVELOPMENT_OAUTH. Refused outright with NODE_ENV=production: test identities sign
 * anyone in without a check, so a production server must not start with them rather than quietly ignore the switch.
 */
function developmentOAuthProjects(value: string | undefined, nodeEnv: string | undefined): string[] {
  const projects = (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (projects.length > 0 && nodeEnv === "production") {
    throw new ConfigError(
      "Invalid configuration:\n  GATEHOUSE_DEVELOPMENT_OAUTH: the development OAuth provider is never available with NODE_ENV=production",
    );
  }
  return projects;
}

function smtpSettings(url: string): SmtpSettings {
  try {
    return parseSmtpUrl(url);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  GATEHOUSE_SMTP_URL: ${(error as Error).message}`);
  }
}

/** Both Svix variables, or neither: one alone is a mistake worth stopping for. */
function svixSettings(url: string | undefined, apiKey: string | undefined): SvixSettings | undefined {
  if (url && apiKey) return { url: url.replace(/\/+$/, ""), apiKey };
  if (url || apiKey) {
    throw new ConfigError(
      "Invalid configuration:\n  GATEHOUSE_SVIX_URL and GATEHOUSE_SVIX_API_KEY must be set together",
    );
  }
  return undefined;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    baseUrl: (e.GATEHOUSE_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    databaseUrl: e.DATABASE_URL,
    dataDir: e.GATEHOUSE_DATA_DIR,
    secret: e.GATEHOUSE_SECRET,
    smtp: e.GATEHOUSE_SMTP_URL ? smtpSettings(e.GATEHOUSE_SMTP_URL) : undefined,
    development: e.NODE_ENV === "development",
    trustProxy: e.GATEHOUSE_TRUST_PROXY,
    demoProject: e.GATEHOUSE_DEMO_PROJECT === "on",
    demoUrl: e.GATEHOUSE_DEMO_URL,
    dashboardDir: resolve(e.GATEHOUSE_DASHBOARD_DIR ?? DEFAULT_DASHBOARD_DIR),
    analyticsRetentionDays: e.GATEHOUSE_ANALYTICS_RETENTION_DAYS,
    workers: e.GATEHOUSE_WORKERS,
    log: { level: e.GATEHOUSE_LOG_LEVEL, format: e.GATEHOUSE_LOG_FORMAT },
    database: {
      poolSize: e.GATEHOUSE_DB_POOL_SIZE,
      statementTimeoutMs: e.GATEHOUSE_DB_STATEMENT_TIMEOUT_MS,
      idleTimeoutMs: e.GATEHOUSE_DB_IDLE_TIMEOUT_MS,
      connectTimeoutMs: e.GATEHOUSE_DB_CONNECT_TIMEOUT_MS,
      startupWaitMs: e.GATEHOUSE_DB_STARTUP_WAIT_MS,
    },
    metrics: { token: e.GATEHOUSE_METRICS_TOKEN, port: e.GATEHOUSE_METRICS_PORT },
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME }
      : undefined,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.GATEHOUSE_REDIS_PREFIX,
    rateLimits: {
      enabled: e.GATEHOUSE_RATE_LIMITS === "on",
      limits: {
        ip: e.GATEHOUSE_RATE_LIMIT_IP,
        sign_in_email_ip: e.GATEHOUSE_RATE_LIMIT_SIGN_IN_EMAIL_IP,
        sign_in_email: e.GATEHOUSE_RATE_LIMIT_SIGN_IN_EMAIL,
        email_send: e.GATEHOUSE_RATE_LIMIT_EMAIL_SEND,
        code_ip: e.GATEHOUSE_RATE_LIMIT_CODE_IP,
        mfa_user: e.GATEHOUSE_RATE_LIMIT_MFA_USER,
      },
    },
    sharedOAuth: sharedOAuthCredentials(env),
    developmentOAuth: developmentOAuthProjects(e.GATEHOUSE_DEVELOPMENT_OAUTH, e.NODE_ENV),
    ssoDnsServers: (e.GATEHOUSE_SSO_DNS_SERVERS ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    ssoAllowPrivateUrls: e.GATEHOUSE_SSO_ALLOW_PRIVATE_URLS,
    webhooks: {
      allowPrivateUrls: e.GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS,
      svix: svixSettings(e.GATEHOUSE_SVIX_URL, e.GATEHOUSE_SVIX_API_KEY),
    },
    seed: {
      publishableClientKey: e.STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY,
      secretServerKey: e.STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY,
      superSecretAdminKey: e.STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY,
      signUpEnabled: e.STACK_SEED_INTERNAL_PROJECT_SIGN_UP_ENABLED,
      otpEnabled: e.STACK_SEED_INTERNAL_PROJECT_OTP_ENABLED,
      allowLocalhost: e.STACK_SEED_INTERNAL_PROJECT_ALLOW_LOCALHOST,
      oauthProviders: e.STACK_SEED_INTERNAL_PROJECT_OAUTH_PROVIDERS?.split(",")
        .map((s) => s.trim())
        .filter(Boolean),
      user: e.STACK_SEED_INTERNAL_PROJECT_USER_EMAIL
        ? {
            email: e.STACK_SEED_INTERNAL_PROJECT_USER_EMAIL,
            password: e.STACK_SEED_INTERNAL_PROJECT_USER_PASSWORD,
            internalAccess: e.STACK_SEED_INTERNAL_PROJECT_USER_INTERNAL_ACCESS ?? false,
          }
        : undefined,
    },
  };
}
