// The only file that opens a port: config -> data dir -> database -> migrate -> seed -> app -> listen.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import {
  acquireLock,
  DataDirLockedError,
  ensureDataDir,
  loadGeneratedDemoKeys,
  loadGeneratedInternalKeys,
  loadServerSecret,
} from "./data-dir.ts";
import { type Database, openPglite, openPostgres } from "./db/client.ts";
import { createDeps } from "./deps.ts";
import { createLogger } from "./logger.ts";
import { seedDemoProject, seedInternalProject } from "./services/seed.ts";

/** The configuration first: the log's level and format are in it. A mistake in it is said on stderr, and the end. */
function configOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

const config = configOrExit();
const logger = createLogger(config.log);

async function main(): Promise<void> {
  const dataDir = resolve(config.dataDir);
  ensureDataDir(dataDir);

  let releaseLock = () => {};
  let database: Database;
  if (config.databaseUrl) {
    database = openPostgres(config.databaseUrl, (error) =>
      logger.warn("database connection lost; it will be reopened", {}, error),
    );
    logger.info("database: PostgreSQL", { host: new URL(config.databaseUrl).host });
  } else {
    releaseLock = acquireLock(dataDir);
    database = await openPglite({ dataDir: join(dataDir, "data") });
    logger.info("database: embedded PGlite", { dir: join(dataDir, "data") });
  }

  const started = performance.now();
  // Processes started together on one PostgreSQL database take turns migrating and seeding it (db/client.ts).
  await database.exclusive(() => database.migrate());
  logger.info("database migrated", { ms: Math.round(performance.now() - started) });

  const generated = loadGeneratedInternalKeys(dataDir);
  const keys = {
    publishableClientKey: config.seed.publishableClientKey ?? generated.publishableClientKey,
    secretServerKey: config.seed.secretServerKey ?? generated.secretServerKey,
    superSecretAdminKey: config.seed.superSecretAdminKey ?? generated.superSecretAdminKey,
  };
  const deps = createDeps({
    database,
    secret: config.secret ?? loadServerSecret(dataDir),
    baseUrl: config.baseUrl,
    development: config.development,
    logger,
    defaultSmtp: config.smtp,
    rateLimits: config.rateLimits,
    redisUrl: config.redisUrl,
    trustProxy: config.trustProxy,
    webhookAllowPrivateUrls: config.webhooks.allowPrivateUrls,
    svix: config.webhooks.svix,
    sharedOAuth: config.sharedOAuth,
    developmentOAuth: config.developmentOAuth,
    dashboardDir: config.dashboardDir,
    analyticsRetentionDays: config.analyticsRetentionDays,
  });
  const demoKeys = config.demoProject ? loadGeneratedDemoKeys(dataDir) : undefined;
  await database.exclusive(async () => {
    await seedInternalProject({ ...deps, seed: config.seed, keys });
    if (demoKeys) await seedDemoProject({ ...deps, keys: demoKeys, appUrl: config.demoUrl });
  });
  logger.info("internal project seeded");
  logger.info(
    `rate limits: counted in ${config.redisUrl ? "Redis" : database.kind === "postgres" ? "PostgreSQL" : "PGlite, the per-IP request counter in memory"}`,
  );
  if (demoKeys) logger.info("demo project ready", { projectId: "demo" });

  deps.emailWorker.start();
  deps.webhookWorker.start();
  deps.activity.start();
  deps.analytics.pruner.start();
  logger.info(
    config.smtp
      ? "e-mail: delivering through SMTP"
      : "e-mail: no SMTP server, e-mails are kept in the development inbox (GET /api/v1/internal/emails)",
  );
  // Said at every start: test identities sign anyone in without a check, which an operator must not miss.
  if (config.developmentOAuth.length > 0) {
    logger.warn("OAuth: the development provider stands in for shared providers without keys", {
      projects: config.developmentOAuth.join(","),
    });
  }

  if (!existsSync(join(config.dashboardDir, "index.html"))) {
    logger.warn("the dashboard is not built: /dashboard answers 503 until `npm run build:dashboard` runs", {
      dir: config.dashboardDir,
    });
  }

  const app = createApp(deps);
  const server = serve({ fetch: app.fetch, port: config.port }, () => {
    logger.info("listening", { url: config.baseUrl, port: config.port });
    process.stdout.write(
      [
        "",
        `Gatehouse is running at ${config.baseUrl}`,
        `  API:         ${config.baseUrl}/api/v1   (reference: ${config.baseUrl}/api/v1/docs)`,
        `  Dashboard:   ${config.baseUrl}/dashboard`,
        "  Internal project keys (project id: internal):",
        `    publishable client key:  ${keys.publishableClientKey}`,
        `    secret server key:       ${keys.secretServerKey}`,
        `    super secret admin key:  ${keys.superSecretAdminKey}`,
        // The demo project (`npm start`): the dashboard shows it to the operators; these keys are for code and curl.
        ...(demoKeys
          ? [
              "  Demo project keys (project id: demo):",
              `    publishable client key:  ${demoKeys.publishableClientKey}`,
              `    secret server key:       ${demoKeys.secretServerKey}`,
              `    super secret admin key:  ${demoKeys.superSecretAdminKey}`,
            ]
          : []),
        "",
      ].join("\n"),
    );
  });
  server.on("error", (error) => {
    logger.error("cannot listen", { port: config.port }, error);
    void database.close().finally(() => {
      releaseLock();
      process.exit(1);
    });
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    // close() stops accepting and waits for in-flight requests; idle keep-alive sockets would hold it open.
    server.close(async () => {
      await deps.emailWorker.stop();
      await deps.webhookWorker.stop();
      await deps.activity.stop();
      await deps.analytics.pruner.stop();
      await deps.rateLimitStore.close();
      await database.close();
      releaseLock();
      logger.info("stopped");
      process.exit(0);
    });
    if ("closeIdleConnections" in server) server.closeIdleConnections();
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  if (error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    logger.error("start-up failed", {}, error);
  }
  process.exit(1);
});
