// loadConfig: defaults, derived values, and refusal of invalid environment variables with a ConfigError that
// names the variable.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_DASHBOARD_DIR, loadConfig } from "./config.ts";

const PCK = "pck_0123456789abcdefghjkmnpqrstvwxyz0123456789abc";
const SSK = "ssk_0123456789abcdefghjkmnpqrstvwxyz0123456789abc";
const SAK = "sak_0123456789abcdefghjkmnpqrstvwxyz0123456789abc";

/** The ConfigError loadConfig throws for `env`; fails the test when it throws nothing or something else. */
function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("loadConfig defaults", () => {
  it("gives the documented defaults for an empty environment", () => {
    expect(loadConfig({})).toEqual({
      port: 8102,
      baseUrl: "http://localhost:8102",
      databaseUrl: undefined,
      dataDir: ".gatehouse",
      secret: undefined,
      smtp: undefined,
      development: false,
      trustProxy: false,
      demoProject: false,
      dashboardDir: DEFAULT_DASHBOARD_DIR,
      analyticsRetentionDays: 30,
      rateLimits: {
        enabled: true,
        limits: {
          ip: undefined,
          sign_in_email_ip: undefined,
          sign_in_email: undefined,
          email_send: undefined,
          code_ip: undefined,
        },
      },
      seed: {
        publishableClientKey: undefined,
        secretServerKey: undefined,
        superSecretAdminKey: undefined,
        signUpEnabled: undefined,
        otpEnabled: undefined,
        allowLocalhost: undefined,
        oauthProviders: undefined,
        user: undefined,
      },
      webhooks: { allowPrivateUrls: false, svix: undefined },
      sharedOAuth: {},
      developmentOAuth: [],
      ssoDnsServers: [],
      ssoAllowPrivateUrls: false,
      workers: 1,
      log: { level: "info", format: undefined },
      database: {
        poolSize: 10,
        statementTimeoutMs: 30_000,
        idleTimeoutMs: 10_000,
        connectTimeoutMs: 5_000,
        startupWaitMs: 60_000,
      },
      metrics: { token: undefined, port: undefined },
      tracing: undefined,
    });
  });

  it("reads GATEHOUSE_WORKERS as a number of processes or auto, and refuses anything else", () => {
    expect(loadConfig({ GATEHOUSE_WORKERS: "3" }).workers).toBe(3);
    expect(loadConfig({ GATEHOUSE_WORKERS: "auto" }).workers).toBe("auto");
    for (const bad of ["0", "two", "1.5", "-1"]) {
      expect(configError({ GATEHOUSE_WORKERS: bad }).message).toMatch(/GATEHOUSE_WORKERS/);
    }
  });

  it("reads the pool, metrics and tracing settings, and refuses a short metrics token", () => {
    const config = loadConfig({
      GATEHOUSE_DB_POOL_SIZE: "25",
      GATEHOUSE_DB_STATEMENT_TIMEOUT_MS: "0",
      GATEHOUSE_DB_STARTUP_WAIT_MS: "5000",
      GATEHOUSE_METRICS_PORT: "9464",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
    });
    expect(config.database).toMatchObject({ poolSize: 25, statementTimeoutMs: 0, startupWaitMs: 5000 });
    expect(config.metrics).toEqual({ token: undefined, port: 9464 });
    expect(config.tracing).toEqual({ endpoint: "http://collector:4318", serviceName: "gatehouse" });
    expect(() => loadConfig({ GATEHOUSE_METRICS_TOKEN: "short" })).toThrow(/GATEHOUSE_METRICS_TOKEN/);
    expect(() => loadConfig({ GATEHOUSE_DB_POOL_SIZE: "0" })).toThrow(/GATEHOUSE_DB_POOL_SIZE/);
  });

  it("keeps analytics events GATEHOUSE_ANALYTICS_RETENTION_DAYS days, 30 unless set", () => {
    expect(loadConfig({ GATEHOUSE_ANALYTICS_RETENTION_DAYS: "7" }).analyticsRetentionDays).toBe(7);
    expect(() => loadConfig({ GATEHOUSE_ANALYTICS_RETENTION_DAYS: "0" })).toThrow(
      /GATEHOUSE_ANALYTICS_RETENTION_DAYS/,
    );
  });

  it("creates the demo app's project only when asked to (npm start asks)", () => {
    expect(loadConfig({ GATEHOUSE_DEMO_PROJECT: "on" }).demoProject).toBe(true);
    expect(() => loadConfig({ GATEHOUSE_DEMO_PROJECT: "yes" })).toThrow(/GATEHOUSE_DEMO_PROJECT/);
  });

  it("serves the dashboard from apps/dashboard/dist unless GATEHOUSE_DASHBOARD_DIR names another folder", () => {
    const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
    expect(DEFAULT_DASHBOARD_DIR).toBe(join(repoRoot, "apps", "dashboard", "dist"));
    expect(loadConfig({}).dashboardDir).toBe(join(repoRoot, "apps", "dashboard", "dist"));
    expect(loadConfig({ GATEHOUSE_DASHBOARD_DIR: "/srv/dashboard" }).dashboardDir).toBe("/srv/dashboard");
    // A relative folder is taken from the working directory, as the operator typed it there.
    expect(loadConfig({ GATEHOUSE_DASHBOARD_DIR: "build/dash" }).dashboardDir).toBe(resolve("build/dash"));
    expect(() => loadConfig({ GATEHOUSE_DASHBOARD_DIR: "" })).toThrow(/GATEHOUSE_DASHBOARD_DIR/);
  });

  it("reads the instance's OAuth apps for shared providers, id and secret together", () => {
    expect(
      loadConfig({
        GATEHOUSE_OAUTH_GITHUB_CLIENT_ID: "gh-id",
        GATEHOUSE_OAUTH_GITHUB_CLIENT_SECRET: "gh-secret",
        GATEHOUSE_OAUTH_DISCORD_CLIENT_ID: "not a shared provider: ignored",
      }).sharedOAuth,
    ).toEqual({ github: { clientId: "gh-id", clientSecret: "gh-secret" } });
    expect(() => loadConfig({ GATEHOUSE_OAUTH_GOOGLE_CLIENT_ID: "g" })).toThrow(
      /GATEHOUSE_OAUTH_GOOGLE_CLIENT_ID and GATEHOUSE_OAUTH_GOOGLE_CLIENT_SECRET must be set together/,
    );
  });

  it("turns the development OAuth provider on only for the projects named, and never with NODE_ENV=production", () => {
    expect(loadConfig({ GATEHOUSE_DEVELOPMENT_OAUTH: " demo, shop ," }).developmentOAuth).toEqual([
      "demo",
      "shop",
    ]);
    expect(loadConfig({ GATEHOUSE_DEVELOPMENT_OAUTH: "*" }).developmentOAuth).toEqual(["*"]);
    expect(loadConfig({ GATEHOUSE_DEVELOPMENT_OAUTH: "", NODE_ENV: "production" }).developmentOAuth).toEqual(
      [],
    );
    expect(() => loadConfig({ GATEHOUSE_DEVELOPMENT_OAUTH: "demo", NODE_ENV: "production" })).toThrow(
      /GATEHOUSE_DEVELOPMENT_OAUTH: the development OAuth provider is never available with NODE_ENV=production/,
    );
  });

  it("reads SSO's private-address switch apart from the webhooks' one", () => {
    expect(loadConfig({ GATEHOUSE_SSO_ALLOW_PRIVATE_URLS: "true" })).toMatchObject({
      ssoAllowPrivateUrls: true,
      webhooks: { allowPrivateUrls: false },
    });
    expect(loadConfig({ GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS: "true" })).toMatchObject({
      ssoAllowPrivateUrls: false,
      webhooks: { allowPrivateUrls: true },
    });
  });

  it("reads the webhook settings; the two Svix variables go together", () => {
    expect(
      loadConfig({
        GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS: "true",
        GATEHOUSE_SVIX_URL: "https://svix.example.com/",
        GATEHOUSE_SVIX_API_KEY: "sk_test",
      }).webhooks,
    ).toEqual({ allowPrivateUrls: true, svix: { url: "https://svix.example.com", apiKey: "sk_test" } });
    expect(() => loadConfig({ GATEHOUSE_SVIX_URL: "https://svix.example.com" })).toThrow(
      /GATEHOUSE_SVIX_URL and GATEHOUSE_SVIX_API_KEY must be set together/,
    );
    expect(() => loadConfig({ GATEHOUSE_SVIX_URL: "not a url", GATEHOUSE_SVIX_API_KEY: "k" })).toThrow(
      /GATEHOUSE_SVIX_URL/,
    );
  });

  it("reads the log level and format, and refuses others", () => {
    expect(loadConfig({ GATEHOUSE_LOG_LEVEL: "debug", GATEHOUSE_LOG_FORMAT: "pretty" }).log).toEqual({
      level: "debug",
      format: "pretty",
    });
    expect(loadConfig({ GATEHOUSE_LOG_LEVEL: "silent", GATEHOUSE_LOG_FORMAT: "json" }).log).toEqual({
      level: "silent",
      format: "json",
    });
    expect(configError({ GATEHOUSE_LOG_LEVEL: "verbose" }).message).toContain("GATEHOUSE_LOG_LEVEL");
    expect(configError({ GATEHOUSE_LOG_FORMAT: "text" }).message).toContain("GATEHOUSE_LOG_FORMAT");
  });

  it("treats variables set to undefined as unset", () => {
    const config = loadConfig({ PORT: undefined, DATABASE_URL: undefined, NODE_ENV: undefined });
    expect(config.port).toBe(8102);
    expect(config.databaseUrl).toBeUndefined();
  });

  it("ignores unrelated variables", () => {
    expect(loadConfig({ HOME: "/root", PATH: "/usr/bin" }).port).toBe(8102);
  });
});

