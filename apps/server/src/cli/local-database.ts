// Opens the server's own database the way main.ts does (DATABASE_URL, else the PGlite data directory with its lock),
// for the commands whose point is the database itself: migrate, projects, export, backup and restore.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { acquireLock, ensureDataDir } from "../data-dir.ts";
import { type Database, openPglite, openPostgres } from "../db/client.ts";
import { databaseLocation } from "./database-location.ts";
import { CliError, EXIT } from "./output.ts";

/** The embedded database is open in a running server (its lock is held): ask that server instead. */
export class DatabaseInUseError extends CliError {}

/** Runs `work` on the open database and closes it; PGlite's directory is locked meanwhile (one opener at a time). */
export async function withDatabase<T>(
  work: (database: Database) => Promise<T>,
  options: { create?: boolean } = {},
): Promise<T> {
  const location = databaseLocation();
  let release = () => {};
  let database: Database;
  if (location.kind === "postgres") {
    database = openPostgres(location.url, () => {});
  } else {
    if (!options.create && !existsSync(join(location.dataDir, "data")))
      throw new CliError(
        `no database in ${location.dataDir} (set GATEHOUSE_DATA_DIR or DATABASE_URL)`,
        EXIT.failure,
      );
    ensureDataDir(location.dataDir);
    try {
      release = acquireLock(location.dataDir);
    } catch (error) {
      throw new DatabaseInUseError(
        `${(error as Error).message} (stop the server, or use its API)`,
        EXIT.failure,
      );
    }
    database = await openPglite({ dataDir: join(location.dataDir, "data") });
  }
  try {
    return await work(database);
  } finally {
    await database.close();
    release();
  }
}
