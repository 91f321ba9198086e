// The rate-limit stores hold one contract: the database store (PGlite, and PostgreSQL in the postgres run) and the
// Redis store (the Redis at REDIS_URL, or 127.0.0.1:6379) answer alike for the exact sliding log of abuse buckets
// and the weighted counter of the per-IP bucket, and never let parallel takers past a limit.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { createRateLimitsRepo } from "../db/rate-limits-repo.ts";
import { silentLogger } from "../logger.ts";
import { openTestDatabase } from "../testing/test-database.ts";
import { createRedisStore } from "./rate-limit-redis.ts";
import { createDatabaseStore, type RateLimitStore } from "./rate-limit-stores.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
let database: Database;
const stores: Record<string, RateLimitStore> = {};

beforeAll(async () => {
  database = await openTestDatabase();
  stores.database = createDatabaseStore(database);
  // A prefix of its own: runs on one Redis never see each other's buckets.
  stores.redis = createRedisStore({
    url: REDIS_URL,
    prefix: `gatehouse-test:${randomUUID()}:`,
    logger: silentLogger,
  });
});
afterAll(async () => {
  await Promise.all(Object.values(stores).map((store) => store.close()));
  await database.close();
});

const WINDOW = 60_000;
const T0 = 1_800_000_000_000; // a window start

describe.each(["database", "redis"])("the %s store", (name) => {
  const store = () => stores[name] as RateLimitStore;
  const key = () => `test:${randomUUID()}`;

  it("records up to the limit in any window, refuses beyond, and frees a slot as the oldest leaves", async () => {
    const k = key();
    const take = (now: number) => store().take({ key: k, limit: 3, windowMs: WINDOW, now });
    expect(await take(T0)).toEqual({ allowed: true, oldest: T0 });
    expect((await take(T0 + 10)).allowed).toBe(true);
    expect((await take(T0 + 20)).allowed).toBe(true);
    expect(await take(T0 + 30)).toEqual({ allowed: false, oldest: T0 });
    // The first attempt leaves the window at T0 + WINDOW (attempts at exactly `now - window` are out).
    expect(await take(T0 + WINDOW - 1)).toEqual({ allowed: false, oldest: T0 });
    expect(await take(T0 + WINDOW)).toEqual({ allowed: true, oldest: T0 + 10 });
  });

  it("lets exactly `limit` of 40 parallel attempts through", async () => {
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store().take({ key: k, limit: 10, windowMs: WINDOW, now: T0 + i }),
      ),
    );
    expect(answers.filter((a) => a.allowed)).toHaveLength(10);
  });

  it("gives back the newest slot of each key", async () => {
    const [a, b] = [key(), key()];
    const take = (k: string, now: number) => store().take({ key: k, limit: 2, windowMs: WINDOW, now });
    await take(a, T0);
    await take(a, T0 + 5);
    await take(b, T0);
    await store().giveBack([a, b]);
    // a keeps its first attempt, b has none: one more for a, two for b.
    expect(await take(a, T0 + 6)).toEqual({ allowed: true, oldest: T0 });
    expect((await take(a, T0 + 7)).allowed).toBe(false);
    expect((await take(b, T0 + 6)).allowed).toBe(true);
    expect((await take(b, T0 + 7)).allowed).toBe(true);
  });

  it("counts a sliding counter: the limit in a window, then the previous window weighted by its overlap", async () => {
    const k = key();
    const hit = (windowStart: number, overlap: number) =>
      store().hitCounter({ key: k, limit: 10, windowMs: WINDOW, windowStart, overlap });
    const first = await Promise.all(Array.from({ length: 30 }, () => hit(T0, 1)));
    expect(first.filter(Boolean)).toHaveLength(10);
    // Half-way through the next window, the previous 10 weigh 5: 5 more.
    const second = await Promise.all(Array.from({ length: 30 }, () => hit(T0 + WINDOW, 0.5)));
    expect(second.filter(Boolean)).toHaveLength(5);
    // Two windows on, nothing weighs.
    const third = await Promise.all(Array.from({ length: 30 }, () => hit(T0 + 3 * WINDOW, 0.99)));
    expect(third.filter(Boolean)).toHaveLength(10);
  });

  it("never moves a counter back to an older window: a late hit from before the boundary counts in the newer one", async () => {
    // Processes compute the window from their own clocks, and a hit computed just before a boundary can reach the
    // store after hits of the next window (seen in the three-process suite under load: 13 of 30 let through).
    const k = key();
    const hit = (windowStart: number, overlap: number) =>
      store().hitCounter({ key: k, limit: 10, windowMs: WINDOW, windowStart, overlap });
    expect((await Promise.all(Array.from({ length: 6 }, () => hit(T0, 0.01)))).filter(Boolean)).toHaveLength(
      6,
    );
    expect(
      (await Promise.all(Array.from({ length: 4 }, () => hit(T0 + WINDOW, 0.99)))).filter(Boolean),
    ).toHaveLength(4);
    // Late hits of the old window: the newer window's 4 and the previous 6 are both still counted.
    expect((await Promise.all(Array.from({ length: 5 }, () => hit(T0, 0.01)))).filter(Boolean)).toHaveLength(
      0,
    );
    // And the newer window goes on where it was: 4 + 6 × 0.99 leaves room for one more.
    expect([await hit(T0 + WINDOW, 0.99), await hit(T0 + WINDOW, 0.99)]).toEqual([true, false]);
  });
});

// On PGlite the store counts requests in memory (one process), so the counter's SQL, which every PostgreSQL
// deployment runs on every request, is checked here on both databases.
describe("the database counter statement", () => {
  it("takes the same decisions as the memory counter, atomically, and prunes idle counters", async () => {
    const repo = createRateLimitsRepo(database.db);
    const k = `test:${randomUUID()}`;
    const hit = (windowStart: number, overlap: number) =>
      repo.hitCounter({ key: k, limit: 10, windowMs: WINDOW, windowStart, overlap });
    expect((await Promise.all(Array.from({ length: 30 }, () => hit(T0, 1)))).filter(Boolean)).toHaveLength(
      10,
    );
    expect(
      (await Promise.all(Array.from({ length: 30 }, () => hit(T0 + WINDOW, 0.3)))).filter(Boolean),
    ).toHaveLength(7);
    // A late hit of the window before changes nothing (the counter stays in the newer window, and full).
    expect(await hit(T0, 0.01)).toBe(false);
    await repo.pruneCounters(T0 + 2 * WINDOW);
    // Pruned: a fresh start in the same window.
    expect(
      (await Promise.all(Array.from({ length: 30 }, () => hit(T0 + WINDOW, 0.3)))).filter(Boolean),
    ).toHaveLength(10);
  });
});