describe("port and base URL", () => {
  it("derives the base URL from PORT", () => {
    const config = loadConfig({ PORT: "9000" });
    expect(config.port).toBe(9000);
    expect(config.baseUrl).toBe("http://localhost:9000");
  });

  it("accepts the ends of the port range", () => {
    expect(loadConfig({ PORT: "1" }).port).toBe(1);
    expect(loadConfig({ PORT: "65535" }).port).toBe(65535);
  });

  it.each(["abc", "70000", "0", "-1", "80.5", "65536"])("refuses PORT=%s", (port) => {
    const error = configError({ PORT: port });
    expect(error.message).toContain("PORT");
  });

  it("takes GATEHOUSE_BASE_URL over the port and strips trailing slashes", () => {
    expect(loadConfig({ GATEHOUSE_BASE_URL: "https://auth.example.com/", PORT: "9000" }).baseUrl).toBe(
      "https://auth.example.com",
    );
    expect(loadConfig({ GATEHOUSE_BASE_URL: "https://auth.example.com///" }).baseUrl).toBe(
      "https://auth.example.com",
    );
    expect(loadConfig({ GATEHOUSE_BASE_URL: "https://example.com/auth/" }).baseUrl).toBe(
      "https://example.com/auth",
    );
    expect(loadConfig({ GATEHOUSE_BASE_URL: "http://127.0.0.1:3000" }).baseUrl).toBe("http://127.0.0.1:3000");
  });

  it("refuses a GATEHOUSE_BASE_URL that is not a URL", () => {
    expect(configError({ GATEHOUSE_BASE_URL: "not a url" }).message).toContain("GATEHOUSE_BASE_URL");
  });
});

