// Abuse limits (WIRE.md §1.10) as sliding windows: a bucket allows `limit` attempts in any `windowMs`, so there is
// no window edge to burst across. An attempt takes its slot before the work it guards (a password hash, an e-mail)
// and is refused when there is none; work that turns out not to count (a right password) gives its slot back.
//
// Every bucket but the per-IP request bucket lives in the database, so all server processes share it and a slot is
// taken atomically (db/rate-limits-repo.ts). We do not use rate-limiter-flexible for this: its PostgreSQL store
// needs a pg client (the embedded PGlite has none), creates its own table outside our migrations, and counts in
// fixed windows that reset at their edge, which is what let 20 guesses through in 9 s.
// The per-IP request bucket counts in memory, per process: a database write on every request would cost more than
// the abuse it stops. It slides too, approximately (the previous window's count weighted by its overlap, as
// Cloudflare's limiter does), in constant memory per client.
import type { Clock } from "../clock.ts";
import type { RateLimitsRepo } from "../db/rate-limits-repo.ts";
import { TextError } from "../text-error.ts";

export const RATE_LIMIT_BUCKETS = {
  /** Every /api/v1 request, per client IP. */
  ip: { limit: 600, windowMs: 60_000 },
  /** Failed password sign-ins per project, e-mail and IP: stops one attacker guessing one account. */
  sign_in_email_ip: { limit: 10, windowMs: 15 * 60_000 },
  /**
   * Failed password sign-ins per project and e-mail from all IPs: a ceiling, not a lockout. Once it is full, each
   * IP gets `sign_in_email_ip_over_ceiling` for that address instead, so a spread-out attack slows to one guess per
   * IP per window while the owner, from any IP without failures on the account, still signs in.
   */
  sign_in_email: { limit: 100, windowMs: 60 * 60_000 },
  sign_in_email_ip_over_ceiling: { limit: 1, windowMs: 15 * 60_000 },
  /**
   * Failed second factors (TOTP or recovery code) per user from all IPs. Each password sign-in mints a new attempt
   * code, so the per-code and per-IP limits alone let a botnet that knows the password keep guessing; Auth0 and
   * Keycloak count second-factor failures per user for this reason.
   */
  mfa_user: { limit: 10, windowMs: 15 * 60_000 },
  /** E-mails sent to one address of a project by the code-sending endpoints. */
  email_send: { limit: 5, windowMs: 15 * 60_000 },
  /** Submissions to any code endpoint, per client IP. */
  code_ip: { limit: 60, windowMs: 60_000 },
} as const;

export type RateLimitBucket = keyof typeof RATE_LIMIT_BUCKETS;
export type RateLimitSettings = { enabled: boolean; limits?: Partial<Record<RateLimitBucket, number>> };

/** Slots taken for one attempt (their bucket keys); `giveBack` returns them when the attempt turns out not to count. */
export type Slots = { keys: string[] };

const tooMany = (retryAfterMs: number) =>
  new TextError(429, "Too many requests. Please try again later.", {
    "retry-after": String(Math.max(1, Math.ceil(retryAfterMs / 1000))),
  });

export function createRateLimiter(deps: { repo: RateLimitsRepo; clock: Clock; settings: RateLimitSettings }) {
  const limitOf = (bucket: RateLimitBucket) =>
    deps.settings.limits?.[bucket] ?? RATE_LIMIT_BUCKETS[bucket].limit;
  const requests = createMemoryBucket();
  const none: Slots = { keys: [] };

  /** Takes a slot of a database bucket: the slot, or the milliseconds until one frees. */
  async function take(bucket: RateLimitBucket, key: string): Promise<Slots | { retryAfterMs: number }> {
    const { windowMs } = RATE_LIMIT_BUCKETS[bucket];
    const fullKey = `${bucket}:${key}`;
    const now = deps.clock.now().getTime();
    const answer = await deps.repo.take({ key: fullKey, limit: limitOf(bucket), windowMs, now });
    if (!answer.allowed) return { retryAfterMs: answer.oldest + windowMs - now };
    return { keys: [fullKey] };
  }

  async function takeOrRefuse(bucket: RateLimitBucket, key: string): Promise<Slots> {
    const slot = await take(bucket, key);
    if ("retryAfterMs" in slot) throw tooMany(slot.retryAfterMs);
    return slot;
  }

  return {
    /** Counts one request of a client IP in this process's memory; 429 over the limit. */
    request(clientIp: string): void {
      if (!deps.settings.enabled) return;
      const retryAfterMs = requests.hit(clientIp, limitOf("ip"), RATE_LIMIT_BUCKETS.ip.windowMs, deps.clock);
      if (retryAfterMs !== null) throw tooMany(retryAfterMs);
    },

    /** Takes a slot of the bucket for this attempt; 429 when the bucket is full. */
    async hit(bucket: Exclude<RateLimitBucket, "ip">, key: string): Promise<Slots> {
      if (!deps.settings.enabled) return none;
      return takeOrRefuse(bucket, key);
    },

    /**
     * A password attempt on `emailKey` from `ip`, before the hash: the per-address-and-IP slot, then the ceiling's;
     * over the ceiling, the stricter per-IP slot. Give the returned slot back when the password was right.
     */
    async passwordAttempt(emailKey: string, ip: string): Promise<Slots> {
      if (!deps.settings.enabled) return none;
      const pair = await takeOrRefuse("sign_in_email_ip", `${emailKey}:${ip}`);
      const ceiling = await take("sign_in_email", emailKey);
      if (!("retryAfterMs" in ceiling)) return { keys: [...pair.keys, ...ceiling.keys] };
      const strict = await take("sign_in_email_ip_over_ceiling", `${emailKey}:${ip}`);
      if ("retryAfterMs" in strict) {
        // Refused before any work: the attempt does not count against the pair either.
        await deps.repo.giveBack(pair.keys);
        throw tooMany(strict.retryAfterMs);
      }
      return { keys: [...pair.keys, ...strict.keys] };
    },

    /** Returns the slots of an attempt that did not count (one statement). */
    giveBack: (slots: Slots) => deps.repo.giveBack(slots.keys),
  };
}

/**
 * A sliding-window counter per key in memory: the current fixed window's count plus the previous window's, weighted
 * by how much of it the sliding window still covers. Answers null when the hit is allowed, else ms until it would be.
 */
function createMemoryBucket() {
  const entries = new Map<string, { start: number; count: number; previous: number }>();
  return {
    hit(key: string, limit: number, windowMs: number, clock: Clock): number | null {
      const now = clock.now().getTime();
      const start = now - (now % windowMs);
      let entry = entries.get(key);
      if (!entry || entry.start !== start) {
        const previous = entry && entry.start === start - windowMs ? entry.count : 0;
        entry = { start, count: 0, previous };
        entries.set(key, entry);
      }
      const overlap = 1 - (now - start) / windowMs;
      if (entry.count + entry.previous * overlap >= limit) return start + windowMs - now;
      entry.count += 1;
      // Forget clients idle for two windows now and then, so the map stays the size of the active clients.
      if (entries.size > 100_000)
        for (const [k, v] of entries) if (v.start < start - windowMs) entries.delete(k);
      return null;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
