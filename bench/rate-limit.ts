// What the shared per-IP request limit costs on the hot path: GET /api/v1/users/me from one client IP against the
// real server on PostgreSQL with limits off, with the limit counted in PostgreSQL (the default), and in Redis
// (REDIS_URL), each run in turn in one process so the ratios compare like with like. `npm run bench:rate-limit`.
import { freePort, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import autocannon from "autocannon";

const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

const MODES: { name: string; env: Record<string, string> }[] = [
  { name: "limits off", env: { GATEHOUSE_RATE_LIMITS: "off" } },
  // A limit no benchmark reaches: every request still takes its slot in the store.
  { name: "per-IP limit in PostgreSQL", env: { GATEHOUSE_RATE_LIMIT_IP: "1000000000" } },
  { name: "per-IP limit in Redis", env: { GATEHOUSE_RATE_LIMIT_IP: "1000000000", REDIS_URL: redisUrl } },
];

async function run(mode: (typeof MODES)[number]) {
  const database = `gatehouse_bench_rl_${Date.now()}`;
  await adminQuery(adminUrl, `create database ${database}`);
  const server = await startServer({
    PORT: String(await freePort()),
    DATABASE_URL: withDatabase(adminUrl, database),
    GATEHOUSE_DATA_DIR: `/tmp/${database}`,
    ...mode.env,
  });
  try {
    const client = {
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": server.keys.pck,
    };
    const signUp = await fetch(`${server.baseUrl}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: { ...client, "content-type": "application/json" },
      body: JSON.stringify({ email: "bench@example.com", password: "correct horse battery" }),
    });
    const { access_token } = (await signUp.json()) as { access_token: string };
    const result = await autocannon({
      url: `${server.baseUrl}/api/v1/users/me`,
      headers: { ...client, "x-stack-access-token": access_token },
      connections,
      duration: seconds,
    });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${mode.name}: ${result.non2xx} non-2xx`);
    return {
      name: mode.name,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
    };
  } finally {
    await server.stop();
    await adminQuery(adminUrl, `drop database if exists ${database} with (force)`);
  }
}

const rows = [];
for (const mode of MODES) rows.push(await run(mode));
const base = rows[0]?.rps ?? 1;
console.log("| GET /api/v1/users/me | req/s | p50 ms | p99 ms | vs limits off |\n|---|---|---|---|---|");
for (const r of rows)
  console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / base).toFixed(2)} |`);
