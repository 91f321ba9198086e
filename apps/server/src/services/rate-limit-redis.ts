// The rate-limit store on Redis (REDIS_URL), for rates PostgreSQL should not carry. Same semantics as the database
// store (db/rate-limits-repo.ts): an exact sliding log per abuse bucket (a sorted set of attempt times) and a weighted
// sliding counter per IP (a hash), each read-and-written by one Lua script, which Redis runs atomically. We keep our
// own scripts rather than rate-limiter-flexible's Redis store: that store counts fixed windows that reset at their
// edge and has no "give the newest slot back", so it would differ from the PostgreSQL store it stands in for.
import { randomUUID } from "node:crypto";
import { KnownErrors } from "@gatehouse/contract";
import { Redis, ReplyError } from "ioredis";
import type { Logger } from "../logger.ts";
import type { RateLimitStore } from "./rate-limit-stores.ts";

// KEYS[1] the bucket; ARGV now, windowMs, limit, member. Drops attempts that left the window (h <= now - window, as
// the database's `h > since`), records this one if there is room, answers {allowed, oldest time in the window}.
const TAKE = `
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local allowed = 0
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {allowed, oldest[2] or tostring(now)}
`;

// KEYS[1] the counter; ARGV windowStart, windowMs, limit, overlap. The same arithmetic as the database's upsert.
const HIT = `
local start, window, limit, overlap = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local row = redis.call('HMGET', KEYS[1], 's', 'c', 'p')
local s, c, p = tonumber(row[1]), tonumber(row[2]) or 0, tonumber(row[3]) or 0
-- A hit computed before a boundary that arrives after the next window's hits counts in that newer window, fully
-- weighted: the counter never goes back to an older window (which would forget both windows' counts).
if s and s > start then start, overlap = s, 1 end
local current, previous = 0, 0
if s == start then current, previous = c, p elseif s == start - window then previous = c end
local allowed = 0
if current + previous * overlap < limit then current = current + 1; allowed = 1 end
redis.call('HSET', KEYS[1], 's', start, 'c', current, 'p', previous)
redis.call('PEXPIRE', KEYS[1], 2 * window)
return allowed
`;

type Scripts = {
  gatehouseTake(
    key: string,
    now: number,
    windowMs: number,
    limit: number,
    member: string,
  ): Promise<[number, string]>;
  gatehouseHit(key: string, start: number, windowMs: number, limit: number, overlap: number): Promise<number>;
};

/**
 * How long one command may take, queued while reconnecting or sent: a request waits at most this long for Redis
 * before it answers REDIS_UNAVAILABLE, never the client's default of twenty reconnection attempts, or for ever when
 * the network drops packets. The Lua scripts take microseconds; a second is an outage, not a slow answer.
 */
const COMMAND_TIMEOUT_MS = 1_000;
/** Reconnection attempts come every 100 ms, then 200 ms..., at most a second apart: Redis back is Redis used. */
const retryDelay = (attempt: number) => Math.min(attempt * 100, 1_000);
/**
 * Redis's own refusals that mean "not now" (loading its data, a failover, full under `noeviction`), rather than a
 * fault in our scripts.
 */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|OOM)\b/;

/** A failure that means Redis is out of reach for now: anything but an error reply to a command it did run. */
function isOutage(error: unknown): boolean {
  if (error instanceof ReplyError) return TRANSIENT_REPLY.test((error as Error).message);
  return true; // connection closed or refused, command timed out, offline queue flushed
}

export type RedisStoreOptions = {
  url: string;
  /** The install's key prefix (GATEHOUSE_REDIS_PREFIX, or one derived from its database: db/identity.ts). */
  prefix: string;
  logger: Pick<Logger, "info" | "warn">;
};

/**
 * The store over one ioredis connection, which reconnects by itself. While Redis is out of reach, every call fails
 * within COMMAND_TIMEOUT_MS with REDIS_UNAVAILABLE (503: the limits fail closed rather than let unlimited guesses
 * through), and the log says so once when Redis goes and once when it is back, not once per request.
 */
export function createRedisStore({ url, prefix, logger }: RedisStoreOptions): RateLimitStore {
  const redis = new Redis(url, {
    keyPrefix: `${prefix}rl:`,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2 * COMMAND_TIMEOUT_MS,
    retryStrategy: retryDelay,
    // Queued commands are failed after one reconnection attempt that does not succeed.
    maxRetriesPerRequest: 1,
  });
  // Only the host: the URL may carry a password.
  const host = new URL(url).host;
  let reachable: boolean | undefined; // unknown until the first connection or failure
  let closing = false;
  const wentAway = (error: unknown) => {
    if (reachable === false || closing) return;
    reachable = false;
    logger.warn(
      "redis unreachable: requests answer REDIS_UNAVAILABLE (503) until it is back",
      { host },
      error,
    );
  };
  const isBack = () => {
    if (reachable === false) logger.info("redis reachable again", { host });
    reachable = true;
  };
  redis.on("error", wentAway); // each failed reconnection; said once until Redis is back
  redis.on("ready", isBack);
  redis.defineCommand("gatehouseTake", { numberOfKeys: 1, lua: TAKE });
  redis.defineCommand("gatehouseHit", { numberOfKeys: 1, lua: HIT });
  // defineCommand adds the methods at run time; ioredis's types cannot know them.
  const scripts = redis as unknown as Scripts;

  /** Runs one call; an outage becomes the known error, anything else (a fault in a script) stays a 500. */
  async function call<T>(run: () => Promise<T>): Promise<T> {
    // Known to be away and not reconnected: answer at once rather than hold every request for the command timeout
    // (the client keeps reconnecting on its own, and "ready" marks Redis back).
    if (reachable === false && redis.status !== "ready") throw KnownErrors.REDIS_UNAVAILABLE();
    try {
      const answer = await run();
      isBack();
      return answer;
    } catch (error) {
      if (!isOutage(error)) throw error;
      wentAway(error);
      throw KnownErrors.REDIS_UNAVAILABLE();
    }
  }

  return {
    take: ({ key, limit, windowMs, now }) =>
      call(async () => {
        // A unique member per attempt: two attempts in one millisecond are two attempts.
        const [allowed, oldest] = await scripts.gatehouseTake(
          key,
          now,
          windowMs,
          limit,
          `${now}:${randomUUID()}`,
        );
        return { allowed: allowed === 1, oldest: Number(oldest) };
      }),
    giveBack: (keys) =>
      call(async () => {
        if (keys.length === 0) return;
        const batch = redis.multi();
        for (const key of keys) batch.zpopmax(key);
        const results = await batch.exec();
        // exec answers each command's own error beside its result; a failed one is the batch's failure.
        const failed = results?.find(([error]) => error)?.[0];
        if (failed) throw failed;
      }),
    hitCounter: ({ key, limit, windowMs, windowStart, overlap }) =>
      call(async () => (await scripts.gatehouseHit(key, windowStart, windowMs, limit, overlap)) === 1),
    async close() {
      closing = true;
      // quit waits for Redis's answer; while Redis is away there is none to wait for.
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
