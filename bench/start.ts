// `npm run bench:start` (`-- --quick` for one restart each): start to healthy, the way production runs the server —
// the artifact of `npm run build` (compiled JavaScript, plain `node server.js`, runtime packages installed offline)
// — beside the repository's TypeScript through tsx, on PostgreSQL and on PGlite. Healthy is the first 200 from
// /health?db=1, timed from the spawn; a first start migrates and seeds, the restarts after it find both done.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, type ServerScript, spawnServer } from "@gatehouse/server/testing/server-process";
import { buildArtifact, freshDatabase } from "./gatehouse.ts";

const quick = process.argv.includes("--quick");
const restarts = Number(process.env.BENCH_RESTARTS ?? (quick ? 1 : 5));

/** Milliseconds from the spawn to the first healthy answer; the server is stopped again after. */
async function toHealthy(env: Record<string, string>, script: ServerScript): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const spawned = spawnServer({ ...env, PORT: String(port), GATEHOUSE_LOG_LEVEL: "warn" }, script);
  try {
    for (;;) {
      if (spawned.child.exitCode !== null) throw new Error(`the server exited:\n${spawned.output()}`);
      if (performance.now() - started > 180_000)
        throw new Error(`not healthy in 180 s:\n${spawned.output()}`);
      const res = await fetch(`http://127.0.0.1:${port}/health?db=1`).catch(() => undefined);
      if (res?.status === 200) return Math.round(performance.now() - started);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    spawned.child.kill("SIGTERM");
    await spawned.exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const workDir = await mkdtemp(join(tmpdir(), "gatehouse-bench-start-"));
const databases: { drop: () => Promise<void> }[] = [];
const rows: string[] = [];
try {
  const forms: [string, ServerScript][] = [
    ["artifact, node server.js", await buildArtifact(join(workDir, "app"))],
    ["repository, tsx", "apps/server/src/main.ts"],
  ];
  for (const store of ["PostgreSQL", "PGlite"] as const) {
    for (const [form, script] of forms) {
      // Each its own fresh install, so its first start is the one that migrates and seeds, as operators see it.
      const storeEnv: Record<string, string> = {
        GATEHOUSE_DATA_DIR: join(workDir, `${store}-${rows.length}`),
      };
      if (store === "PostgreSQL") {
        const database = await freshDatabase("gatehouse_bench_start");
        databases.push(database);
        storeEnv.DATABASE_URL = database.url;
      }
      const first = await toHealthy(storeEnv, script);
      const again: number[] = [];
      for (let i = 0; i < restarts; i++) again.push(await toHealthy(storeEnv, script));
      const goal = store === "PostgreSQL" ? 1000 : 2000;
      const verdict = form.startsWith("artifact") ? (median(again) <= goal ? "met" : "missed") : "";
      rows.push(
        `| ${store} | ${form} | ${first} | ${median(again)} [${Math.min(...again)}–${Math.max(...again)}] | ≤ ${goal} | ${verdict} |`,
      );
      process.stderr.write(`${rows.at(-1)}\n`);
    }
  }
} finally {
  for (const database of databases) await database.drop();
  await rm(workDir, { recursive: true, force: true });
}
console.log(
  `\nStart to healthy (/health?db=1) in ms, ${restarts} restarts each${quick ? " (--quick)" : ""}:\n`,
);
console.log("| store | server | first start (migrates) | restart, median [min–max] | goal | |");
console.log("|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
