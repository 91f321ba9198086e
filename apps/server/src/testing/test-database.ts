// Test databases, each a fresh copy of one migrated template: on PGlite a dump loaded into a new in-memory
// instance, on PostgreSQL `CREATE DATABASE … TEMPLATE`. Never a cold migration per test.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openPglite, openPostgres } from "../db/client.ts";

export type TestDbTemplate =
  | { kind: "pglite"; dumpFile: string }
  | { kind: "postgres"; adminUrl: string; templateName: string };

declare module "vitest" {
  export interface ProvidedContext {
    testDbTemplate: TestDbTemplate;
    /** A folder that lives as long as the test run (global-setup.ts): builds shared by its files go there. */
    testRunFolder: string;
  }
}

/** Where the global setup keeps the run's folder between the projects' setups. */
export const RUN_FOLDER_ENV = "GATEHOUSE_TEST_RUN_FOLDER";

/** The same server URL with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * The dump as PGlite reads it, which is only through `arrayBuffer()`: Node's own Blob copies its bytes out in chunks
 * and joins them on every call, 0.3 to 0.4 s of CPU per open of the 43 MB dump (a third of the open); this one hands
 * out the file's bytes as read once. PGlite copies each file out of them and never writes to them.
 */
class DumpBlob extends Blob {
  readonly #bytes: ArrayBuffer;

  constructor(bytes: ArrayBuffer) {
    super([], { type: "application/x-tar" });
    this.#bytes = bytes;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes);
  }
}

async function readDump(dumpFile: string): Promise<Blob> {
  const file = await readFile(dumpFile);
  return new DumpBlob(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
}

let dump: Blob | undefined;

/** Writes a copy of the migrated template into a PGlite data directory that a server process then opens. */
export async function seedPgliteDataDir(dataDir: string, dumpFile: string): Promise<void> {
  const database = await openPglite({ dataDir, dump: await readDump(dumpFile) });
  await database.close();
}

export async function openTestDatabase(): Promise<Database> {
  const template = inject("testDbTemplate");
  if (template.kind === "pglite") {
    dump ??= await readDump(template.dumpFile);
    return openPglite({ dump });
  }
  const name = `gatehouse_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(template.adminUrl, `create database ${name} template ${template.templateName}`);
  const database = openPostgres(withDatabase(template.adminUrl, name));
  return {
    ...database,
    async close() {
      await database.close();
      await adminQuery(template.adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
