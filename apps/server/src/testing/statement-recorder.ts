// Records the SQL text every statement sends to the database driver (PGlite or a pg pool), transaction boundaries
// included, so a test can prove two requests did the same work without timing them. Parameters are not kept.
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type pg from "pg";
import type { Database } from "../db/client.ts";

type QueryArg = string | { text: string };
const textOf = (arg: QueryArg) => (typeof arg === "string" ? arg : arg.text).replace(/\s+/g, " ").trim();

/**
 * Wraps the driver of `database` for the duration of `run` and answers the statements it issued, in order. The
 * driver objects are third-party code; the wrappers only note the text and call through unchanged.
 */
export async function recordStatements(database: Database, run: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  // drizzle keeps the driver it was given as `$client`.
  const client = (database.db as unknown as { $client: PGlite | pg.Pool }).$client;
  const restore =
    database.kind === "pglite"
      ? wrapPglite(client as PGlite, statements)
      : wrapPool(client as pg.Pool, statements);
  try {
    await run();
  } finally {
    restore();
  }
  return statements;
}

function wrapPglite(client: PGlite, statements: string[]): () => void {
  const { query, transaction } = client;
  const recordQuery =
    (target: { query: PGlite["query"] }) =>
    (...args: Parameters<PGlite["query"]>) => {
      statements.push(textOf(args[0]));
      return target.query(...args);
    };
  client.query = recordQuery({ query: query.bind(client) }) as PGlite["query"];
  // PGlite runs BEGIN and COMMIT itself, out of the query path: they are noted where the callback starts and ends.
  client.transaction = (async <T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction.call(client, async (tx: Transaction) => {
      statements.push("begin");
      const recorded = Object.assign(Object.create(tx) as Transaction, {
        query: recordQuery({ query: tx.query.bind(tx) }),
      });
      try {
        const result = await callback(recorded);
        statements.push("commit");
        return result;
      } catch (error) {
        statements.push("rollback");
        throw error;
      }
    })) as PGlite["transaction"];
  return () => {
    client.query = query;
    client.transaction = transaction;
  };
}

function wrapPool(pool: pg.Pool, statements: string[]): () => void {
  const { connect } = pool;
  let active = true;
  const wrapped = new WeakSet<pg.PoolClient>();
  const wrapClient = (client: pg.PoolClient | undefined) => {
    if (!client || wrapped.has(client)) return;
    wrapped.add(client);
    const clientQuery = client.query;
    client.query = ((arg: QueryArg, ...rest: unknown[]) => {
      if (active) statements.push(textOf(arg));
      return (clientQuery as (...a: unknown[]) => unknown).call(client, arg, ...rest);
    }) as pg.PoolClient["query"];
  };
  // Every statement runs on a client the pool hands out: `pool.query` takes one through `connect` with a
  // callback, a transaction takes one with a promise and sends BEGIN and COMMIT through it like any statement.
  type Callback = (error: Error | undefined, client: pg.PoolClient | undefined, done: unknown) => void;
  pool.connect = ((callback?: Callback) => {
    if (!callback)
      return (connect as () => Promise<pg.PoolClient>).call(pool).then((client) => {
        wrapClient(client);
        return client;
      });
    return (connect as (cb: Callback) => void).call(pool, (error, client, done) => {
      wrapClient(client);
      callback(error, client, done);
    });
  }) as pg.Pool["connect"];
  return () => {
    active = false;
    pool.connect = connect;
  };
}
