// The per-IP request limit across a cluster: three servers on one PostgreSQL database behind a round-robin proxy
// allow a limit of 10 requests from one client IP in total, not 10 per process (30), whether the limit is counted
// in PostgreSQL (the default) or in Redis (REDIS_URL, or the Redis at 127.0.0.1:6379).
import { randomInt } from "node:crypto";
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
