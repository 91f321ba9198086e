// Chaos (PostgreSQL only): PostgreSQL is restarted under a bounded sign-up load against a real server process. Every
// acknowledged sign-up exists afterwards, exactly once; nothing answers 500 (only DATABASE_UNAVAILABLE, or a dropped
// connection, while it is down); the server recovers by itself, and the recovery time is measured and printed.
// The PostgreSQL server is shared by every suite on the machine: this file restarts it once per run.
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { promisify } from "node:util";
import { openPostgres } from "@gatehouse/server/db/client";
import { isDatabaseUnavailable } from "@gatehouse/server/db/errors";
import { freePort, type RunningServer, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const run = promisify(execFile);
/** The installed PostgreSQL cluster's version, found as .ci/run finds it (the newest under /etc/postgresql). */
const clusterVersion = () =>
  readdirSync("/etc/postgresql")
    .sort((a, b) => Number(a) - Number(b))
    .at(-1) ?? "15";
/** The pg pool under an opened database, for plain SQL (the e2e workspace does not depend on pg itself). */
type Pool = { query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }> };
const poolOf = (database: ReturnType<typeof openPostgres>) =>
  (database.db as unknown as { $client: Pool }).$client;
let server: RunningServer;
let databaseUrl: string;
let databaseName: string;
const template = inject("testDbTemplate");
const adminUrl = template.kind === "postgres" ? template.adminUrl : "";

beforeAll(async () => {
  databaseName = `gatehouse_chaos_${process.pid}_${Date.now()}`;
  await adminQuery(adminUrl, `create database ${databaseName}`);
  databaseUrl = withDatabase(adminUrl, databaseName);
  server = await startServer(
    {
      PORT: String(await freePort()),
      GATEHOUSE_DATA_DIR: `/tmp/${databaseName}`,
      DATABASE_URL: databaseUrl,
      GATEHOUSE_RATE_LIMITS: "off",
      // While PostgreSQL is down a request waits at most 1 s for a connection, then answers 503.
      GATEHOUSE_DB_CONNECT_TIMEOUT_MS: "1000",
    },
    120_000,
  );
}, 150_000);

afterAll(async () => {
  // The database and data directory go even when the server did not stop cleanly (then the test fails here).
  const code = server ? await server.stop() : 0;
  await adminQuery(adminUrl, `drop database if exists ${databaseName} with (force)`);
  await rm(`/tmp/${databaseName}`, { recursive: true, force: true });
  expect(code).toBe(0);
});

type Outcome = { at: number; kind: "ok" | "unavailable" | "connection" | "other"; detail?: string };

