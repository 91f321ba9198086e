// Queries built once per database handle. Drizzle builds a query's SQL text on every call (walking its columns,
// joins and conditions), which was about a fifth of the event loop's time in a password sign-in; a prepared query is
// built once and run with placeholders (`sql.placeholder`). Keyed by handle because a prepared query runs on the
// handle it was made from: the pool's is kept for the process, a transaction's lives as long as the transaction.
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
