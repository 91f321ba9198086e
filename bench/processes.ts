// Processes benchmark (`npm run bench:processes`, `-- --quick` for a short run): three real server processes on one
// PostgreSQL database, as an operator scales out behind a load balancer. GET /users/me and refresh measured against
// one process directly, through the round-robin proxy of the cluster suites with one process behind it, and with all
// three behind it; the last two compare like with like (the proxy, a process of its own, costs the same in both).
import { randomBytes } from "node:crypto";
import { freePort, type RunningServer, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { measureMeAndRefresh, printRatios, printRows, settings, signUpUsers } from "./auth-load.ts";
import { startChild } from "./child.ts";

const { adminUrl } = settings;
const PROCESSES = 3;

/** The proxy on `port` in front of `backends`, in its own process; answers how to stop it. */
const startProxyProcess = async (port: number, backends: string[]) =>
  (await startChild("proxy-process.ts", "proxy listening", {}, [String(port), ...backends])).stop;

const database = `gatehouse_bench_processes_${Date.now()}`;
await adminQuery(adminUrl, `create database ${database}`);
const proxyPort = await freePort();
const proxyUrl = `http://127.0.0.1:${proxyPort}`;
// One install: the same database, secret, data directory and public origin (the proxy's, the tokens' issuer).
const shared = {
  DATABASE_URL: withDatabase(adminUrl, database),
  GATEHOUSE_DATA_DIR: `/tmp/${database}`,
  GATEHOUSE_SECRET: randomBytes(32).toString("hex"),
  GATEHOUSE_BASE_URL: proxyUrl,
  GATEHOUSE_TRUST_PROXY: "true",
  // Limits off: the benchmark is one client IP sending far more than 600 requests a minute on purpose.
  GATEHOUSE_RATE_LIMITS: "off",
  GATEHOUSE_LOG_LEVEL: "warn",
};
const servers: RunningServer[] = [];
const start = async () => {
  const server = await startServer({ ...shared, PORT: String(await freePort()) }, 180_000);
  servers.push(server);
  return server;
};
try {
  // The first migrates and seeds; the others then find it done.
  const first = await start();
  await Promise.all(Array.from({ length: PROCESSES - 1 }, start));
  const users = await signUpUsers(first.baseUrl, first.keys.pck, "processes");

  const direct = await measureMeAndRefresh(first.baseUrl, users, "1 process, direct");
  let stopProxy = await startProxyProcess(proxyPort, [first.baseUrl]);
  const oneBehind = await measureMeAndRefresh(proxyUrl, users, "1 process behind the proxy");
  await stopProxy();
  stopProxy = await startProxyProcess(
    proxyPort,
    servers.map((s) => s.baseUrl),
  );
  const threeBehind = await measureMeAndRefresh(proxyUrl, users, `${PROCESSES} processes behind the proxy`);
  await stopProxy();

  printRows([
    direct.me,
    oneBehind.me,
    threeBehind.me,
    direct.refresh,
    oneBehind.refresh,
    threeBehind.refresh,
  ]);
  printRatios(`${PROCESSES} processes vs 1, behind the proxy`, threeBehind, oneBehind);
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await adminQuery(adminUrl, `drop database if exists ${database} with (force)`);
}
