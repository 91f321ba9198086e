// Prometheus metrics through prom-client, on a registry of this server's own (no module state): HTTP requests per
// route template, sign-in and sign-up outcomes per method, rate-limit refusals, queues, the pool, the process.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/client.ts";
import { readQueueStats } from "./queue-stats.ts";

/** What the HTTP layer reports of each answered request (the real status, before any status masking). */
export type RequestObservation = {
  method: string;
  /** The matched route template (`/api/v1/users/:user_id`), or `unmatched`: never the raw path (cardinality). */
  route: string;
  status: number;
  seconds: number;
  /** The known-error code the answer carried, if any. */
  knownError: string | undefined;
};

/** Route templates that are a sign-in or a sign-up, and the method each stands for. */
const SIGN_INS: Record<string, string> = {
  "/api/v1/auth/password/sign-in": "password",
  "/api/v1/auth/otp/sign-in": "otp",
  "/api/v1/auth/passkey/sign-in": "passkey",
  "/api/v1/auth/mfa/sign-in": "mfa",
  "/api/v1/auth/oauth/callback/:provider_id": "oauth",
};
const SIGN_UPS: Record<string, string> = {
  "/api/v1/auth/password/sign-up": "password",
  "/api/v1/auth/anonymous/sign-up": "anonymous",
};

/** success, a known-error code (a bounded set), rate_limited or error. */
function outcome(o: RequestObservation): string {
  if (o.status < 400) return "success";
  if (o.status === 429) return "rate_limited";
  return o.knownError ?? "error";
}

export function createMetrics(options: {
  database: Pick<Database, "db" | "poolStats">;
  now: () => Date;
  /** Node's default process metrics and event-loop lag: on for a real server, off for in-process test servers. */
  processMetrics?: boolean;
}) {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const requests = new Counter({
    name: "gatehouse_http_requests_total",
    help: "HTTP requests answered, by method, route template and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "gatehouse_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method and route template",
    labelNames: ["method", "route"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const signIns = new Counter({
    name: "gatehouse_sign_ins_total",
    help: "Sign-in attempts by method and outcome (success, a known-error code, rate_limited, error)",
    labelNames: ["method", "outcome"],
    registers: [registry],
  });
  const signUps = new Counter({
    name: "gatehouse_sign_ups_total",
    help: "Sign-up attempts by method and outcome",
    labelNames: ["method", "outcome"],
    registers: [registry],
  });
  const refusals = new Counter({
    name: "gatehouse_rate_limit_refusals_total",
    help: "Requests refused by a rate limit (429), by route template",
    labelNames: ["route"],
    registers: [registry],
  });
  const unavailable = new Counter({
    name: "gatehouse_database_unavailable_total",
    help: "Requests answered DATABASE_UNAVAILABLE (503) because the database was out of reach",
    registers: [registry],
  });
  const redisUnavailable = new Counter({
    name: "gatehouse_redis_unavailable_total",
    help: "Requests answered REDIS_UNAVAILABLE (503) because the Redis of REDIS_URL was out of reach",
    registers: [registry],
  });

  const { database, now } = options;
  new Gauge({
    name: "gatehouse_queue_depth",
    help: "Items waiting in a work queue (email_outbox, webhook_events, webhook_deliveries)",
    labelNames: ["queue"],
    registers: [registry],
    // Read once per scrape for both queue gauges: the age gauge below reads what this one stored.
    async collect() {
      try {
        for (const s of await readQueueStats(database.db, now())) {
          this.set({ queue: s.queue }, s.depth);
          queueAge.set({ queue: s.queue }, s.oldestAgeSeconds);
        }
      } catch {
        // The database is down: the scrape still answers (process and HTTP series), the queues keep their last values.
      }
    },
  });
  const queueAge = new Gauge({
    name: "gatehouse_queue_oldest_age_seconds",
    help: "Age of the oldest item waiting in a work queue (0 when empty)",
    labelNames: ["queue"],
    registers: [registry],
  });
  const poolStats = database.poolStats;
  if (poolStats) {
    new Gauge({
      name: "gatehouse_db_pool_connections",
      help: "PostgreSQL pool connections by state (total, idle, waiting requests, max)",
      labelNames: ["state"],
      registers: [registry],
      collect() {
        const s = poolStats();
        for (const state of ["total", "idle", "waiting", "max"] as const) this.set({ state }, s[state]);
      },
    });
  }

  return {
    registry,
    contentType: registry.contentType,
    observeRequest(o: RequestObservation): void {
      const status = String(o.status);
      requests.inc({ method: o.method, route: o.route, status });
      duration.observe({ method: o.method, route: o.route }, o.seconds);
      const signIn = SIGN_INS[o.route];
      if (signIn) signIns.inc({ method: signIn, outcome: outcome(o) });
      const signUp = SIGN_UPS[o.route];
      if (signUp) signUps.inc({ method: signUp, outcome: outcome(o) });
      if (o.status === 429) refusals.inc({ route: o.route });
      if (o.knownError === "DATABASE_UNAVAILABLE") unavailable.inc();
      if (o.knownError === "REDIS_UNAVAILABLE") redisUnavailable.inc();
    },
    /** The exposition text; the queue gauges query the database here, once per scrape. */
    render: () => registry.metrics(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
