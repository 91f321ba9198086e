// The per-IP request limit across a cluster: three servers on one PostgreSQL database behind a round-robin proxy
// allow a limit of 10 requests from one client IP in total, not 10 per process (30).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, internalHeaders, startCluster } from "./cluster.ts";

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster(3, { GATEHOUSE_RATE_LIMIT_IP: "10" });
}, 180_000);
afterAll(() => cluster?.stop());

async function get(path: string, ip: string) {
  const res = await fetch(`${cluster.proxy.url}/api/v1${path}`, {
    headers: { ...internalHeaders(cluster.gateway, "client"), "x-forwarded-for": ip },
  });
  await res.arrayBuffer();
  return { status: res.status, retryAfter: res.headers.get("retry-after") };
}

describe("the per-IP request limit on three processes", () => {
  it("allows 10 requests from one IP in total, each process having served a third of them", async () => {
    const before = [...cluster.proxy.served];
    const answers = await Promise.all(Array.from({ length: 30 }, () => get("/projects/current", "10.1.0.1")));
    expect(cluster.proxy.served.map((n, i) => n - (before[i] ?? 0))).toEqual([10, 10, 10]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(20);
    expect(Number(refused[0]?.retryAfter)).toBeGreaterThan(0);
    // Another client IP has an allowance of its own.
    expect((await get("/projects/current", "10.1.0.2")).status).toBe(200);
  });
});
