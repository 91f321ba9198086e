// GATEHOUSE_WORKERS=2 on PostgreSQL: a real cluster of two server processes on one port. One scrape of /metrics, on
// the metrics port or the API port, holds both workers' series, merged. One worker is killed with SIGKILL under a
// bounded load: the other keeps answering, the primary restarts the dead one (logged, with its backoff), and SIGTERM
// drains both and ends the primary cleanly.
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, type RunningServer, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

type LogLine = Record<string, unknown> & { msg?: string };
type Outcome = { startedAt: number; status: number | "error" };

let server: RunningServer;
let dataDir: string;
let databaseName: string;
let metricsPort: number;
const TOKEN = "workers-metrics-token-0123456789";

const logLines = (): LogLine[] =>
  server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);

/** One GET on a connection of its own, so the cluster hands each request to the next worker. */
function get(path: string, headers: Record<string, string>): Promise<number | "error"> {
  return new Promise((resolve) => {
    const req = request(`${server.baseUrl}${path}`, { headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", () => resolve("error"));
    });
    req.on("error", () => resolve("error"));
    req.setTimeout(10_000, () => req.destroy());
    req.end();
  });
}

async function waitFor<T>(what: string, find: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  const template = inject("testDbTemplate");
  if (template.kind !== "postgres") throw new Error("e2e/cluster runs on PostgreSQL only");
  dataDir = await mkdtemp(join(tmpdir(), "gatehouse-workers-"));
  databaseName = `gatehouse_workers_${process.pid}_${Date.now()}`;
  metricsPort = await freePort();
  await adminQuery(template.adminUrl, `create database ${databaseName}`);
  server = await startServer(
    {
      PORT: String(await freePort()),
      DATABASE_URL: withDatabase(template.adminUrl, databaseName),
      GATEHOUSE_DATA_DIR: dataDir,
      GATEHOUSE_WORKERS: "2",
      // The load comes from one IP, far over the per-IP limit on purpose.
      GATEHOUSE_RATE_LIMIT_IP: "1000000",
      GATEHOUSE_METRICS_PORT: String(metricsPort),
      GATEHOUSE_METRICS_TOKEN: TOKEN,
    },
    120_000,
  );
}, 150_000);

afterAll(async () => {
  if (server?.child.exitCode === null) server.child.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
  const template = inject("testDbTemplate");
  if (template.kind === "postgres") {
    await adminQuery(template.adminUrl, `drop database if exists ${databaseName} with (force)`);
  }
});

/** A scrape of `url`, parsed by a Prometheus text-format parser: the samples of a family that carry `labels`. */
async function scrape(url: string) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  const families = parsePrometheusTextFormat(await res.text());
  return (name: string, labels: Record<string, string> = {}) =>
    (families.find((f) => f.name === name)?.metrics ?? [])
      .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
      .map((m) => ({ worker: m.labels?.worker, value: Number(m.value) }))
      .sort((a, b) => String(a.worker).localeCompare(String(b.worker)));
}
const metricsUrl = () => `http://127.0.0.1:${metricsPort}/metrics`;
const total = (samples: { value: number }[]) => samples.reduce((sum, s) => sum + s.value, 0);

