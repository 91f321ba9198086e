// An unreachable database is an outage, not a bug: requests answer DATABASE_UNAVAILABLE (503, retryable) through the
// real app and pg pool, a hung server fails within the connect timeout, and start-up retries with a visible line.
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { createDeps } from "../deps.ts";
import type { Logger } from "../logger.ts";
import { silentLogger } from "../logger.ts";
import { freePort } from "../testing/server-process.ts";
import { TEST_BASE_URL, TEST_SECRET } from "../testing/test-server.ts";
import { openPostgres } from "./client.ts";
import { isDatabaseUnavailable } from "./errors.ts";
import { waitForDatabase } from "./startup-wait.ts";

/** A PostgreSQL URL where nothing listens: every connection is refused. */
const deadUrl = async () => `postgres://postgres@127.0.0.1:${await freePort()}/gatehouse`;

describe("a database out of reach", () => {
  it("answers DATABASE_UNAVAILABLE (503) with Retry-After, not a 500", async () => {
    const database = openPostgres(await deadUrl(), () => {}, { settings: { connectTimeoutMs: 500 } });
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (msg) => warnings.push(msg) };
    const app = createApp(createDeps({ database, secret: TEST_SECRET, baseUrl: TEST_BASE_URL, logger }));
    const res = await app.request("/api/v1/users/me", {
      headers: { "x-stack-access-type": "client", "x-stack-project-id": "internal" },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("x-stack-known-error")).toBe("DATABASE_UNAVAILABLE");
    expect(res.headers.get("retry-after")).toBe("1");
    expect(((await res.json()) as { code: string }).code).toBe("DATABASE_UNAVAILABLE");
    expect(warnings).toEqual(["database unavailable"]);
    // Readiness says so too, while liveness stays up (restarting the process would not bring the database back).
    const ready = await app.request("/health/ready");
    expect([ready.status, await ready.json()]).toEqual([
      503,
      { status: "error", reason: "database unreachable" },
    ]);
    expect((await app.request("/health/live")).status).toBe(200);
    await database.close();
  });

  it("fails a request that waits for a connection past the connect timeout, instead of hanging", async () => {
    // A server that accepts the socket and never answers: PostgreSQL hung, or a black-holed network.
    const silent = createServer(() => {});
    const port = await freePort();
    await new Promise<void>((r) => silent.listen(port, "127.0.0.1", r));
    const database = openPostgres(`postgres://postgres@127.0.0.1:${port}/gatehouse`, () => {}, {
      settings: { connectTimeoutMs: 300 },
    });
    const error = await database.ping().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
    await database.close();
    silent.close();
  });

  it("is told apart from a bug: a failed query of a reachable database is not an outage", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
  });

  it("makes start-up retry with a visible line, and give up after the bounded wait", async () => {
    const database = openPostgres(await deadUrl(), () => {}, { settings: { connectTimeoutMs: 500 } });
    const lines: Array<Record<string, unknown>> = [];
    const logger = {
      warn: (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, ...fields }),
    };
    const started = Date.now();
    await expect(waitForDatabase(database, { waitMs: 1_000, logger })).rejects.toSatisfy(
      isDatabaseUnavailable,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatchObject({ msg: "database not reachable yet, retrying", attempt: 1 });
    await database.close();
  });
});
