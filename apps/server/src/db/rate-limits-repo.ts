// Sliding-window rate-limit buckets shared by every server process through the database. Taking a slot is one
// statement (an upsert that reads and writes the row under its lock), so parallel requests, in one process or in
// many, can never take more slots than the limit between them.
import { inArray, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { rateLimitCounters, rateLimitHits } from "./schema.ts";

export type SlotRequest = { key: string; limit: number; windowMs: number; now: number };
/** `allowed`: the slot was taken. `oldest`: the earliest attempt still in the window (for retry-after). */
export type SlotAnswer = { allowed: boolean; oldest: number };

/** A hit of a counter bucket: `windowStart` of the fixed window `now` falls in, `overlap` of the previous one. */
export type CounterHit = {
  key: string;
  limit: number;
  windowMs: number;
  windowStart: number;
  overlap: number;
};

export function createRateLimitsRepo(db: Db) {
  // The row as it was (the upsert's SET sees the old row): this window's count and the previous window's.
  const c = rateLimitCounters;
  const p = (name: string) => sql.placeholder(name);
  // A hit computed before a window boundary may arrive after hits of the next window (another process's clock, or a
  // slow request): it counts in the row's newer window, its previous one fully weighted, and never moves the row
  // back to the older window (which would forget both windows' counts).
  const later = sql`${c.windowStart} > ${p("windowStart")}::bigint`;
  const current = sql`(case when ${c.windowStart} >= ${p("windowStart")}::bigint then ${c.count} else 0 end)`;
  const previous = sql`(case when ${c.windowStart} >= ${p("windowStart")}::bigint then ${c.previous}
    when ${c.windowStart} = ${p("windowStart")}::bigint - ${p("windowMs")}::bigint then ${c.count} else 0 end)`;
  const weight = sql`(case when ${later} then 1 else ${p("overlap")}::float8 end)`;
  const room = sql`(${current} + ${previous} * ${weight} < ${p("limit")}::int)`;
  // Prepared: it runs on every API request on PostgreSQL.
  const counterHit = db
    .insert(c)
    .values({
      key: sql`${p("key")}`,
      windowStart: sql`${p("windowStart")}`,
      count: 1,
      previous: 0,
      lastAllowed: true,
    })
    .onConflictDoUpdate({
      target: c.key,
      set: {
        count: sql`${current} + case when ${room} then 1 else 0 end`,
        previous: previous,
        windowStart: sql`greatest(${c.windowStart}, ${p("windowStart")}::bigint)`,
        lastAllowed: room,
      },
    })
    .returning({ allowed: c.lastAllowed })
    .prepare("rate_limit_counter_hit");

  return {
    /**
     * Counts a hit of a counter bucket if the sliding count (this window's hits plus the previous window's weighted
     * by `overlap`) is under `limit`; answers whether it was. One statement, atomic across processes.
     */
    async hitCounter(hit: CounterHit): Promise<boolean> {
      const [row] = await counterHit.execute(hit);
      return row?.allowed ?? true;
    },

    /** Forgets counters idle for two windows (their count can no longer weigh on anything). */
    async pruneCounters(before: number): Promise<void> {
      await db.delete(c).where(sql`${c.windowStart} < ${before}`);
    },

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
