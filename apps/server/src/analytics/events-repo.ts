// The stored analytics events: inserted a batch at a time, counted for the overview, pruned past retention.
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { analyticsEvents } from "../db/schema.ts";

export type NewAnalyticsEvent = typeof analyticsEvents.$inferInsert;

/** Rows deleted per prune statement: a long backlog goes in bounded steps, not one statement holding locks. */
const PRUNE_BATCH = 5000;

export function createAnalyticsEventsRepo(db: Db) {
  return {
    async insertMany(rows: NewAnalyticsEvent[]): Promise<void> {
      // A JSON null is data the tracker may send (Stack accepts it); drizzle would bind it as SQL NULL instead.
      const values = rows.map((row) => (row.data === null ? { ...row, data: sql`'null'::jsonb` } : row));
      if (values.length > 0) await db.insert(analyticsEvents).values(values);
    },

    /** Deletes up to one batch of events received before `before`; answers how many went. */
    async pruneBefore(before: Date): Promise<number> {
      const doomed = db
        .select({ id: analyticsEvents.id })
        .from(analyticsEvents)
        .where(lt(analyticsEvents.createdAt, before))
        .limit(PRUNE_BATCH);
      const deleted = await db
        .delete(analyticsEvents)
        .where(sql`${analyticsEvents.id} in ${doomed}`)
        .returning({ id: analyticsEvents.id });
      return deleted.length;
    },

    /**
     * From the project's events received in [from, to): page views per UTC day (`YYYY-MM-DD`, days without any
     * absent), and the distinct users seen since `activeDay` and since `from`.
     */
    async overview(projectId: string, from: Date, to: Date, activeDay: Date) {
      const inRange = and(
        eq(analyticsEvents.projectId, projectId),
        gte(analyticsEvents.createdAt, from),
        lt(analyticsEvents.createdAt, to),
      );
      const day = sql<string>`to_char(${analyticsEvents.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
      const [byDay, [users]] = await Promise.all([
        db
          .select({ date: day, count: sql<number>`count(*)::int` })
          .from(analyticsEvents)
          .where(and(inRange, eq(analyticsEvents.eventType, "$page-view")))
          .groupBy(day),
        db
          .select({
            daily: sql<number>`(count(distinct ${analyticsEvents.userId}) filter (where ${analyticsEvents.createdAt} >= ${activeDay.toISOString()}::timestamptz))::int`,
            monthly: sql<number>`count(distinct ${analyticsEvents.userId})::int`,
          })
          .from(analyticsEvents)
          .where(inRange),
      ]);
      return {
        pageViewsByDay: byDay,
        activeUsers: { daily: users?.daily ?? 0, monthly: users?.monthly ?? 0 },
      };
    },
  };
}

export type AnalyticsEventsRepo = ReturnType<typeof createAnalyticsEventsRepo>;
