// The overview metrics of a project [GO]: the dashboard's first page. Stack Auth has no such route; Gatehouse's
// own SDK and dashboard call it.
import { z } from "zod";
import { defineRoute } from "../route.ts";

/** Days in `daily_sign_ups`: the last 30 UTC days, today included. */
export const METRICS_SIGN_UP_DAYS = 30;

const count = z.number().int().nonnegative();

/**
 * How the project's full users can sign in: each count is of users who have that method, so a user with several
 * counts under each of them. Anonymous users are in `total_anonymous_users` instead.
 */
export const signInMethodsSchema = z.object({
  /** Users with a password. */
  password: count,
  /** Users who can sign in with an e-mailed code or magic link. */
  otp: count,
  passkey: count,
  /** Users with an account at each OAuth provider, most users first. */
  oauth: z.array(z.object({ provider_id: z.string(), users: count })),
  /** Users with none of these (made through the API without a way to sign in). */
  none: count,
});

const dailyCounts = z
  .array(z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), count: count }))
  .length(METRICS_SIGN_UP_DAYS);

/**
 * What Stack's browser event tracker reported (POST /analytics/events/batch), over the events still kept: they are
 * pruned after `retention_days`. Users here include anonymous ones, since the tracker signs visitors in anonymously.
 */
export const analyticsMetricsSchema = z.object({
  retention_days: count,
  /** Page views per UTC day (by receipt), the same days as `daily_sign_ups`. */
  daily_page_views: dailyCounts,
  /** Distinct users who sent events in the 24 hours before now. */
  daily_active_users: count,
  /** Distinct users who sent events over the days of `daily_page_views`. */
  monthly_active_users: count,
});

export const projectMetricsSchema = z.object({
  /** Users that are not anonymous. */
  total_users: z.number().int().nonnegative(),
  total_teams: z.number().int().nonnegative(),
  /** Sessions (refresh tokens) that have not expired; a revoked session no longer exists. */
  active_sessions: z.number().int().nonnegative(),
  /** Sign-ups of non-anonymous users per UTC day, oldest first, days without any included as 0. */
  daily_sign_ups: dailyCounts,
  total_anonymous_users: z.number().int().nonnegative(),
  /** Full users last active in the 24 hours before now (a sign-up, a sign-in or a refresh of their session). */
  daily_active_users: count,
  /** Full users last active in the 30 days before now. */
  monthly_active_users: count,
  users_by_sign_in_method: signInMethodsSchema,
  analytics: analyticsMetricsSchema,
});

export type ProjectMetrics = z.infer<typeof projectMetricsSchema>;

export const getMetricsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/metrics",
  access: ["admin"],
  summary:
    "[GO] The project's overview figures: users, teams, active sessions, anonymous users, daily and monthly active users, users by sign-in method, and sign-ups per UTC day over the last 30 days",
  tag: "Projects",
  response: { status: 200, kind: "json", schema: projectMetricsSchema },
});
