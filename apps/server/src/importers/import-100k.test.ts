// 100,000 users through `gatehouse import` (issue 23): the generic file streamed by the CLI process into a server on
// PGlite through the bulk endpoint. The CLI is killed (SIGKILL) mid-way and run again: the project ends with every
// user exactly once, and the CLI's peak resident memory stays bounded (it never holds the file).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openPglite } from "../db/client.ts";
import { COMPILED_CLI_ENV } from "../testing/compiled-server.ts";
import { writeGenericUsers } from "../testing/generic-users-file.ts";
import { freePort, type RunningServer, startServer } from "../testing/server-process.ts";

// One process (the compiled CLI, or the source through tsx), never the bin's wrapper: the process measured and
// killed must be the one importing.
const MAIN = fileURLToPath(new URL("../cli/main.ts", import.meta.url));
const COMPILED = process.env[COMPILED_CLI_ENV];
const COMMAND = COMPILED
  ? [COMPILED]
  : ["--conditions=gatehouse-source", "--import", createRequire(import.meta.url).resolve("tsx"), MAIN];
const USERS = Number(process.env.GATEHOUSE_IMPORT_TEST_USERS ?? 100_000);
const MAX_CLI_RSS_MB = 300;

const dir = mkdtempSync(join(tmpdir(), "gatehouse-import-100k-"));
const dataDir = join(dir, "data-dir");
const file = join(dir, "users.ndjson");
let port = 0;
let server: RunningServer | undefined;
let project: { id: string; super_secret_admin_key: string };

const baseEnv = () => {
  const { DATABASE_URL: _db, REDIS_URL: _redis, GATEHOUSE_ADMIN_KEY: _key, ...parent } = process.env;
  return { ...parent, GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DEMO_PROJECT: "off" };
};

type Run = {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  peakRssMb: number;
};

/** Runs the CLI; `until` may kill it (it is polled); the peak RSS is the kernel's high-water mark (VmHWM). */
function cli(args: string[], env: Record<string, string> = {}, until?: () => boolean): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...COMMAND, ...args], {
      env: { ...baseEnv(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let peakKb = 0;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
    const poll = setInterval(() => {
      try {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      } catch {
        // exited between polls
      }
      if (until?.()) child.kill("SIGKILL");
    }, 50);
    child.on("exit", (code, signal) => {
      clearInterval(poll);
      resolve({ code, signal, stdout, stderr, peakRssMb: peakKb / 1024 });
    });
  });
}

beforeAll(async () => {
  const migrated = await cli(["migrate", "--json"]);
  expect(migrated.code, migrated.stderr).toBe(0);
  const made = await cli(["projects", "create", "--name", "Bulk import", "--json"]);
  expect(made.code, made.stderr).toBe(0);
  project = JSON.parse(made.stdout);
  await writeGenericUsers(file, USERS, "bulk-import.test");
  port = await freePort();
  server = await startServer({ ...baseEnv(), PORT: String(port), GATEHOUSE_LOG_LEVEL: "warn" }, 60_000, {
    cli: COMMAND,
  });
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

it(`imports ${USERS.toLocaleString("en")} users, killed mid-way and resumed, each user exactly once`, async () => {
  const remote = {
    GATEHOUSE_URL: `http://localhost:${port}`,
    GATEHOUSE_PROJECT_ID: project.id,
    GATEHOUSE_ADMIN_KEY: project.super_secret_admin_key,
  };
  const checkpoint = `${file}.gatehouse-import.json`;
  const checkpointLine = () => {
    try {
      return (JSON.parse(readFileSync(checkpoint, "utf8")) as { line: number }).line;
    } catch {
      return 0;
    }
  };
  const started = Date.now();
  const killed = await cli(
    ["import", "generic", file, "--json"],
    remote,
    () => checkpointLine() >= USERS * 0.4,
  );
  expect(killed.signal, killed.stderr).toBe("SIGKILL");
  const killedAt = checkpointLine();
  expect(killedAt).toBeGreaterThanOrEqual(USERS * 0.4);
  expect(killedAt).toBeLessThan(USERS);

  const resumed = await cli(["import", "generic", file, "--json"], remote);
  expect(resumed.code, resumed.stderr).toBe(0);
  const report = JSON.parse(resumed.stdout) as {
    records: number;
    created: number;
    existing: number;
    skipped_count: number;
    resumed_from_line: number;
  };
  const seconds = (Date.now() - started) / 1000;
  expect(report).toMatchObject({ records: USERS, skipped_count: 0 });
  expect(report.resumed_from_line).toBeGreaterThanOrEqual(killedAt);
  // A batch may have committed after the last checkpoint the killed process wrote: found again, not duplicated.
  expect(report.created + report.existing).toBe(USERS - report.resumed_from_line);
  expect(existsSync(checkpoint)).toBe(false);
  const peak = Math.max(killed.peakRssMb, resumed.peakRssMb);
  console.log(
    `import of ${USERS} users: ${seconds.toFixed(1)} s (${Math.round(USERS / seconds)}/s) with a SIGKILL at line ${killedAt}; CLI peak RSS ${peak.toFixed(0)} MB`,
  );
  expect(peak).toBeGreaterThan(0);
  expect(peak).toBeLessThan(MAX_CLI_RSS_MB);

  // The project's rows, read from the data directory once the server stopped: every source id exactly once.
  await server?.stop();
  const database = await openPglite({ dataDir: join(dataDir, "data") });
  try {
    const result = (await database.db.execute(sql`
      select count(*)::int as users,
             count(distinct server_metadata #>> '{imported_from,id}')::int as ids
      from users where project_id = ${project.id}`)) as unknown as { rows: { users: number; ids: number }[] };
    expect(result.rows[0]).toEqual({ users: USERS, ids: USERS });
  } finally {
    await database.close();
  }
}, 300_000);
