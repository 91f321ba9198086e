// For operators and orchestrators: liveness (/health/live), readiness (/health/ready) and, behind its bearer token,
// the Prometheus metrics (/metrics). /health itself stays as it is (WIRE.md). Outside /api/v1: no per-IP API limit.
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/bind.ts";
import { jsonResponse, textResponse } from "../http/respond.ts";
import { bearerMatches, metricsResponse } from "../observability/exposition.ts";

export function registerOperationsRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { observability } = deps;

  // Live while the process answers at all: a restart would not bring the database back, so it is not asked here.
  app.get("/health/live", () => jsonResponse(200, { status: "ok" }));

  app.get("/health/ready", async () => {
    const readiness = await observability.readiness();
    return readiness.ready
      ? jsonResponse(200, { status: "ok" })
      : jsonResponse(503, { status: "error", reason: readiness.reason });
  });

  app.get("/metrics", async (c) => {
    const token = observability.metricsToken;
    // Without a token the API port does not serve metrics at all (GATEHOUSE_METRICS_PORT may): never open by default.
    if (!token) return textResponse(404, "Not found.");
    if (!bearerMatches(c.req.header("authorization"), token)) {
      return textResponse(401, "A bearer token is required.", { "www-authenticate": "Bearer" });
    }
    return metricsResponse(observability.exposition);
  });
}
