// A project's overview figures [GO]: totals, active sessions, daily and monthly active users (last activity in the
// 24 hours and 30 days before now), users by sign-in method, and sign-ups per UTC day over the last 30 days ending
// today by the server's clock, with empty days filled in as zero.
import { METRICS_SIGN_UP_DAYS, type ProjectMetrics } from "@gatehouse/contract";
import type { AnalyticsService } from "../analytics/service.ts";
import type { Clock } from "../clock.ts";
import type { MetricsRepo } from "../db/metrics-repo.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The window of `monthly_active_users`, in days. */
const ACTIVE_MONTH_DAYS = 30;

/** Midnight UTC of the day `at` falls in. */
const startOfUtcDay = (at: Date) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

export function createMetricsService(deps: {
  repo: MetricsRepo;
  clock: Clock;
  analytics: Pick<AnalyticsService, "overview">;
}) {
  return {
    async of(projectId: string): Promise<ProjectMetrics> {
      const now = deps.clock.now();
      const tomorrow = new Date(startOfUtcDay(now).getTime() + DAY_MS);
      const first = new Date(tomorrow.getTime() - METRICS_SIGN_UP_DAYS * DAY_MS);
      const [userCounts, teams, sessions, byDay, active, oauth, analytics] = await Promise.all([
        deps.repo.userCounts(projectId),
        deps.repo.teamCount(projectId),
        deps.repo.activeSessionCount(projectId, now),
        deps.repo.signUpsByDay(projectId, first, tomorrow),
        deps.repo.activeUsers(
          projectId,
          new Date(now.getTime() - DAY_MS),
          new Date(now.getTime() - ACTIVE_MONTH_DAYS * DAY_MS),
        ),
        deps.repo.oauthUsers(projectId),
        deps.analytics.overview(projectId, METRICS_SIGN_UP_DAYS),
      ]);
      const counts = new Map(byDay.map((d) => [d.date, d.count]));
      const days = Array.from({ length: METRICS_SIGN_UP_DAYS }, (_, i) => {
        const date = new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10);
        return { date, count: counts.get(date) ?? 0 };
      });
      return {
        total_users: userCounts.users,
        total_teams: teams,
        active_sessions: sessions,
        daily_sign_ups: days,
        total_anonymous_users: userCounts.anonymous,
        daily_active_users: active.daily,
        monthly_active_users: active.monthly,
        users_by_sign_in_method: {
          password: userCounts.password,
          otp: userCounts.otp,
          passkey: userCounts.passkey,
          oauth,
          none: userCounts.none,
        },
        analytics,
      };
    },
  };
}

export type MetricsService = ReturnType<typeof createMetricsService>;
