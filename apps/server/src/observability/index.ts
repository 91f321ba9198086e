// The observability of one server: its metrics registry, its tracing (when configured), its readiness check, and the
// HTTP middleware that feeds them. Built in createDeps; business code never imports this folder.
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { Database } from "../db/client.ts";
import { type Exposition, workerExposition } from "./cluster-metrics.ts";
import { createReadinessCheck } from "./health.ts";
import { createMetrics } from "./metrics.ts";
import type { SpanAttributes, Tracing } from "./tracing.ts";

export type ObservabilityOptions = {
  /** Node's process metrics and event-loop lag (main.ts turns them on; in-process test servers leave them off). */
  processMetrics?: boolean;
  /** Made by startTracing when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  tracing?: Tracing;
  /** GATEHOUSE_METRICS_TOKEN: /metrics on the API port answers only with it as a bearer token. */
  metricsToken?: string;
  /** The slot of a cluster's worker (GATEHOUSE_WORKERS=N): /metrics answers for every worker, through the primary. */
  workerSlot?: string;
};

export function createObservability(
  database: Pick<Database, "db" | "poolStats">,
  now: () => Date,
  options: ObservabilityOptions = {},
) {
  const metrics = createMetrics({ database, now, processMetrics: options.processMetrics });
  const exposition: Exposition = options.workerSlot
    ? workerExposition(metrics.registry, options.workerSlot)
    : metrics;
  const tracing = options.tracing;

  /** The matched endpoint's template: the last matched route that is not a middleware (`app.use`, method ALL). */
  const routeOf = (c: Parameters<MiddlewareHandler>[0]) => {
    const routes = matchedRoutes(c);
    for (let i = routes.length - 1; i >= 0; i--) {
      const route = routes[i];
      if (route && route.method !== "ALL") return route.path;
    }
    return "unmatched";
  };

  /** Times every request and records it by route template; inside a server span when tracing is on. */
  const middleware: MiddlewareHandler = async (c, next) => {
    const started = performance.now();
    const record = () => {
      const route = routeOf(c);
      const status = c.res.status;
      metrics.observeRequest({
        method: c.req.method,
        route,
        status,
        seconds: (performance.now() - started) / 1000,
        // Read only where there can be one: reading a response's headers costs the node adapter its light response.
        knownError: status >= 400 ? (c.res.headers.get("x-stack-known-error") ?? undefined) : undefined,
      });
      return { route, status, attributes: { "url.path": c.req.path } satisfies SpanAttributes };
    };
    if (!tracing) {
      await next();
      record();
      return;
    }
    await tracing.request(c.req.raw.headers, c.req.method, next, record);
  };

  return {
    metrics,
    /** What /metrics serves: this process's metrics, or in a cluster worker the whole cluster's. */
    exposition,
    tracing,
    middleware,
    metricsToken: options.metricsToken,
    readiness: createReadinessCheck(database),
    /** Outgoing work (SMTP, webhooks) in a client span when tracing is on; as is otherwise. */
    span: <T>(name: string, attributes: SpanAttributes, run: () => Promise<T>): Promise<T> =>
      tracing ? tracing.span(name, attributes, run) : run(),
  };
}

export type Observability = ReturnType<typeof createObservability>;
