// What every browser test needs: the real server process on its own database (a fresh PostgreSQL database in the
// postgres project, PGlite in a temporary data directory otherwise), Debian's Chromium through playwright-core, and
// a folder for the screenshots a person looks at afterwards.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, type RunningServer, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { type Browser, chromium } from "playwright-core";
import { expect, inject } from "vitest";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Chromium, or a failure that says how to get it: browser tests fail rather than skip without a browser. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: browser tests need it (apt-get install chromium, or set CHROMIUM_PATH).`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM });
}

/** `test-output/<name>/`, created: where a suite saves its screenshots. */
export async function screenshotDir(name: string): Promise<string> {
  const dir = fileURLToPath(new URL(`../../test-output/${name}/`, import.meta.url));
  await mkdir(dir, { recursive: true });
  return dir;
}

/** The server process on a database of its own; `stop` ends it and removes its data. */
export async function startIsolatedServer(
  name: string,
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; stop: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), `gatehouse-${name}-`));
  const fullEnv: Record<string, string> = {
    PORT: String(await freePort()),
    GATEHOUSE_DATA_DIR: dataDir,
    ...env,
  };
  const template = inject("testDbTemplate");
  let databaseName: string | undefined;
  if (template.kind === "postgres") {
    databaseName = `gatehouse_${name.replace(/\W/g, "_")}_${process.pid}_${Date.now()}`;
    await adminQuery(template.adminUrl, `create database ${databaseName}`);
    fullEnv.DATABASE_URL = withDatabase(template.adminUrl, databaseName);
  }
  const server = await startServer(fullEnv);
  return {
    server,
    async stop() {
      expect(await server.stop()).toBe(0);
      await rm(dataDir, { recursive: true, force: true });
      if (databaseName && template.kind === "postgres") {
        await adminQuery(template.adminUrl, `drop database if exists ${databaseName} with (force)`);
      }
    },
  };
}
