// Sliding-window rate-limit buckets shared by every server process through the database. Taking a slot is one
// statement (an upsert that reads and writes the row under its lock), so parallel requests, in one process or in
// many, can never take more slots than the limit between them.
import { inArray, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { rateLimitHits } from "./schema.ts";

export type SlotRequest = { key: string; limit: number; windowMs: number; now: number };
/** `allowed`: the slot was taken. `oldest`: the earliest attempt still in the window (for retry-after). */
export type SlotAnswer = { allowed: boolean; oldest: number };

export function createRateLimitsRepo(db: Db) {
  return {
    /**
     * Records an attempt at `now` if fewer than `limit` attempts of the last `windowMs` are recorded; attempts that
     * left the window are dropped in the same write. A refused attempt is not recorded, so hammering a full bucket
     * does not keep it full.
     */
    async take({ key, limit, windowMs, now }: SlotRequest): Promise<SlotAnswer> {
      const since = now - windowMs;
      const live = sql`array(select h from unnest(${rateLimitHits.hits}) as h where h > ${since} order by h)`;
      const room = sql`cardinality(${live}) < ${limit}`;
      const [row] = await db
        .insert(rateLimitHits)
        .values({ key, hits: [now], lastAllowed: true })
        .onConflictDoUpdate({
          target: rateLimitHits.key,
          set: {
            hits: sql`case when ${room} then ${live} || ${now}::bigint else ${live} end`,
            lastAllowed: room,
          },
        })
        .returning({ hits: rateLimitHits.hits, allowed: rateLimitHits.lastAllowed });
      return { allowed: row?.allowed ?? true, oldest: row?.hits[0] ?? now };
    },

    /** Gives back the newest slot of each key (attempts that turned out not to count, such as a right password). */
    async giveBack(keys: string[]): Promise<void> {
      if (keys.length === 0) return;
      await db
        .update(rateLimitHits)
        .set({ hits: sql`${rateLimitHits.hits}[1:cardinality(${rateLimitHits.hits}) - 1]` })
        .where(inArray(rateLimitHits.key, keys));
    },
  };
}

export type RateLimitsRepo = ReturnType<typeof createRateLimitsRepo>;
