// The rate-limit store on Redis (REDIS_URL), for rates PostgreSQL should not carry. Same semantics as the database
// store (db/rate-limits-repo.ts): an exact sliding log per abuse bucket (a sorted set of attempt times) and a weighted
// sliding counter per IP (a hash), each read-and-written by one Lua script, which Redis runs atomically. We keep our
// own scripts rather than rate-limiter-flexible's Redis store: that store counts fixed windows that reset at their
// edge and has no "give the newest slot back", so it would differ from the PostgreSQL store it stands in for.
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
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

/** `prefix` keeps the buckets of several instances (or test runs) on one Redis apart. */
export function createRedisStore(url: string, prefix = "gatehouse:rl:"): RateLimitStore {
  // While Redis is unreachable, a command waits for one reconnection attempt, then fails its request, rather than
  // holding requests for the client's default twenty attempts.
  const redis = new Redis(url, { keyPrefix: prefix, maxRetriesPerRequest: 1 });
  redis.on("error", () => {}); // reconnects by itself; each failed command still rejects its own request
  redis.defineCommand("gatehouseTake", { numberOfKeys: 1, lua: TAKE });
  redis.defineCommand("gatehouseHit", { numberOfKeys: 1, lua: HIT });
  // defineCommand adds the methods at run time; ioredis's types cannot know them.
  const scripts = redis as unknown as Scripts;
  return {
    async take({ key, limit, windowMs, now }) {
      // A unique member per attempt: two attempts in one millisecond are two attempts.
      const [allowed, oldest] = await scripts.gatehouseTake(
        key,
        now,
        windowMs,
        limit,
        `${now}:${randomUUID()}`,
      );
      return { allowed: allowed === 1, oldest: Number(oldest) };
    },
    async giveBack(keys) {
      if (keys.length === 0) return;
      const batch = redis.multi();
      for (const key of keys) batch.zpopmax(key);
      await batch.exec();
    },
    async hitCounter({ key, limit, windowMs, windowStart, overlap }) {
      return (await scripts.gatehouseHit(key, windowStart, windowMs, limit, overlap)) === 1;
    },
    close: async () => void (await redis.quit()),
  };
}
