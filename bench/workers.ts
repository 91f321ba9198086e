// Workers benchmark (`npm run bench:workers`): GET /users/me and refresh against the real server with
// GATEHOUSE_WORKERS=1 and then 2, each on a fresh PostgreSQL database, in the same run; prints req/s, latency and the
// ratio of two workers to one (goal: at least 1.6×).
import { availableParallelism, cpus } from "node:os";
import { freePort, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { measure, type Row, refreshBody } from "./load.ts";

const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PASSWORD = "correct horse battery";

async function runWith(workers: number): Promise<{ me: Row; refresh: Row }> {
  const database = `gatehouse_bench_workers_${workers}_${Date.now()}`;
  await adminQuery(adminUrl, `create database ${database}`);
  // Limits off: the benchmark is one client IP sending far more than 600 requests a minute on purpose.
  const server = await startServer(
    {
      PORT: String(await freePort()),
      DATABASE_URL: withDatabase(adminUrl, database),
      GATEHOUSE_DATA_DIR: `/tmp/${database}`,
      GATEHOUSE_RATE_LIMITS: "off",
      GATEHOUSE_WORKERS: String(workers),
      GATEHOUSE_LOG_LEVEL: "warn",
    },
    180_000,
  );
  try {
    const api = `${server.baseUrl}/api/v1`;
    const client = {
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": server.keys.pck,
      "content-type": "application/json",
    };
    // One user per connection: its access token for /users/me, its own session to refresh.
    const tokens: { access_token: string; refresh_token: string }[] = [];
    for (let i = 0; i < connections; i++) {
      const res = await fetch(`${api}/auth/password/sign-up`, {
        method: "POST",
        headers: client,
        body: JSON.stringify({ email: `workers-${i}@example.com`, password: PASSWORD }),
      });
      if (!res.ok) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
      tokens.push((await res.json()) as { access_token: string; refresh_token: string });
    }
    const label = `${workers} worker${workers > 1 ? "s" : ""}`;
    const me = await measure({
      name: `GET /api/v1/users/me, ${label}`,
      url: `${api}/users/me`,
      headers: { ...client, "x-stack-access-token": tokens[0]?.access_token ?? "" },
      connections,
      seconds,
    });
    const refresh = await measure({
      name: `POST /api/v1/auth/oauth/token (refresh), ${label}`,
      url: `${api}/auth/oauth/token`,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      bodies: tokens.map((t) => refreshBody(t.refresh_token, server.keys.pck)),
      connections,
      seconds,
    });
    return { me, refresh };
  } finally {
    await server.stop();
    await adminQuery(adminUrl, `drop database if exists ${database} with (force)`);
  }
}

const one = await runWith(1);
const two = await runWith(2);
console.log(
  `\n${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"} (availableParallelism ${availableParallelism()}),`,
);
console.log(
  `Node ${process.version}, PostgreSQL on localhost, ${connections} connections, ${seconds} s per scenario\n`,
);
console.log("| scenario | req/s | p50 ms | p99 ms |\n|---|---|---|---|");
for (const r of [one.me, two.me, one.refresh, two.refresh]) {
  console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} |`);
}
const goal = (name: string, ratio: number) =>
  `| ${name} | ${ratio.toFixed(2)}× | 1.6× | ${ratio >= 1.6 ? "met" : "missed"} |`;
console.log("\n| 2 workers vs 1 | measured | goal | |\n|---|---|---|---|");
console.log(goal("GET /users/me", two.me.rps / one.me.rps));
console.log(goal("refresh", two.refresh.rps / one.refresh.rps));
