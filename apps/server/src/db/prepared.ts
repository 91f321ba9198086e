// Queries built once per database handle. Drizzle builds a query's SQL text on every call (walking its columns,
// joins and conditions), which was about a fifth of the event loop's time in a password sign-in; a prepared query is
// built once and run with placeholders (`sql.placeholder`). Keyed by handle because a prepared query runs on the
// handle it was made from: the pool's is kept for the process, a transaction's lives as long as the transaction.
import type { Query, SQL } from "drizzle-orm";
import type { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./client.ts";

export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}

/**
 * Raw SQL run as a named prepared statement, its text built once for the process: drizzle prepares only its query
 * builders, and a statement put together from several modules' parts (a session's insert with its audit entry) was
 * otherwise built again on every call, which cost a sign-in more event-loop time than the round trip it saved.
 * `build` may use any handle (it only renders); its placeholders take `run`'s values, on the handle given to `run`.
 */
export function preparedSql(name: string, build: () => SQL) {
  let query: Query | undefined;
  return async (db: Db, values: Record<string, unknown>): Promise<unknown[]> => {
    // The dialect renders SQL for drizzle's own builders; it is not in drizzle's public types.
    query ??= (db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(build());
    const result = await db._.session.prepareQuery(query, undefined, name, false).execute(values);
    return (result as { rows: unknown[] }).rows;
  };
}
