// Opening the database: PostgreSQL through a pg pool, or embedded PGlite. Both speak the same SQL and schema.
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { resources } from "../resources.ts";
import { type ChangeFeed, pgliteChangeFeed, postgresChangeFeed } from "./change-feed.ts";
import * as schema from "./schema.ts";
import { createStatementNames, nameRepeatedStatements } from "./statement-names.ts";

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
  /** The PostgreSQL pool's connections now (metrics); PGlite has no pool. */
  poolStats?(): { max: number; total: number; idle: number; waiting: number };
};

/** Runs `fn` in one transaction: everything it writes lands together or not at all. */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  // A drizzle transaction is a PgDatabase too; the cast only erases the transaction-specific methods.
  return db.transaction((tx) => fn(tx as unknown as Db));
}

export const MIGRATIONS_FOLDER = resources.migrationsDir;

/** The PostgreSQL pool's settings (GATEHOUSE_DB_*); timeouts in milliseconds, 0 turns one off. */
export type DatabaseSettings = {
  poolSize: number;
  /** A statement running longer is cancelled (57014) and its request answers DATABASE_UNAVAILABLE. */
  statementTimeoutMs: number;
  /** An idle pooled connection is closed after this long. */
  idleTimeoutMs: number;
  /** A request waiting this long for a connection (the database down, or the pool exhausted) fails. */
  connectTimeoutMs: number;
  /** How long start-up keeps retrying an unreachable database before giving up. */
  startupWaitMs: number;
};

export const DEFAULT_DATABASE_SETTINGS: DatabaseSettings = {
  poolSize: 10,
  statementTimeoutMs: 30_000,
  idleTimeoutMs: 10_000,
  connectTimeoutMs: 5_000,
  startupWaitMs: 60_000,
};

/** Told when a query starts; answers the function to call when it ends (with its error, if it failed). */
export type QueryObserver = (text: string) => (error?: unknown) => void;

export type PostgresOptions = { settings?: Partial<DatabaseSettings>; observeQuery?: QueryObserver };

/**
 * `onError` hears about idle connections the server dropped (a restart, an administrator): without a listener the
 * pool's error event would end the process; with one, the pool simply opens a new connection next time. A connection
 * that broke while checked out is discarded by pg-pool on release (it is no longer queryable), so after a restart
 * the pool refills itself with fresh connections and nothing needs restarting.
 */
export function openPostgres(
  url: string,
  onError: (error: Error) => void = () => {},
  options: PostgresOptions = {},
): Database {
  const settings = { ...DEFAULT_DATABASE_SETTINGS, ...options.settings };
  const pool = new pg.Pool({
    connectionString: url,
    max: settings.poolSize,
    idleTimeoutMillis: settings.idleTimeoutMs,
    // Without a bound, a request would wait forever for a connection while PostgreSQL is down.
    connectionTimeoutMillis: settings.connectTimeoutMs,
    // Sent at connection start-up, so it holds for every statement on every pooled connection.
    ...(settings.statementTimeoutMs > 0 ? { statement_timeout: settings.statementTimeoutMs } : {}),
  });
  pool.on("error", onError);
  const { observeQuery } = options;
  const statementNames = createStatementNames();
  pool.on("connect", (client) => {
    // pg-pool listens for errors of idle connections only: one that breaks while checked out (a transaction when
    // PostgreSQL restarts) emits `error` with nobody listening, which would end the process. Its query fails anyway.
    client.on("error", onError);
    nameRepeatedStatements(client, statementNames);
    if (observeQuery) observeClient(client, observeQuery);
  });
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
    poolStats: () => ({
      max: settings.poolSize,
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  };
}

/**
 * Reports every query of a pooled connection to `observe` (traces). By hand rather than through
 * @opentelemetry/instrumentation-pg: that one patches `pg` through require hooks, which an ES module import and the
 * bundled server artifact both bypass. pg-pool calls `client.query` with a callback, drizzle's transactions without.
 */
function observeClient(client: pg.PoolClient, observe: QueryObserver): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const observed = (...args: unknown[]) => {
    const first = args[0] as string | { text?: string } | undefined;
    const end = observe(typeof first === "string" ? first : (first?.text ?? ""));
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (error: unknown, result: unknown) => {
        end(error ?? undefined);
        callback(error, result);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise)
      result.then(
        () => end(),
        (error: unknown) => end(error),
      );
    else end();
    return result;
  };
  client.query = observed as typeof client.query;
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
    // Waiting for another process's migrations may outlast the statement timeout: no timeout on this one session.
    await client.query("set statement_timeout = 0");
    await client.query("select pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
    try {
      return await work();
    } finally {
      await client.query("select pg_advisory_unlock($1)", [STARTUP_LOCK_KEY]);
      await client.query("reset statement_timeout");
    }
  } finally {
    client.release();
  }
}

/**
 * The embedded database's memory (issue 24): PostgreSQL's default 128 MB of shared buffers live inside PGlite's wasm
 * memory, and one process with one connection fills them with pages it rarely reads again; 32 MB holds the hot rows
 * of a small install (the embedded store's purpose). Compiled server, idle after start: first start (migrate, seed)
 * 524 → 398 MiB, restart 402 → 294 MiB. 16 MB gave 258 MiB on restart but 733 MiB after the first start.
 */
const PGLITE_SETTINGS = ["-c", "shared_buffers=32MB"];

/**
 * `source`: a data directory to persist in, a dump to start from (tests; into `dataDir` when both are given), or
 * nothing for a blank in-memory one.
 */
export async function openPglite(source: { dataDir?: string; dump?: Blob } = {}): Promise<Database> {
  // PGlite and its drizzle driver load here, so a server on PostgreSQL never holds them.
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all(
    [
      import("@electric-sql/pglite"),
      import("@electric-sql/pglite/contrib/pg_trgm"),
      import("drizzle-orm/pglite"),
      import("drizzle-orm/pglite/migrator"),
    ],
  );
  const client = new PGlite({
    ...(source.dataDir ? { dataDir: source.dataDir } : {}),
    ...(source.dump ? { loadDataDir: source.dump } : {}),
    // Extensions the migrations use (PostgreSQL ships them in its contrib package).
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
  });
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

/**
 * A consistent copy of a running PGlite database (its data directory as a gzipped tar), for `GET /internal/backup`.
 * The dump holds PGlite's query lock, so no statement runs while the files are read, and runs inside a transaction
 * of ours, so no other transaction is open (PGlite runs one at a time); a checkpoint first writes what sits in
 * memory to the files. The copy is what a clean stop would leave (it opens without replaying the write-ahead log),
 * and it is held in memory while it is sent.
 */
export async function backupPglite(database: Database): Promise<Blob> {
  const client = (database.db as unknown as { $client: PGlite }).$client;
  await client.exec("checkpoint");
  return client.transaction(() => client.dumpDataDir("gzip"));
}

/** Serialises a PGlite database so test servers can start from a migrated copy instead of a cold one. */
export async function dumpPglite(database: Database): Promise<Blob> {
  const client = (database.db as unknown as { $client: PGlite }).$client;
  return client.dumpDataDir("none");
}
