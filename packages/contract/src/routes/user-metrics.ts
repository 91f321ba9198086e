// Two figures Stack's admin SDK reads besides the overview: the project's user counts, and one user's activity per
// day (the dashboard's user page). Stack's current backend no longer serves them; its SDKs 2.8.x still call them.
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";

/** Days in a user's activity: the last 30 UTC days, today included (as the overview's sign-ups). */
export const USER_ACTIVITY_DAYS = 30;

export const getUserCountsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/metrics/user-counts",
  access: ["admin"],
  summary: "The project's full and anonymous user counts",
  tag: "Metrics",
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ total_users: z.number().int(), anonymous_users: z.number().int() }),
  },
});

export const getUserActivityRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/user-activity",
  access: ["admin"],
  summary: "A user's recorded analytics events per UTC day over the last 30 days",
  tag: "Metrics",
  query: z.strictObject({ user_id: z.uuid() }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ data_points: z.array(z.object({ date: z.string(), activity: z.number().int() })) }),
  },
});

export const userMetricsRoutes = [
  getUserCountsRoute,
  getUserActivityRoute,
] as const satisfies readonly RouteDefinition[];
