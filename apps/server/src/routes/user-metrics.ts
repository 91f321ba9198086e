// Stack's user counts and per-user activity for its admin SDK: counts from the overview's query, activity as the
// user's analytics events per UTC day (Stack counts its own activity events; ours are the browser tracker's).
import {
  getUserActivityRoute,
  getUserCountsRoute,
  KnownErrors,
  USER_ACTIVITY_DAYS,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import { createMetricsRepo } from "../db/metrics-repo.ts";
import { createUserMetricsRepo } from "../db/user-metrics-repo.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { projectOf } from "./auth.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export function registerUserMetricsRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const metrics = createMetricsRepo(deps.db);
  const activity = createUserMetricsRepo(deps.db);

  bindRoute(app, deps, getUserCountsRoute, async (_input, { caller }) => {
    const counts = await metrics.userCounts(projectOf(caller).id);
    return { total_users: counts.users, anonymous_users: counts.anonymous };
  });

  bindRoute(app, deps, getUserActivityRoute, async ({ query }, { caller }) => {
    const projectId = projectOf(caller).id;
    if (!(await deps.usersRepo.find(projectId, query.user_id))) throw KnownErrors.USER_NOT_FOUND();
    const now = deps.clock.now();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const first = new Date(today - (USER_ACTIVITY_DAYS - 1) * DAY_MS);
    const counts = new Map(
      (await activity.eventsByDay(projectId, query.user_id, first)).map((row) => [row.date, row.count]),
    );
    const data_points = Array.from({ length: USER_ACTIVITY_DAYS }, (_, i) => {
      const date = new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      return { date, activity: counts.get(date) ?? 0 };
    });
    return { data_points };
  });
}
