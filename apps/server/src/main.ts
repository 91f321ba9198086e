// The only file that opens a port: config -> data dir -> database -> migrate -> seed -> app -> listen. With
// GATEHOUSE_WORKERS=N on PostgreSQL it is run by N cluster workers, and the primary (cluster/primary.ts) forks them.
import cluster from "node:cluster";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "./app.ts";
import { runPrimary, workerSlot } from "./cluster/primary.ts";
import { workerCount } from "./cluster/worker-count.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { acquireLock, DataDirLockedError, ensureDataDir, loadServerSecret } from "./data-dir.ts";
import { type Database, openPglite, openPostgres } from "./db/client.ts";
import { databaseIdentity } from "./db/identity.ts";
import { waitForDatabase } from "./db/startup-wait.ts";
import { benchStatementLog, bothObservers } from "./db/statement-log.ts";
import { createDeps } from "./deps.ts";
import { limitHeapGrowth } from "./heap-growth.ts";
import { createLogger } from "./logger.ts";
import { type Exposition, primaryExposition } from "./observability/cluster-metrics.ts";
import { serveMetricsPort } from "./observability/exposition.ts";
import { startTracing } from "./observability/tracing.ts";
import { seedDemoProject, seedInternalProject } from "./services/seed.ts";
import { printBanner, startupKeys } from "./startup-banner.ts";

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

limitHeapGrowth();
const config = configOrExit();
// A worker's lines carry its number: several processes write to one output.
const logger = createLogger({
  ...config.log,
  fields: cluster.isWorker ? { worker: cluster.worker?.id } : undefined,
});