async function signUp(email: string): Promise<Outcome> {
  try {
    const res = await fetch(`${server.baseUrl}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-access-type": "client",
        "x-stack-project-id": "internal",
        "x-stack-publishable-client-key": server.keys.pck,
      },
      body: JSON.stringify({ email, password: "chaos password 1" }),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    if (res.status === 200) return { at: Date.now(), kind: "ok" };
    if (res.status === 503 && res.headers.get("x-stack-known-error") === "DATABASE_UNAVAILABLE") {
      return { at: Date.now(), kind: "unavailable" };
    }
    return { at: Date.now(), kind: "other", detail: `${res.status} ${text.slice(0, 300)}` };
  } catch (error) {
    return { at: Date.now(), kind: "connection", detail: String(error) };
  }
}

describe("PostgreSQL restarted under load", () => {
  it("loses no acknowledged sign-up, answers no 500, and recovers by itself", async () => {
    const acknowledged: string[] = [];
    const outcomes: Outcome[] = [];
    let stopAt = Number.POSITIVE_INFINITY;
    let n = 0;
    // Four clients signing up back to back: bounded by time after the restart, not by a count.
    const worker = async () => {
      while (Date.now() < stopAt) {
        const email = `chaos-${n++}-${Date.now()}@example.com`;
        const outcome = await signUp(email);
        outcomes.push(outcome);
        if (outcome.kind === "ok") acknowledged.push(email);
      }
    };
    const load = Promise.all([worker(), worker(), worker(), worker()]);

    await new Promise((r) => setTimeout(r, 2_000));
    const restartStarted = Date.now();
    await run("pg_ctlcluster", ["--skip-systemctl-redirect", clusterVersion(), "main", "restart"]);
    const restartEnded = Date.now();
    // Load goes on until sign-ups have succeeded again for a while (or 60 s pass: then the assertions say why).
    const deadline = restartEnded + 60_000;
    while (Date.now() < deadline) {
      const recent = outcomes.filter((o) => o.at > restartEnded);
      if (recent.filter((o) => o.kind === "ok").length >= 20) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    stopAt = Date.now();
    await load;

    const failures = outcomes.filter((o) => o.kind !== "ok");
    if (!outcomes.some((o) => o.at > restartEnded && o.kind === "ok"))
      process.stdout.write(server.output().slice(-4000));
    const firstOkAfter = outcomes.find((o) => o.at > restartEnded && o.kind === "ok");
    const lastFailure = failures.at(-1);
    const counts = Object.fromEntries(
      ["ok", "unavailable", "connection", "other"].map((k) => [
        k,
        outcomes.filter((o) => o.kind === k).length,
      ]),
    );
    process.stdout.write(
      `chaos: restart took ${restartEnded - restartStarted} ms; first sign-up succeeded ${
        firstOkAfter ? firstOkAfter.at - restartEnded : "never"
      } ms after it; last failure ${lastFailure ? lastFailure.at - restartStarted : "-"} ms after the restart began; ${JSON.stringify(counts)}\n`,
    );

    // No 500, nor any other status: only the known 503 or a dropped connection while PostgreSQL was down.
    expect(outcomes.filter((o) => o.kind === "other")).toEqual([]);
    expect(counts.unavailable ?? 0).toBeGreaterThan(0);
    expect(firstOkAfter).toBeDefined();

    // Every acknowledged sign-up is there, exactly once.
    const database = openPostgres(databaseUrl);
    try {
      const { rows } = await poolOf(database).query<{ value: string; n: string }>(
        "select value, count(*) as n from contact_channels where value = any($1) group by value",
        [acknowledged],
      );
      expect(rows.length).toBe(acknowledged.length);
      expect(rows.every((r) => Number(r.n) === 1)).toBe(true);
    } finally {
      await database.close();
    }

    // The server is ready again without a restart of its own.
    expect((await fetch(`${server.baseUrl}/health/ready`)).status).toBe(200);
  }, 180_000);
});

describe("a connection killed while checked out", () => {
  it("fails its transaction as DATABASE_UNAVAILABLE without ending the process, and the pool goes on", async () => {
    const database = openPostgres(databaseUrl);
    const killer = openPostgres(databaseUrl);
    const attempt = database.db.transaction(async (tx) => {
      const { rows } = (await tx.execute("select pg_backend_pid() as pid")) as unknown as {
        rows: { pid: number }[];
      };
      // What a PostgreSQL restart does to every backend, here to this one only (the server is shared).
      await poolOf(killer).query("select pg_terminate_backend($1)", [rows[0]?.pid]);
      await new Promise((r) => setTimeout(r, 300));
      await tx.execute("select 1");
    });
    await expect(attempt).rejects.toSatisfy(isDatabaseUnavailable);
    await database.ping();
    await Promise.all([database.close(), killer.close()]);
  });
});

describe("the statement timeout", () => {
  it("answers a statement running past GATEHOUSE_DB_STATEMENT_TIMEOUT_MS with a cancellation (57014)", async () => {
    const database = openPostgres(databaseUrl, () => {}, { settings: { statementTimeoutMs: 100 } });
    const pool = poolOf(database);
    const error = await pool.query("select pg_sleep(2)").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as { code?: string }).code).toBe("57014");
    expect(isDatabaseUnavailable(error)).toBe(true);
    await database.close();
  });
});