describe("database, data directory, secret, mode", () => {
  it("accepts postgres:// and postgresql:// URLs", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@db:5432/gh" }).databaseUrl).toBe(
      "postgres://u:p@db:5432/gh",
    );
    expect(loadConfig({ DATABASE_URL: "postgresql://db/gh" }).databaseUrl).toBe("postgresql://db/gh");
  });

  it.each(["mysql://x", "postgres:/x", "http://db/gh", "file:./gh.db", "x postgres://db"])(
    "refuses DATABASE_URL=%s",
    (url) => {
      const error = configError({ DATABASE_URL: url });
      expect(error.message).toContain("DATABASE_URL");
      expect(error.message).toContain("must be a postgres:// URL");
    },
  );

  it("reads GATEHOUSE_DATA_DIR and refuses an empty one", () => {
    expect(loadConfig({ GATEHOUSE_DATA_DIR: "/var/lib/gatehouse" }).dataDir).toBe("/var/lib/gatehouse");
    expect(configError({ GATEHOUSE_DATA_DIR: "" }).message).toContain("GATEHOUSE_DATA_DIR");
  });

  it("needs a GATEHOUSE_SECRET of at least 32 characters", () => {
    expect(loadConfig({ GATEHOUSE_SECRET: "s".repeat(32) }).secret).toBe("s".repeat(32));
    const error = configError({ GATEHOUSE_SECRET: "s".repeat(31) });
    expect(error.message).toContain("GATEHOUSE_SECRET");
    expect(error.message).toContain("must be at least 32 characters");
  });

  it("is in development mode only for NODE_ENV=development", () => {
    expect(loadConfig({ NODE_ENV: "development" }).development).toBe(true);
    expect(loadConfig({ NODE_ENV: "production" }).development).toBe(false);
    expect(loadConfig({ NODE_ENV: "test" }).development).toBe(false);
    expect(configError({ NODE_ENV: "staging" }).message).toContain("NODE_ENV");
  });

  it("lists every invalid variable in one error", () => {
    const error = configError({ PORT: "abc", DATABASE_URL: "mysql://x", GATEHOUSE_SECRET: "short" });
    expect(error.message).toMatch(/^Invalid configuration:\n/);
    expect(error.message).toContain("  PORT: ");
    expect(error.message).toContain("  DATABASE_URL: ");
    expect(error.message).toContain("  GATEHOUSE_SECRET: ");
  });
});

