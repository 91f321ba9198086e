// GET /internal/metrics [GO]: the overview figures of the caller's project, for the dashboard's first page.
import { getMetricsRoute } from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { projectOf } from "./auth.ts";

export function registerMetricsRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, getMetricsRoute, async (_input, { caller }) => {
    // This process's pending last-use times first, so the active-user counts see them.
    await deps.activity.flush();
    return deps.metrics.of(projectOf(caller).id);
  });
}
