// Where rate-limit buckets are counted: the store behind services/rate-limits.ts. PostgreSQL by default (every
// process on the database shares it), Redis when REDIS_URL is set (rate-limit-redis.ts, same semantics), and, for the
// per-IP request counter on embedded PGlite, this process's memory: PGlite admits one process, so memory is shared.
import type { Database } from "../db/client.ts";
import {
  type CounterHit,
  createRateLimitsRepo,
  type SlotAnswer,
  type SlotRequest,
} from "../db/rate-limits-repo.ts";

export type { CounterHit, SlotAnswer, SlotRequest };

/** Two kinds of bucket: an exact log of attempts (abuse limits) and a cheap sliding counter (requests per IP). */
export type RateLimitStore = {
  /** Records an attempt if the log holds fewer than `limit` in the window; atomic across processes. */
  take(request: SlotRequest): Promise<SlotAnswer>;
  /** Removes the newest attempt of each key. */
  giveBack(keys: string[]): Promise<void>;
  /** Counts a hit if the weighted sliding count is under the limit; answers whether it did. Atomic. */
  hitCounter(hit: CounterHit): Promise<boolean>;
  close(): Promise<void>;
};

/** Idle counters are forgotten this often at most (PostgreSQL), so the table stays the size of the active clients. */
const PRUNE_EVERY_MS = 10 * 60_000;

export function createDatabaseStore(database: Database): RateLimitStore {
  const repo = createRateLimitsRepo(database.db);
  if (database.kind === "pglite")
    return { ...repo, hitCounter: createMemoryCounter(), close: async () => {} };
  let lastPrune = 0;
  return {
    take: repo.take,
    giveBack: repo.giveBack,
    async hitCounter(hit) {
      if (hit.windowStart - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = hit.windowStart;
        // Housekeeping off the request's path; a failure only leaves rows for the next prune.
        repo.pruneCounters(hit.windowStart - 2 * hit.windowMs).catch(() => {});
      }
      return repo.hitCounter(hit);
    },
    close: async () => {},
  };
}

/** The sliding counter in memory, for a process that is alone on its database (PGlite). */
export function createMemoryCounter(): RateLimitStore["hitCounter"] {
  const entries = new Map<string, { start: number; count: number; previous: number }>();
  return async ({ key, limit, windowMs, windowStart, overlap }) => {
    let entry = entries.get(key);
    // A hit from before a boundary that comes after the next window's (the clock stepped back) counts in the newer
    // window, fully weighted, as the shared stores do.
    const late = entry !== undefined && entry.start > windowStart;
    if (!entry || entry.start < windowStart) {
      const previous = entry && entry.start === windowStart - windowMs ? entry.count : 0;
      entry = { start: windowStart, count: 0, previous };
      entries.set(key, entry);
    }
    if (entry.count + entry.previous * (late ? 1 : overlap) >= limit) return false;
    entry.count += 1;
    // Forget clients idle for two windows now and then, so the map stays the size of the active clients.
    if (entries.size > 100_000)
      for (const [k, v] of entries) if (v.start < windowStart - windowMs) entries.delete(k);
    return true;
  };
}
