// Abuse limits (WIRE.md §1.10) as sliding windows: a bucket allows `limit` attempts in any `windowMs`, so there is
// no window edge to burst across. An attempt takes its slot before the work it guards (a password hash, an e-mail)
// and is refused when there is none; work that turns out not to count (a right password) gives its slot back.
//
// Every bucket lives in one shared store (rate-limit-stores.ts: PostgreSQL, or Redis with REDIS_URL), so all server
// processes count together, and a slot is taken atomically. We do not use rate-limiter-flexible for this: its
// PostgreSQL store needs a pg client (the embedded PGlite has none), creates its own table outside our migrations,
// and counts in fixed windows that reset at their edge, which is what let 20 guesses through in 9 s.
// The per-IP request bucket, hit on every request, is a counter rather than a log: it slides approximately (the
// previous window's count weighted by its overlap, as Cloudflare's limiter does), in one small row per client.
import type { Clock } from "../clock.ts";
import { TextError } from "../text-error.ts";
import type { RateLimitStore } from "./rate-limit-stores.ts";

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
  /**
   * [GO] Failed sign-ins and bot challenges per project and IP: at the limit the IP counts as suspicious, and a
   * project with bot protection `suspicious` asks it for a challenge (trust/bot-challenge.ts).
   */
  auth_failure_ip: { limit: 5, windowMs: 15 * 60_000 },
  /** [GO] A bot-challenge token is good once: Turnstile tokens live 300 s, so a used one is remembered that long. */
  bot_token: { limit: 1, windowMs: 300_000 },
} as const;

export type RateLimitBucket = keyof typeof RATE_LIMIT_BUCKETS;
export type RateLimitSettings = { enabled: boolean; limits?: Partial<Record<RateLimitBucket, number>> };

/** Slots taken for one attempt (their bucket keys); `giveBack` returns them when the attempt turns out not to count. */
export type Slots = { keys: string[] };

const tooMany = (retryAfterMs: number) =>
  new TextError(429, "Too many requests. Please try again later.", {
    "retry-after": String(Math.max(1, Math.ceil(retryAfterMs / 1000))),
  });

export function createRateLimiter(deps: {
  store: RateLimitStore;
  clock: Clock;
  settings: RateLimitSettings;
}) {
  const limitOf = (bucket: RateLimitBucket) =>
    deps.settings.limits?.[bucket] ?? RATE_LIMIT_BUCKETS[bucket].limit;
  const none: Slots = { keys: [] };

  /** Takes a slot of a database bucket: the slot, or the milliseconds until one frees. */
  async function take(bucket: RateLimitBucket, key: string): Promise<Slots | { retryAfterMs: number }> {
    const { windowMs } = RATE_LIMIT_BUCKETS[bucket];
    const fullKey = `${bucket}:${key}`;
    const now = deps.clock.now().getTime();
    const answer = await deps.store.take({ key: fullKey, limit: limitOf(bucket), windowMs, now });
    if (!answer.allowed) return { retryAfterMs: answer.oldest + windowMs - now };
    return { keys: [fullKey] };
  }

  async function takeOrRefuse(bucket: RateLimitBucket, key: string): Promise<Slots> {
    const slot = await take(bucket, key);
    if ("retryAfterMs" in slot) throw tooMany(slot.retryAfterMs);
    return slot;
  }

  return {
    /** Counts one request of a client IP, in every process's total; 429 over the limit. */
    async request(clientIp: string): Promise<void> {
      if (!deps.settings.enabled) return;
      const { windowMs } = RATE_LIMIT_BUCKETS.ip;
      const now = deps.clock.now().getTime();
      const windowStart = now - (now % windowMs);
      const overlap = 1 - (now - windowStart) / windowMs;
      const hit = { key: `ip:${clientIp}`, limit: limitOf("ip"), windowMs, windowStart, overlap };
      if (!(await deps.store.hitCounter(hit))) throw tooMany(windowStart + windowMs - now);
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
        await deps.store.giveBack(pair.keys);
        throw tooMany(strict.retryAfterMs);
      }
      return { keys: [...pair.keys, ...strict.keys] };
    },

    /** [GO] Counts a failure of this key (`project:ip`) towards `auth_failure_ip`; a full bucket stays full. */
    async recordFailure(key: string): Promise<void> {
      await take("auth_failure_ip", key);
    },

    /** [GO] Whether `auth_failure_ip` is full for this key: a slot taken to look is given back at once. */
    async isSuspicious(key: string): Promise<boolean> {
      const slot = await take("auth_failure_ip", key);
      if ("retryAfterMs" in slot) return true;
      await deps.store.giveBack(slot.keys);
      return false;
    },

    /**
     * [GO] True the first time a key is seen in `bot_token`'s window, false after. Counted even with limits turned
     * off: a replay guard is not a rate limit.
     */
    async firstUse(key: string): Promise<boolean> {
      return !("retryAfterMs" in (await take("bot_token", key)));
    },

    /** Returns the slots of an attempt that did not count (one statement). */
    giveBack: (slots: Slots) => deps.store.giveBack(slots.keys),
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
