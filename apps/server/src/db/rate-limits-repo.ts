// Fixed-window counters shared by every server process through the database.
import { inArray, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { rateLimitCounters } from "./schema.ts";

export function createRateLimitsRepo(db: Db) {
  return {
    /** Adds one to the key's counter for the window starting at `windowStart` (a new window starts at 1). */
    async increment(key: string, windowStart: Date): Promise<number> {
      const [row] = await db
        .insert(rateLimitCounters)
        .values({ key, windowStart, count: 1 })
        .onConflictDoUpdate({
          target: rateLimitCounters.key,
          set: {
            count: sql`case when ${rateLimitCounters.windowStart} = excluded.window_start then ${rateLimitCounters.count} + 1 else 1 end`,
            windowStart: sql`excluded.window_start`,
          },
        })
        .returning({ count: rateLimitCounters.count });
      return row?.count ?? 1;
    },
    /** The current counts of several keys in one query (a key whose window has passed counts 0). */
    async counts(keys: { key: string; windowStart: Date }[]): Promise<number[]> {
      const rows = await db
        .select()
        .from(rateLimitCounters)
        .where(
          inArray(
            rateLimitCounters.key,
            keys.map((k) => k.key),
          ),
        );
      return keys.map(({ key, windowStart }) => {
        const row = rows.find((r) => r.key === key);
        return row && row.windowStart.getTime() === windowStart.getTime() ? row.count : 0;
      });
    },
  };
}

export type RateLimitsRepo = ReturnType<typeof createRateLimitsRepo>;
