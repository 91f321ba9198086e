// Load benchmark of the hot request paths against PostgreSQL: the real server process on a fresh database,
// autocannon driving it from this process. Figures are reported as ratios to /health, a peer in the same run.

import { freePort, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import autocannon from "autocannon";

const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

type Scenario = { name: string; path: string; headers?: Record<string, string> };

async function measure(baseUrl: string, s: Scenario) {
  const result = await autocannon({
    url: baseUrl + s.path,
    headers: s.headers,
    connections,
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${s.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { name: s.name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function main() {
  const database = `gatehouse_bench_${Date.now()}`;
  await adminQuery(adminUrl, `create database ${database}`);
  const server = await startServer({
    PORT: String(await freePort()),
    DATABASE_URL: withDatabase(adminUrl, database),
    GATEHOUSE_DATA_DIR: `/tmp/${database}`,
  });
  try {
    const project = { "x-stack-project-id": "internal" };
    const scenarios: Scenario[] = [
      { name: "GET /health (peer)", path: "/health" },
      {
        name: "GET /api/v1/projects/current (client key)",
        path: "/api/v1/projects/current",
        headers: {
          ...project,
          "x-stack-access-type": "client",
          "x-stack-publishable-client-key": server.keys.pck,
        },
      },
      {
        name: "GET /api/v1/projects/current (server key)",
        path: "/api/v1/projects/current",
        headers: {
          ...project,
          "x-stack-access-type": "server",
          "x-stack-secret-server-key": server.keys.ssk,
        },
      },
      {
        name: "GET /api/v1/projects/internal/.well-known/jwks.json",
        path: "/api/v1/projects/internal/.well-known/jwks.json",
      },
    ];
    const rows = [];
    for (const s of scenarios) rows.push(await measure(server.baseUrl, s));
    const peer = rows[0]!.rps;
    console.log(`\n${connections} connections, ${seconds} s each, PostgreSQL, one server process\n`);
    console.log("| scenario | req/s | vs /health | p50 ms | p99 ms |\n|---|---|---|---|---|");
    for (const r of rows) {
      console.log(
        `| ${r.name} | ${Math.round(r.rps)} | ${(r.rps / peer).toFixed(2)} | ${r.p50} | ${r.p99} |`,
      );
    }
  } finally {
    await server.stop();
    await adminQuery(adminUrl, `drop database if exists ${database} with (force)`);
  }
}

await main();
