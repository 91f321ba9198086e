// Opening the database: PostgreSQL through a pg pool, or embedded PGlite. Both speak the same SQL and schema.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { type ChangeFeed, pgliteChangeFeed, postgresChangeFeed } from "./change-feed.ts";
import * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: "postgres" | "pglite";
  migrate(): Promise<void>;
  /** Runs start-up work (migrations, seeding) in one process of all those on this database at a time. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /** Changes announced by any process on this database (db/change-feed.ts), for caches to drop. */
  changes: ChangeFeed;
  close(): Promise<void>;
};

/** Runs `fn` in one transaction: everything it writes lands together or not at all. */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  // A drizzle transaction is a PgDatabase too; the cast only erases the transaction-specific methods.
  return db.transaction((tx) => fn(tx as unknown as Db));
}

// From the module path as a string: a DOM environment (component tests) may replace the global URL class.
export const MIGRATIONS_FOLDER = join(dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * `onError` hears about idle connections the server dropped (a restart, an administrator): without a listener the
 * pool's error event would end the process; with one, the pool simply opens a new connection next time.
 */
export function openPostgres(url: string, onError: (error: Error) => void = () => {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on("error", onError);
  const db = drizzlePg(pool, { schema });
  const changes = postgresChangeFeed(url);
  return {
    db: db as unknown as Db,
    kind: "postgres",
    migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    exclusive: (work) => underStartupLock(pool, work),
    ping: async () => void (await db.execute(sql`select 1`)),
    changes,
    close: async () => {
      await changes.close();
      await pool.end();
    },
  };
}

/** Any fixed number: the key of the session advisory lock that serialises start-up work across processes. */
const STARTUP_LOCK_KEY = 7_401_201_511;

/**
 * Several processes started together on one database would each run the pending migrations and the seeding at once,
 * and all but one fail (duplicate key in pg_type on CREATE TABLE, then on the internal project's row). So that work
 * runs under a session advisory lock held on a connection of its own: the first process does it, the others wait and
 * then find nothing left to do. PostgreSQL releases the lock if the process dies, so a crash never blocks a start.
 */
async function underStartupLock<T>(pool: pg.Pool, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
    try {
      return await work();
    } finally {
      await client.query("select pg_advisory_unlock($1)", [STARTUP_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** Extensions the migrations use (PostgreSQL ships them in its contrib package). */
const extensions = { pg_trgm };

/** `source`: a data directory to persist in, a dump to start from (tests), or nothing for a blank in-memory one. */
export async function openPglite(source?: { dataDir: string } | { dump: Blob }): Promise<Database> {
  const client =
    source && "dump" in source
      ? new PGlite({ loadDataDir: source.dump, extensions })
      : new PGlite({ ...(source?.dataDir ? { dataDir: source.dataDir } : {}), extensions });
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    // One process alone opens an embedded database (the data directory's lock file), so there is nobody to wait for.
    exclusive: (work) => work(),
    ping: async () => void (await db.execute(sql`select 1`)),
    changes: pgliteChangeFeed(client),
    close: () => client.close(),
  };
}

/** Serialises a PGlite database so test servers can start from a migrated copy instead of a cold one. */
export async function dumpPglite(database: Database): Promise<Blob> {
  const client = (database.db as unknown as { $client: PGlite }).$client;
  return client.dumpDataDir("none");
}
