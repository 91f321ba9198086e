// Load benchmark against PostgreSQL: the real server process on a fresh database, autocannon driving it from this
// process, and beside it in the same run two floors: a bare Hono endpoint that verifies the same JWT and reads one
// row by primary key, and the raw argon2id hash rate. Results print as a markdown table with the goal ratios.
import { spawn } from "node:child_process";
import { cpus } from "node:os";
import { freePort, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { hash } from "@node-rs/argon2";
import { measure as measureLoad, type Row, refreshBody, type Scenario } from "./load.ts";

const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PASSWORD = "correct horse battery";

/** A scenario of load.ts with this run's duration and, unless it says otherwise, its connection count. */
const measure = (s: Omit<Scenario, "connections" | "seconds"> & { connections?: number }): Promise<Row> =>
  measureLoad({ connections, ...s, seconds });
/** A row's server CPU per request and RSS, when it measured the server process. */
const usage = (r: Row) =>
  r.cpuMs === undefined ? "| | |" : `| ${r.cpuMs.toFixed(2)} | ${Math.round(r.rssMiB ?? 0)} |`;

/** Hashes per second of argon2id with the server's parameters, as many at once as the thread pool runs. */
async function argon2Rate(): Promise<number> {
  const params = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
  const deadline = Date.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      await hash(PASSWORD, params);
      done++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: 4 }, worker));
  return done / ((Date.now() - started) / 1000);
}

function startFloor(env: Record<string, string>): Promise<() => void> {
  const child = spawn(process.execPath, ["--conditions=gatehouse-source", "--import", "tsx", "floor.ts"], {
    cwd: import.meta.dirname,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("floor listening")) resolve(() => child.kill("SIGTERM"));
    });
    child.once("exit", (code) => reject(new Error(`floor exited with ${code}`)));
  });
}

async function main() {
  const database = `gatehouse_bench_${Date.now()}`;
  await adminQuery(adminUrl, `create database ${database}`);
  const databaseUrl = withDatabase(adminUrl, database);
  // Limits off: the benchmark is one client IP sending far more than 600 requests a minute on purpose.
  const server = await startServer({
    PORT: String(await freePort()),
    DATABASE_URL: databaseUrl,
    GATEHOUSE_DATA_DIR: `/tmp/${database}`,
    GATEHOUSE_RATE_LIMITS: "off",
    // One process, so its pid is the server whose CPU time and RSS the rows report.
    GATEHOUSE_WORKERS: "1",
  });
  let stopFloor = () => {};
  try {
    const api = `${server.baseUrl}/api/v1`;
    const client = {
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": server.keys.pck,
      "content-type": "application/json",
    };
    const signUp = await fetch(`${api}/auth/password/sign-up`, {
      method: "POST",
      headers: client,
      body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
    });
    const tokens = (await signUp.json()) as { access_token: string; refresh_token: string };
    const floorPort = await freePort();
    stopFloor = await startFloor({
      PORT: String(floorPort),
      DATABASE_URL: databaseUrl,
      JWKS_URL: `${api}/projects/internal/.well-known/jwks.json`,
      ISSUER: `${server.baseUrl}/api/v1/projects/internal`,
      AUDIENCE: "internal",
    });

    const rows: Row[] = [];
    rows.push(await measure({ name: "GET /health (peer)", url: `${server.baseUrl}/health` }));
    const floor = await measure({
      name: "floor: bare Hono, verify JWT + read one row",
      url: `http://localhost:${floorPort}/me`,
      headers: { "x-stack-access-token": tokens.access_token },
    });
    rows.push(floor);
    const me = await measure({
      name: "GET /api/v1/users/me",
      pid: server.child.pid,
      url: `${api}/users/me`,
      headers: { ...client, "x-stack-access-token": tokens.access_token },
    });
    rows.push(me);
    // Each connection refreshes its own user's session, as real clients do (one session refreshing from 32
    // connections at once would only measure row-lock waits on that session).
    const refreshTokens: string[] = [];
    for (let i = 0; i < connections; i++) {
      const res = await fetch(`${api}/auth/password/sign-up`, {
        method: "POST",
        headers: client,
        body: JSON.stringify({ email: `refresh-${i}@example.com`, password: PASSWORD }),
      });
      refreshTokens.push(((await res.json()) as { refresh_token: string }).refresh_token);
    }
    const refresh = await measure({
      name: "POST /api/v1/auth/oauth/token (refresh)",
      pid: server.child.pid,
      url: `${api}/auth/oauth/token`,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      bodies: refreshTokens.map((token) => refreshBody(token, server.keys.pck)),
    });
    rows.push(refresh);
    rows.push(
      await measure({
        name: "GET /api/v1/projects/current (client key)",
        pid: server.child.pid,
        url: `${api}/projects/current`,
        headers: client,
      }),
    );
    // Sign-in is bound by argon2id: more connections than hashing threads only queue.
    const signIn = await measure({
      name: "POST /api/v1/auth/password/sign-in",
      pid: server.child.pid,
      url: `${api}/auth/password/sign-in`,
      method: "POST",
      headers: client,
      body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
      connections: 8,
    });
    rows.push(signIn);
    const argon2 = await argon2Rate();

    const cpu = cpus()[0]?.model ?? "unknown CPU";
    console.log(`\n${cpus().length} × ${cpu}, Node ${process.version}, PostgreSQL on localhost;`);
    console.log(
      `${connections} connections (8 for sign-in), ${seconds} s per scenario, load generator on the same machine\n`,
    );
    console.log(
      "| scenario | req/s | p50 ms | p99 ms | server CPU ms/req | server RSS MiB |\n|---|---|---|---|---|---|",
    );
    for (const r of rows) console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} ${usage(r)}`);
    console.log(`| raw argon2id hashes (m=19456, t=2, p=1), 4 at a time | ${argon2.toFixed(1)} | | | | |`);
    const goal = (name: string, ratio: number, target: number) =>
      `| ${name} | ${(ratio * 100).toFixed(0)}% | ${target * 100}% | ${ratio >= target ? "met" : "missed"} |`;
    console.log("\n| goal | measured | target | |\n|---|---|---|---|");
    console.log(goal("sign-in vs raw argon2id rate", signIn.rps / argon2, 0.8));
    console.log(goal("GET /users/me vs floor", me.rps / floor.rps, 0.6));
    console.log(goal("refresh vs floor", refresh.rps / floor.rps, 0.4));
  } finally {
    stopFloor();
    await server.stop();
    await adminQuery(adminUrl, `drop database if exists ${database} with (force)`);
  }
}

await main();
