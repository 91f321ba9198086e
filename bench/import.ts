// Import benchmark (`npm run bench:import`): BENCH_IMPORT_USERS (1,000,000) generic-format users, generated into a
// file, imported by `gatehouse import generic` (one CLI process, the source through tsx) through the bulk endpoint
// into a project of a Gatehouse server on a fresh PostgreSQL database. Reports users per second and the peak resident memory
// (VmHWM) of the CLI and of the server, and checks the database holds every source id exactly once.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeGenericUsers } from "@gatehouse/server/testing/generic-users-file";
import pg from "pg";
import { startGatehouse } from "./gatehouse.ts";

const USERS = Number(process.env.BENCH_IMPORT_USERS ?? 1_000_000);
const BATCH = process.env.BENCH_IMPORT_BATCH ?? "500";
const MAIN = fileURLToPath(new URL("../apps/server/src/cli/main.ts", import.meta.url));
const TSX = createRequire(import.meta.url).resolve("tsx");

const peakKb = (pid: number | undefined): number => {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-bench-import-"));
  const file = join(dir, "users.ndjson");
  const generated = Date.now();
  await writeGenericUsers(file, USERS, "import-bench.test");
  console.log(
    `generated ${USERS.toLocaleString("en")} users in ${((Date.now() - generated) / 1000).toFixed(0)} s`,
  );
  const secret = "import-bench-secret-0123456789abcdef0123456789";
  const gatehouse = await startGatehouse({ GATEHOUSE_SECRET: secret });
  try {
    // A project of its own, made as an operator would (`gatehouse projects create`, beside the running server):
    // the internal project makes a personal team per user, which an ordinary project does not.
    const made = await new Promise<string>((resolve, reject) => {
      const create = spawn(
        process.execPath,
        [
          "--conditions=gatehouse-source",
          "--import",
          TSX,
          MAIN,
          "projects",
          "create",
          "--name",
          "Import bench",
          "--json",
        ],
        {
          env: { ...process.env, DATABASE_URL: gatehouse.databaseUrl, GATEHOUSE_SECRET: secret },
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      let out = "";
      create.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      create.once("exit", (code) =>
        code === 0 ? resolve(out) : reject(new Error(`projects create exited ${code}`)),
      );
    });
    const project = JSON.parse(made) as { id: string; super_secret_admin_key: string };
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [
        "--conditions=gatehouse-source",
        "--import",
        TSX,
        MAIN,
        "import",
        "generic",
        file,
        "--json",
        "--batch-size",
        BATCH,
      ],
      {
        env: {
          ...process.env,
          GATEHOUSE_URL: gatehouse.server.baseUrl,
          GATEHOUSE_PROJECT_ID: project.id,
          GATEHOUSE_ADMIN_KEY: project.super_secret_admin_key,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let cliPeak = 0;
    let serverPeak = 0;
    let writePassStarted = 0;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      // The first progress line marks the end of the checking pass.
      if (!writePassStarted) writePassStarted = Date.now();
      process.stderr.write(chunk);
    });
    const poll = setInterval(() => {
      cliPeak = Math.max(cliPeak, peakKb(child.pid));
      serverPeak = Math.max(serverPeak, peakKb(gatehouse.server.child.pid));
    }, 200);
    const code = await new Promise<number | null>((r) => child.once("exit", r));
    clearInterval(poll);
    const seconds = (Date.now() - started) / 1000;
    if (code !== 0) throw new Error(`import exited ${code}`);
    const report = JSON.parse(stdout) as { created: number; existing: number; skipped_count: number };
    const client = new pg.Client({ connectionString: gatehouse.databaseUrl });
    await client.connect();
    const counted = await client.query<{ users: number; ids: number }>(
      `select count(*)::int as users, count(distinct server_metadata #>> '{imported_from,id}')::int as ids
       from users where project_id = $1`,
      [project.id],
    );
    await client.end();
    console.log(
      JSON.stringify(
        {
          users: USERS,
          batch_size: Number(BATCH),
          created: report.created,
          skipped: report.skipped_count,
          seconds: Math.round(seconds),
          users_per_second: Math.round(USERS / seconds),
          write_pass_users_per_second: writePassStarted
            ? Math.round(USERS / ((Date.now() - writePassStarted) / 1000))
            : null,
          cli_peak_rss_mb: Math.round(cliPeak / 1024),
          server_peak_rss_mb: Math.round(serverPeak / 1024),
          in_database: counted.rows[0],
        },
        null,
        2,
      ),
    );
  } finally {
    await gatehouse.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
