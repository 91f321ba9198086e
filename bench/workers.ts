// Workers benchmark (`npm run bench:workers`, `-- --quick` for a short run): GET /users/me and refresh against the
// real server with GATEHOUSE_WORKERS=1 and then 2, each on a fresh PostgreSQL database, in the same run; prints
// req/s, latency and the ratio of two workers to one (goal: at least 1.6×).
import { freePort, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { measureMeAndRefresh, printRatios, printRows, settings, signUpUsers } from "./auth-load.ts";

const { adminUrl } = settings;

async function runWith(workers: number) {
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
    const users = await signUpUsers(server.baseUrl, server.keys.pck, `workers-${workers}`);
    return await measureMeAndRefresh(server.baseUrl, users, `${workers} worker${workers > 1 ? "s" : ""}`);
  } finally {
    await server.stop();
    await adminQuery(adminUrl, `drop database if exists ${database} with (force)`);
  }
}

const one = await runWith(1);
const two = await runWith(2);
printRows([one.me, two.me, one.refresh, two.refresh]);
printRatios("2 workers vs 1", two, one, 1.6);
