// Redis out of reach (REDIS_URL set, Redis down, stopped mid-run, or not answering) through the real app and a real
// redis-server of the test's own: requests answer REDIS_UNAVAILABLE (503, Retry-After) instead of a 500 or a hang,
// the log says so once rather than once a request, and the server uses Redis again by itself once it is back.
import { createServer, type Server } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import type { Database } from "../db/client.ts";
import { createDeps } from "../deps.ts";
import { type Logger, silentLogger } from "../logger.ts";
import { type RedisServer, startRedisServer } from "../testing/redis-server.ts";
import { freePort } from "../testing/server-process.ts";
import { openTestDatabase } from "../testing/test-database.ts";
import { TEST_BASE_URL, TEST_SECRET } from "../testing/test-server.ts";
import { createRedisStore } from "./rate-limit-redis.ts";

let database: Database;
let redis: RedisServer;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  database = await openTestDatabase();
  redis = await startRedisServer();
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(async () => {
  await redis?.kill();
  await database?.close();
});

/** The app counting its limits in the Redis at `url`, and the lines it logs. */
function appOn(url: string) {
  const lines: Array<{ level: string; msg: string }> = [];
  const logger: Logger = {
    ...silentLogger,
    info: (msg) => lines.push({ level: "info", msg }),
    warn: (msg) => lines.push({ level: "warn", msg }),
    error: (msg) => lines.push({ level: "error", msg }),
  };
  const deps = createDeps({
    database,
    secret: TEST_SECRET,
    baseUrl: TEST_BASE_URL,
    logger,
    trustProxy: true,
    rateLimitStore: createRedisStore({ url, prefix: "gatehouse-test:outage:", logger }),
  });
  closers.push(() => deps.rateLimitStore.close());
  const app = createApp(deps);
  // Every /api/v1 request counts its client IP first: the Redis store is on every request's path.
  const request = () =>
    app.request("/api/v1/projects/current", {
      headers: {
        "x-stack-access-type": "client",
        "x-stack-project-id": "internal",
        "x-forwarded-for": "203.0.113.7",
      },
    });
  return {
    request,
    lines,
    said: (msg: RegExp) => lines.filter((l) => msg.test(l.msg)),
    metrics: () => deps.observability.metrics.render(),
  };
}

async function expectUnavailable(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get("x-stack-known-error")).toBe("REDIS_UNAVAILABLE");
  expect(res.headers.get("retry-after")).toBe("1");
  expect(((await res.json()) as { code: string }).code).toBe("REDIS_UNAVAILABLE");
}

describe("Redis out of reach", () => {
  it("answers REDIS_UNAVAILABLE while Redis is down, says so once, and recovers by itself when it returns", async () => {
    const server = appOn(redis.url);
    const up = await server.request();
    expect(up.status).not.toBe(503);
    expect(up.status).not.toBe(500);

    await redis.kill();
    for (let i = 0; i < 5; i++) await expectUnavailable(await server.request());
    // One line for the outage, however many requests met it; none of them a 500's "unexpected error".
    expect(server.said(/redis unreachable/)).toEqual([
      { level: "warn", msg: "redis unreachable: requests answer REDIS_UNAVAILABLE (503) until it is back" },
    ]);
    expect(server.lines.filter((l) => l.level === "error")).toEqual([]);
    // Counted for the operator's alert.
    expect(await server.metrics()).toContain("\ngatehouse_redis_unavailable_total 5\n");

    await redis.restart();
    // The client reconnects on its own (within a second of Redis listening): no restart of the server.
    let res = await server.request();
    while (res.status === 503) {
      await new Promise((r) => setTimeout(r, 100));
      res = await server.request();
    }
    expect(res.status).not.toBe(500);
    expect(server.said(/redis reachable again/)).toHaveLength(1);
    expect(server.said(/redis unreachable/)).toHaveLength(1);
  }, 30_000);

  it("answers REDIS_UNAVAILABLE when nothing listens at REDIS_URL from the start", async () => {
    const server = appOn(`redis://127.0.0.1:${await freePort()}`);
    await expectUnavailable(await server.request());
    await expectUnavailable(await server.request());
    expect(server.said(/redis unreachable/)).toHaveLength(1);
  });

  it("does not hang a request when Redis accepts the connection and never answers", async () => {
    // A black hole: the TCP connection opens, no reply ever comes. Without the command timeout this waits for ever.
    const sockets = new Set<import("node:net").Socket>();
    const silent: Server = createServer((socket) => void sockets.add(socket));
    const port = await freePort();
    await new Promise<void>((r) => silent.listen(port, "127.0.0.1", r));
    closers.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => silent.close(r));
    });
    const server = appOn(`redis://127.0.0.1:${port}`);
    await expectUnavailable(await server.request());
    await expectUnavailable(await server.request());
    expect(server.said(/redis unreachable/)).toHaveLength(1);
  });
});
