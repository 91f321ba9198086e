// The rows behind Stack's user counts and per-user activity (GET /internal/metrics/user-counts, /internal/user-activity).
import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { analyticsEvents } from "./schema.ts";

export function createUserMetricsRepo(db: Db) {
  return {
    /** A user's analytics events per UTC day (`YYYY-MM-DD`) since `from`, over the events' user index. */
    async eventsByDay(
      projectId: string,
      userId: string,
      from: Date,
    ): Promise<{ date: string; count: number }[]> {
      const day = sql<string>`to_char(${analyticsEvents.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
      return db
        .select({ date: day, count: sql<number>`count(*)::int` })
        .from(analyticsEvents)
        .where(
          and(
            eq(analyticsEvents.userId, userId),
            eq(analyticsEvents.projectId, projectId),
            gte(analyticsEvents.createdAt, from),
          ),
        )
        .groupBy(day);
    },
  };
}