describe("seed settings", () => {
  it("reads the three seed keys", () => {
    const config = loadConfig({
      STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: PCK,
      STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY: SSK,
      STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY: SAK,
    });
    expect(config.seed).toMatchObject({
      publishableClientKey: PCK,
      secretServerKey: SSK,
      superSecretAdminKey: SAK,
    });
  });

  it.each([
    ["STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY", SSK],
    ["STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY", SAK],
    ["STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY", PCK],
    ["STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY", PCK.toUpperCase()],
    ["STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY", PCK.slice(4)],
    ["STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY", `${PCK} `],
    ["STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY", "pck_short"],
  ])("refuses %s=%s", (name, value) => {
    const error = configError({ [name]: value });
    expect(error.message).toContain(name);
  });

  it("accepts the boolean flags as true and false", () => {
    const on = loadConfig({
      STACK_SEED_INTERNAL_PROJECT_SIGN_UP_ENABLED: "true",
      STACK_SEED_INTERNAL_PROJECT_OTP_ENABLED: "true",
      STACK_SEED_INTERNAL_PROJECT_ALLOW_LOCALHOST: "true",
    });
    expect(on.seed).toMatchObject({ signUpEnabled: true, otpEnabled: true, allowLocalhost: true });
    const off = loadConfig({
      STACK_SEED_INTERNAL_PROJECT_SIGN_UP_ENABLED: "false",
      STACK_SEED_INTERNAL_PROJECT_OTP_ENABLED: "false",
      STACK_SEED_INTERNAL_PROJECT_ALLOW_LOCALHOST: "false",
    });
    expect(off.seed).toMatchObject({ signUpEnabled: false, otpEnabled: false, allowLocalhost: false });
  });

  it.each([
    ["STACK_SEED_INTERNAL_PROJECT_SIGN_UP_ENABLED", "yes"],
    ["STACK_SEED_INTERNAL_PROJECT_OTP_ENABLED", "1"],
    ["STACK_SEED_INTERNAL_PROJECT_ALLOW_LOCALHOST", "TRUE"],
    ["STACK_SEED_INTERNAL_PROJECT_SIGN_UP_ENABLED", ""],
  ])("refuses %s=%s", (name, value) => {
    expect(configError({ [name]: value }).message).toContain(name);
  });

  it("splits, trims and drops empty entries of the OAuth provider list", () => {
    expect(
      loadConfig({ STACK_SEED_INTERNAL_PROJECT_OAUTH_PROVIDERS: " github, google ," }).seed.oauthProviders,
    ).toEqual(["github", "google"]);
    expect(loadConfig({ STACK_SEED_INTERNAL_PROJECT_OAUTH_PROVIDERS: "github" }).seed.oauthProviders).toEqual(
      ["github"],
    );
  });

  it("reads an empty provider list as no providers, not as unset", () => {
    expect(loadConfig({ STACK_SEED_INTERNAL_PROJECT_OAUTH_PROVIDERS: "" }).seed.oauthProviders).toEqual([]);
    expect(loadConfig({ STACK_SEED_INTERNAL_PROJECT_OAUTH_PROVIDERS: " , " }).seed.oauthProviders).toEqual(
      [],
    );
  });

  it("reads the operator account only when its e-mail is given; internal access is off by default", () => {
    expect(
      loadConfig({ STACK_SEED_INTERNAL_PROJECT_USER_PASSWORD: "long enough 1" }).seed.user,
    ).toBeUndefined();
    expect(
      loadConfig({
        STACK_SEED_INTERNAL_PROJECT_USER_EMAIL: "ops@example.com",
        STACK_SEED_INTERNAL_PROJECT_USER_PASSWORD: "long enough 1",
      }).seed.user,
    ).toEqual({ email: "ops@example.com", password: "long enough 1", internalAccess: false });
    expect(
      loadConfig({
        STACK_SEED_INTERNAL_PROJECT_USER_EMAIL: "ops@example.com",
        STACK_SEED_INTERNAL_PROJECT_USER_INTERNAL_ACCESS: "true",
      }).seed.user,
    ).toEqual({ email: "ops@example.com", password: undefined, internalAccess: true });
    expect(() => loadConfig({ STACK_SEED_INTERNAL_PROJECT_USER_EMAIL: "not an address" })).toThrow(
      /STACK_SEED_INTERNAL_PROJECT_USER_EMAIL/,
    );
  });
});