async function main(): Promise<void> {
  const dataDir = resolve(config.dataDir);
  ensureDataDir(dataDir);

  // Before the database opens: its queries report to the tracer. Unset, no OpenTelemetry module is loaded.
  const tracing = config.tracing ? await startTracing(config.tracing) : undefined;
  if (config.tracing) logger.info("tracing: OpenTelemetry", { endpoint: config.tracing.endpoint });

  let releaseLock = () => {};
  let database: Database;
  if (config.databaseUrl) {
    database = openPostgres(
      config.databaseUrl,
      (error) => logger.warn("database connection lost; it will be reopened", {}, error),
      { settings: config.database, observeQuery: bothObservers(tracing?.observeQuery, benchStatementLog()) },
    );
    logger.info("database: PostgreSQL", { host: new URL(config.databaseUrl).host });
    await waitForDatabase(database, { waitMs: config.database.startupWaitMs, logger });
  } else {
    releaseLock = acquireLock(dataDir);
    database = await openPglite({ dataDir: join(dataDir, "data") });
    logger.info("database: embedded PGlite", { dir: join(dataDir, "data") });
  }

  const started = performance.now();
  // Processes started together on one PostgreSQL database take turns migrating and seeding it (db/client.ts).
  await database.exclusive(() => database.migrate());
  logger.info("database migrated", { ms: Math.round(performance.now() - started) });

  const printed = startupKeys(config, dataDir);
  const { keys, demoKeys } = printed;
  // Every process of this install names the same Redis keys; another install sharing the Redis, other keys.
  const redis = config.redisUrl
    ? {
        url: config.redisUrl,
        prefix: config.redisPrefix ?? `gatehouse:${await databaseIdentity(database.db)}:`,
      }
    : undefined;
  const deps = createDeps({
    database,
    secret: config.secret ?? loadServerSecret(dataDir),
    baseUrl: config.baseUrl,
    development: config.development,
    logger,
    defaultSmtp: config.smtp,
    rateLimits: config.rateLimits,
    rateLimitStore: redis
      ? (await import("./services/rate-limit-redis.ts")).createRedisStore({ ...redis, logger })
      : undefined,
    trustProxy: config.trustProxy,
    webhookAllowPrivateUrls: config.webhooks.allowPrivateUrls,
    svix: config.webhooks.svix,
    sharedOAuth: config.sharedOAuth,
    developmentOAuth: config.developmentOAuth,
    ssoDnsServers: config.ssoDnsServers,
    ssoAllowPrivateUrls: config.ssoAllowPrivateUrls,
    dashboardDir: config.dashboardDir,
    analyticsRetentionDays: config.analyticsRetentionDays,
    observability: {
      processMetrics: true,
      tracing,
      metricsToken: config.metrics.token,
      workerSlot: workerSlot(),
    },
  });
  // In a cluster the primary serves the metrics port, with every worker's series (observability/cluster-metrics.ts).
  const metricsServer =
    config.metrics.port && !cluster.isWorker
      ? await openMetricsPort(deps.observability.exposition)
      : undefined;
  await database.exclusive(async () => {
    await seedInternalProject({ ...deps, seed: config.seed, keys });
    if (demoKeys) await seedDemoProject({ ...deps, keys: demoKeys, appUrl: config.demoUrl });
  });
  logger.info("internal project seeded");
  logger.info(
    `rate limits: counted in ${redis ? "Redis" : database.kind === "postgres" ? "PostgreSQL" : "PGlite, the per-IP request counter in memory"}`,
    redis ? { redis_host: new URL(redis.url).host, redis_prefix: redis.prefix } : {},
  );
  if (demoKeys) logger.info("demo project ready", { projectId: "demo" });

  deps.emailWorker.start();
  deps.webhookWorker.start();
  deps.importJobWorker.start();
  deps.activity.start();
  deps.analytics.pruner.start();
  deps.audit.pruner.start();
  deps.oidcProvider.backchannel.worker.start();
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
    // In a cluster the primary prints it once, when every worker listens.
    if (!cluster.isWorker) printBanner(config, printed);
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
    metricsServer?.close();
    server.close(async () => {
      await deps.emailWorker.stop();
      await deps.webhookWorker.stop();
      await deps.importJobWorker.stop();
      await deps.activity.stop();
      await deps.analytics.pruner.stop();
      await deps.audit.pruner.stop();
      await deps.oidcProvider.backchannel.worker.stop();
      await deps.rateLimitStore.close();
      await database.close();
      await tracing?.shutdown();
      releaseLock();
      logger.info("stopped");
      process.exit(0);
    });
    if ("closeIdleConnections" in server) server.closeIdleConnections();
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

/** GATEHOUSE_METRICS_PORT: /metrics alone on a port of its own. */
async function openMetricsPort(exposition: Exposition) {
  const port = config.metrics.port as number;
  const server = await serveMetricsPort(exposition, {
    port,
    token: config.metrics.token,
    onError: (error) => logger.error("metrics: scrape failed", {}, error),
  });
  logger.info("metrics: served on their own port", { port });
  return server;
}

/**
 * The primary of a cluster prepares what its workers share before any of them starts: the data directory and the
 * generated secret and keys (several workers creating them at once would each make their own).
 */
async function startPrimary(count: number): Promise<void> {
  const dataDir = resolve(config.dataDir);
  ensureDataDir(dataDir);
  if (!config.secret) loadServerSecret(dataDir);
  const printed = startupKeys(config, dataDir);
  // Made before the workers fork: a worker scraped on the API port relays to it from its first request.
  const exposition = primaryExposition();
  // Before the workers: a metrics port in use fails the start at once, as it does a single process.
  if (config.metrics.port) await openMetricsPort(exposition);
  runPrimary({ count, logger, onAllListening: () => printBanner(config, printed) });
}

/** One process: the server itself (PGlite, GATEHOUSE_WORKERS=1, or a worker of a cluster). */
function startProcess(): void {
  main().catch((error: unknown) => {
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      logger.error("start-up failed", {}, error);
    }
    process.exit(1);
  });
}

const workers = workerCount(config.workers, config.databaseUrl !== undefined, availableParallelism());
if (cluster.isPrimary && workers.warning) logger.warn(workers.warning);
if (cluster.isPrimary && workers.count > 1) {
  startPrimary(workers.count).catch((error: unknown) => {
    logger.error("start-up failed", {}, error);
    process.exit(1);
  });
} else startProcess();
