// The per-IP request limit across a cluster: three servers on one PostgreSQL database behind a round-robin proxy
// allow a limit of 10 requests from one client IP in total, not 10 per process (30), whether the limit is counted
// in PostgreSQL (the default) or in Redis (REDIS_URL, or the Redis at 127.0.0.1:6379). Two installs sharing one Redis
// count apart: each one's keys start with its own prefix.
import { randomInt } from "node:crypto";
import { type RedisServer, startRedisServer } from "@gatehouse/server/testing/redis-server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, internalHeaders, startCluster } from "./cluster.ts";

const STORES: { store: string; env: Record<string, string> }[] = [
  { store: "PostgreSQL", env: {} },
  { store: "Redis", env: { REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" } },
];

describe.each(STORES)("the per-IP request limit on three processes, counted in $store", ({ store, env }) => {
  let cluster: Cluster;
  // Addresses of this run alone: a Redis outlives test runs, and its counters with it.
  const ip = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

  beforeAll(async () => {
    cluster = await startCluster(3, { GATEHOUSE_RATE_LIMIT_IP: "10", ...env });
  }, 180_000);
  afterAll(() => cluster?.stop());

  async function get(path: string, ip: string) {
    const res = await fetch(`${cluster.proxy.url}/api/v1${path}`, {
      headers: { ...internalHeaders(cluster.gateway, "client"), "x-forwarded-for": ip },
    });
    await res.arrayBuffer();
    return { status: res.status, retryAfter: res.headers.get("retry-after") };
  }

  it("allows 10 requests from one IP in total, each process having served a third of them", async () => {
    const before = [...cluster.proxy.served];
    const client = ip();
    const answers = await Promise.all(Array.from({ length: 30 }, () => get("/projects/current", client)));
    expect(cluster.proxy.served.map((n, i) => n - (before[i] ?? 0))).toEqual([10, 10, 10]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(20);
    expect(Number(refused[0]?.retryAfter)).toBeGreaterThan(0);
    // Another client IP has an allowance of its own.
    expect((await get("/projects/current", ip())).status).toBe(200);
    // Counted where the setting says: a counter row in PostgreSQL, none there when Redis holds it.
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    const { rows } = await db.query("select count from rate_limit_counters where key = $1", [`ip:${client}`]);
    await db.end();
    expect(rows).toEqual(store === "PostgreSQL" ? [{ count: 10 }] : []);
  });
});

describe("two installs on one Redis", () => {
  let redis: RedisServer;
  let installs: Cluster[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    // Two installs: each its own PostgreSQL database and secret, both counting in one Redis, with no prefix set.
    const env = { GATEHOUSE_RATE_LIMIT_IP: "10", REDIS_URL: redis.url };
    installs = await Promise.all([startCluster(1, env), startCluster(1, env)]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(installs.map((install) => install.stop()));
    await redis?.kill();
  });

  async function statuses(install: Cluster, ip: string, count: number) {
    return Promise.all(
      Array.from({ length: count }, async () => {
        const res = await fetch(`${install.proxy.url}/api/v1/projects/current`, {
          headers: { ...internalHeaders(install.gateway, "client"), "x-forwarded-for": ip },
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
  }

  it("count apart: one client IP gets the limit of 10 from each, and each install names its own prefix", async () => {
    const [a, b] = installs as [Cluster, Cluster];
    const client = "198.51.100.23";
    expect(await statuses(a, client, 10)).toEqual(Array(10).fill(200));
    // With one prefix for every install, these would find A's 10 requests and refuse.
    expect(await statuses(b, client, 10)).toEqual(Array(10).fill(200));
    expect(await statuses(a, client, 1)).toEqual([429]);
    expect(await statuses(b, client, 1)).toEqual([429]);
    const prefixOf = (install: Cluster) =>
      /"redis_prefix":"([^"]+)"/.exec(install.servers[0]?.output() ?? "")?.[1];
    expect(prefixOf(a)).toMatch(/^gatehouse:[0-9a-f]{16}:$/);
    expect(prefixOf(b)).toMatch(/^gatehouse:[0-9a-f]{16}:$/);
    expect(prefixOf(a)).not.toBe(prefixOf(b));
  });
});