describe("rate limits and SMTP settings", () => {
  it("turns limits off, overrides one bucket, and trusts a proxy only when told", () => {
    const config = loadConfig({
      GATEHOUSE_RATE_LIMITS: "off",
      GATEHOUSE_RATE_LIMIT_EMAIL_SEND: "20",
      GATEHOUSE_TRUST_PROXY: "true",
    });
    expect(config.rateLimits.enabled).toBe(false);
    expect(config.rateLimits.limits?.email_send).toBe(20);
    expect(config.trustProxy).toBe(true);
    expect(() => loadConfig({ GATEHOUSE_RATE_LIMITS: "maybe" })).toThrow(/GATEHOUSE_RATE_LIMITS/);
    expect(() => loadConfig({ GATEHOUSE_RATE_LIMIT_IP: "0" })).toThrow(/GATEHOUSE_RATE_LIMIT_IP/);
  });

  it("parses the SMTP URL and names it when it is invalid", () => {
    const config = loadConfig({
      GATEHOUSE_SMTP_URL: "smtp://mailer:secret@mail.example.com:587?from=Acme%20%3Cno-reply%40acme.test%3E",
    });
    expect(config.smtp).toMatchObject({
      host: "mail.example.com",
      port: 587,
      username: "mailer",
      password: "secret",
    });
    expect(() => loadConfig({ GATEHOUSE_SMTP_URL: "http://nope" })).toThrow(/GATEHOUSE_SMTP_URL/);
  });
});
