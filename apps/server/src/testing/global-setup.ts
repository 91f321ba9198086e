// Vitest global setup: migrates one template database per run (PGlite dump file, or a PostgreSQL template
// database when the project runs against DATABASE_URL) and tells the test workers where it is.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { dumpPglite, openPglite, openPostgres } from "../db/client.ts";
import { buildCompiledServer, COMPILED_CLI_ENV, COMPILED_SERVER_ENV } from "./compiled-server.ts";
import { adminQuery, RUN_FOLDER_ENV, withDatabase } from "./test-database.ts";

/**
 * The server and CLI compiled once for the whole run (every project's setup calls this; the first one builds). The
 * variables reach the test workers, which vitest starts after the global setups, and the servers they spawn.
 */
async function compileServerOnce(): Promise<(() => Promise<void>) | undefined> {
  const built = process.env[COMPILED_SERVER_ENV];
  if (built && existsSync(built)) return undefined;
  const serverDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const outDir = join(serverDir, ".test-build", randomBytes(6).toString("hex"));
  const { server, cli } = await buildCompiledServer(outDir);
  process.env[COMPILED_SERVER_ENV] = server;
  process.env[COMPILED_CLI_ENV] = cli;
  return () => rm(outDir, { recursive: true, force: true });
}

/**
 * A folder for what the suites build once per run rather than once per file (e2e/shared-builds.ts: the dashboard, the
 * demo app), made by the first project's setup and removed by its teardown, after every project's files.
 */
async function runFolderOnce(): Promise<(() => Promise<void>) | undefined> {
  const made = process.env[RUN_FOLDER_ENV];
  if (made && existsSync(made)) return undefined;
  const folder = await mkdtemp(join(tmpdir(), "gatehouse-test-run-"));
  process.env[RUN_FOLDER_ENV] = folder;
  return () => rm(folder, { recursive: true, force: true });
}

export default async function setup(project: TestProject) {
  const teardowns: (() => Promise<unknown>)[] = [];
  for (const made of [await compileServerOnce(), await runFolderOnce()]) if (made) teardowns.push(made);
  project.provide("testRunFolder", process.env[RUN_FOLDER_ENV] as string);
  const teardown = async () => {
    for (const step of teardowns) await step();
  };
  // The postgres and chaos (which restarts the server) projects run on PostgreSQL; the others on PGlite.
  if (project.name === "postgres" || project.name === "chaos") {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error("The postgres test project needs DATABASE_URL");
    const templateName = `gatehouse_template_${randomBytes(6).toString("hex")}`;
    await adminQuery(adminUrl, `create database ${templateName}`);
    const template = openPostgres(withDatabase(adminUrl, templateName));
    await template.migrate();
    await template.close();
    project.provide("testDbTemplate", { kind: "postgres", adminUrl, templateName });
    teardowns.push(() => adminQuery(adminUrl, `drop database if exists ${templateName} with (force)`));
    return teardown;
  }
  const made = await pgliteTemplateOnce();
  if (made) teardowns.push(made);
  project.provide("testDbTemplate", { kind: "pglite", dumpFile: process.env[PGLITE_DUMP_ENV] as string });
  return teardown;
}

const PGLITE_DUMP_ENV = "GATEHOUSE_TEST_PGLITE_DUMP";

/**
 * The migrated PGlite template, dumped once for the whole run: the pglite and components projects both run on it,
 * and each migrating its own cost the run a second blank PGlite and every migration (8 to 11 s of CPU).
 */
async function pgliteTemplateOnce(): Promise<(() => Promise<void>) | undefined> {
  const made = process.env[PGLITE_DUMP_ENV];
  if (made && existsSync(made)) return undefined;
  const database = await openPglite();
  await database.migrate();
  const dumpFile = join(tmpdir(), `gatehouse-template-${randomBytes(6).toString("hex")}.tar`);
  await writeFile(dumpFile, Buffer.from(await (await dumpPglite(database)).arrayBuffer()));
  await database.close();
  process.env[PGLITE_DUMP_ENV] = dumpFile;
  return () => rm(dumpFile, { force: true });
}