describe("GATEHOUSE_WORKERS=2", () => {
  it("answers one scrape of either port with every worker's series, labelled by worker", async () => {
    const client = {
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": server.keys.pck,
    };
    const current = { method: "GET", route: "/api/v1/projects/current", status: "200" };
    const counted = total((await scrape(metricsUrl()))("gatehouse_http_requests_total", current));
    // 20 requests, each on a connection of its own: the cluster hands them to both workers.
    for (let i = 0; i < 20; i++) expect(await get("/api/v1/projects/current", client)).toBe(200);
    const servedBy = new Set(
      logLines()
        .filter((l) => l.msg === "request" && l.path === "/api/v1/projects/current")
        .map((l) => l.worker),
    );
    expect([...servedBy].sort()).toEqual([1, 2]);

    for (const url of [metricsUrl(), `${server.baseUrl}/metrics`]) {
      const samples = await scrape(url);
      // Every request counted, whichever worker answered it and whichever process the scrape reached.
      const requests = samples("gatehouse_http_requests_total", current);
      expect(total(requests)).toBe(counted + 20);
      expect(requests.map((s) => s.worker)).toEqual(["1", "2"]);
      // Each worker's own pool (10 connections at most), process and queue readings, side by side.
      expect(samples("gatehouse_db_pool_connections", { state: "max" })).toEqual([
        { worker: "1", value: 10 },
        { worker: "2", value: 10 },
      ]);
      expect(samples("gatehouse_queue_depth", { queue: "email_outbox" }).map((s) => s.worker)).toEqual([
        "1",
        "2",
      ]);
      expect(samples("nodejs_eventloop_lag_seconds").map((s) => s.worker)).toEqual(["1", "2"]);
    }
  }, 60_000);

  it("keeps serving when a worker is killed, and the primary restarts it", async () => {
    const started = logLines().filter((l) => l.msg === "worker started");
    expect(started).toHaveLength(2);
    expect(
      logLines()
        .filter((l) => l.msg === "listening")
        .map((l) => l.worker),
    ).toEqual(expect.arrayContaining([1, 2]));
    // The banner is printed once, by the primary, when both listen.
    expect(server.output().match(/Gatehouse is running at/g)).toHaveLength(1);

    const client = {
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": server.keys.pck,
    };
    const signUp = await fetch(`${server.baseUrl}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: { ...client, "content-type": "application/json" },
      body: JSON.stringify({ email: "workers@example.com", password: "correct horse battery" }),
    });
    expect(signUp.status).toBe(200);
    const { access_token } = (await signUp.json()) as { access_token: string };
    const me = { ...client, "x-stack-access-token": access_token };

    // Bounded load: 6 clients, one request at a time each, until 3 s after the restarted worker listens (60 s at most).
    const victim = started[0] as { worker: number; pid: number };
    const outcomes: Outcome[] = [];
    let killedAt = Number.POSITIVE_INFINITY;
    let stopAt = Date.now() + 60_000;
    const clientLoop = async () => {
      while (Date.now() < stopAt) {
        const startedAt = Date.now();
        outcomes.push({ startedAt, status: await get("/api/v1/users/me", me) });
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, clientLoop));
    await new Promise((r) => setTimeout(r, 1000));
    killedAt = Date.now();
    process.kill(victim.pid, "SIGKILL");

    const restart = await waitFor("the primary's restart line", () =>
      logLines().find((l) => l.msg === "worker exited; restarting it" && l.pid === victim.pid),
    );
    expect(restart).toMatchObject({
      level: "warn",
      worker: victim.worker,
      signal: "SIGKILL",
      restart_in_ms: 100,
    });
    const replacement = await waitFor("the replacement worker", () =>
      logLines().find((l) => l.msg === "listening" && typeof l.worker === "number" && l.worker > 2),
    );
    const replacementId = replacement.worker as number;
    stopAt = Date.now() + 3000;
    await load;

    const before = outcomes.filter((o) => o.startedAt < killedAt);
    const after = outcomes.filter((o) => o.startedAt >= killedAt + 500);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(20);
    // Only requests in flight on the killed worker may fail (6 at most, one per client), and only as a dropped
    // connection: never a 5xx; everything sent after the kill is answered.
    expect(outcomes.filter((o) => o.status === "error").length).toBeLessThanOrEqual(6);
    expect(outcomes.filter((o) => o.status !== "error" && o.status !== 200)).toEqual([]);
    expect(after.filter((o) => o.status !== 200)).toEqual([]);
    // The replacement takes its share of the connections.
    const served = logLines().filter((l) => l.msg === "request" && l.path === "/api/v1/users/me");
    expect(served.some((l) => l.worker === replacementId)).toBe(true);
    expect(served.some((l) => l.worker === 2)).toBe(true);
    // The replacement took over its slot's metrics (worker="1" or "2"), rather than adding series of a third worker.
    const lag = (await scrape(metricsUrl()))("nodejs_eventloop_lag_seconds");
    expect(lag.map((s) => s.worker)).toEqual(["1", "2"]);
  }, 120_000);

  it("drains every worker on SIGTERM: a request in flight is answered, then all exit 0", async () => {
    // A sign-up whose body is half sent when SIGTERM arrives: its worker must wait for the rest and answer it.
    const body = JSON.stringify({ email: "draining@example.com", password: "correct horse battery" });
    const answer = new Promise<number | string>((resolve) => {
      const req = request(
        `${server.baseUrl}/api/v1/auth/password/sign-up`,
        {
          method: "POST",
          agent: false,
          headers: {
            "x-stack-access-type": "client",
            "x-stack-project-id": "internal",
            "x-stack-publishable-client-key": server.keys.pck,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body)),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      req.write(body.slice(0, 20));
      setTimeout(() => req.end(body.slice(20)), 1500);
    });
    await new Promise((r) => setTimeout(r, 500));
    const stopped = server.stop();
    expect(await answer).toBe(200);
    expect(await stopped).toBe(0);
    const lines = logLines();
    // Each live worker closed its server and database ("stopped" with its number), then the primary.
    const stops = lines.filter((l) => l.msg === "stopped");
    expect(stops.filter((l) => typeof l.worker === "number")).toHaveLength(2);
    expect(stops.at(-1)?.worker).toBeUndefined();
  }, 60_000);
});
