// Servers started at the same moment on one fresh database, as an orchestrator starts replicas: on PostgreSQL all of
// them migrate and seed it once between them and serve; on the embedded database, which one process alone may open,
// one serves and the others stop saying which process holds it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, spawnServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { afterAll, beforeAll, expect, inject, it } from "vitest";

const PROCESSES = 3;
let dataDir: string;
let databaseName: string | undefined;
const env: Record<string, string> = {};
const spawned: ReturnType<typeof spawnServer>[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "gatehouse-concurrent-"));
  env.GATEHOUSE_DATA_DIR = dataDir;
  const template = inject("testDbTemplate");
  if (template.kind === "postgres") {
    databaseName = `gatehouse_concurrent_${process.pid}_${Date.now()}`;
    await adminQuery(template.adminUrl, `create database ${databaseName}`);
    env.DATABASE_URL = withDatabase(template.adminUrl, databaseName);
  }
});

afterAll(async () => {
  for (const server of spawned) server.child.kill("SIGKILL");
  await Promise.all(spawned.map((server) => server.exited));
  await rm(dataDir, { recursive: true, force: true });
  const template = inject("testDbTemplate");
  if (databaseName && template.kind === "postgres") {
    await adminQuery(template.adminUrl, `drop database if exists ${databaseName} with (force)`);
  }
});

/** Resolves when the process printed its banner ("serving") or exited ("exited"). */
async function outcome(server: ReturnType<typeof spawnServer>): Promise<"serving" | "exited"> {
  for (let i = 0; i < 1200; i++) {
    if (server.output().includes("Gatehouse is running at")) return "serving";
    if (server.child.exitCode !== null) return "exited";
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Neither served nor exited:\n${server.output()}`);
}

it(`starts ${PROCESSES} servers at once on one fresh database`, { timeout: 90_000 }, async () => {
  const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
  for (const port of ports) spawned.push(spawnServer({ ...env, PORT: String(port) }));
  const outcomes = await Promise.all(spawned.map(outcome));
  const serving = ports.filter((_, i) => outcomes[i] === "serving");

  if (env.DATABASE_URL) {
    expect(outcomes, spawned.map((s) => s.output()).join("\n----\n")).toEqual(spawned.map(() => "serving"));
  } else {
    expect(serving).toHaveLength(1);
    for (const [i, server] of spawned.entries())
      if (outcomes[i] === "exited") expect(server.output()).toContain("Another Gatehouse server");
  }
  // Every server that serves answers with the one internal project, seeded once.
  for (const port of serving) {
    const res = await fetch(`http://localhost:${port}/health?db=1`);
    expect(await res.json()).toEqual({ status: "ok" });
  }
});
