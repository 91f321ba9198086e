// Abuse limits (WIRE.md §1.10): fixed windows per bucket. The sign-in and e-mail buckets count in the database so
// every server process shares them; the general per-IP bucket counts in memory, because a database write on every
// request would cost more than the abuse it stops (each process then allows the limit on its own).
import type { Clock } from "../clock.ts";
import type { RateLimitsRepo } from "../db/rate-limits-repo.ts";
import { TextError } from "../text-error.ts";

export const RATE_LIMIT_BUCKETS = {
  /** Every /api/v1 request, per client IP. */
  ip: { limit: 600, windowMs: 60_000 },
  /** Failed password sign-ins per project, e-mail and IP. */
  sign_in_email_ip: { limit: 10, windowMs: 15 * 60_000 },
  /** Failed password sign-ins per project and e-mail: a ceiling, not a lockout; it lifts as windows pass. */
  sign_in_email: { limit: 100, windowMs: 60 * 60_000 },
  /** E-mails sent to one address of a project by the code-sending endpoints. */
  email_send: { limit: 5, windowMs: 15 * 60_000 },
  /** Submissions to any code endpoint, per client IP. */
  code_ip: { limit: 60, windowMs: 60_000 },
} as const;

export type RateLimitBucket = keyof typeof RATE_LIMIT_BUCKETS;
export type RateLimitSettings = { enabled: boolean; limits?: Partial<Record<RateLimitBucket, number>> };

export function createRateLimiter(deps: { repo: RateLimitsRepo; clock: Clock; settings: RateLimitSettings }) {
  const memory = new Map<string, { windowStart: number; count: number }>();
  const limitOf = (bucket: RateLimitBucket) =>
    deps.settings.limits?.[bucket] ?? RATE_LIMIT_BUCKETS[bucket].limit;

  function window(bucket: RateLimitBucket) {
    const { windowMs } = RATE_LIMIT_BUCKETS[bucket];
    const now = deps.clock.now().getTime();
    const start = now - (now % windowMs);
    return { start, retryAfter: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
  }

  const tooMany = (retryAfter: number) =>
    new TextError(429, "Too many requests. Please try again later.", { "retry-after": String(retryAfter) });

  async function increment(bucket: RateLimitBucket, key: string, start: number): Promise<number> {
    const fullKey = `${bucket}:${key}`;
    if (bucket !== "ip") return deps.repo.increment(fullKey, new Date(start));
    const entry = memory.get(fullKey);
    const next =
      entry && entry.windowStart === start
        ? { windowStart: start, count: entry.count + 1 }
        : { windowStart: start, count: 1 };
    memory.set(fullKey, next);
    // Forget finished windows now and then so the map stays the size of the active clients.
    if (memory.size > 100_000) for (const [k, v] of memory) if (v.windowStart !== start) memory.delete(k);
    return next.count;
  }

  return {
    /** Counts one event and refuses it with 429 when the bucket is over its limit. */
    async hit(bucket: RateLimitBucket, key: string): Promise<void> {
      if (!deps.settings.enabled) return;
      const { start, retryAfter } = window(bucket);
      if ((await increment(bucket, key, start)) > limitOf(bucket)) throw tooMany(retryAfter);
    },

    /**
     * Refuses with 429 when any of these buckets is already full, without counting (for buckets that count
     * failures). One query for all of them.
     */
    async assertOpen(...checks: [RateLimitBucket, string][]): Promise<void> {
      if (!deps.settings.enabled) return;
      const windows = checks.map(([bucket]) => window(bucket));
      const counts = await deps.repo.counts(
        checks.map(([bucket, key], i) => ({
          key: `${bucket}:${key}`,
          windowStart: new Date(windows[i]!.start),
        })),
      );
      const full = checks.findIndex(([bucket], i) => (counts[i] ?? 0) >= limitOf(bucket));
      if (full >= 0) throw tooMany(windows[full]!.retryAfter);
    },

    /** Counts a failure without refusing (the next attempt meets `assertOpen`). */
    async record(bucket: RateLimitBucket, key: string): Promise<void> {
      if (!deps.settings.enabled) return;
      await increment(bucket, key, window(bucket).start);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
