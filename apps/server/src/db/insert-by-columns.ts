// Many rows in one insert, sent as one array per column: `insert into t (a, b) select * from unnest($1::uuid[],
// $2::text[])`. Drizzle's multi-row `values` sends a parameter per cell and types each of them as it builds the
// text: in an import on PGlite, drizzle was 17.8 % of the server's CPU, 7.9 % of it `is()` called from
// `prepareTyping` for every parameter, and the database parsed thousands of parameters per statement.
// Values go through each column's own driver mapping (JSON text for jsonb, ISO text for timestamps), as drizzle's.
import { getTableColumns, getTableName, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client.ts";

/**
 * Inserts `rows` into `table` in one statement. Every row must give the same columns (a column some rows leave out
 * could only take its default in all of them); array columns are refused, since unnest would flatten them.
 */
export async function insertByColumns<T extends PgTable>(
  tx: Db,
  table: T,
  rows: T["$inferInsert"][],
): Promise<void> {
  const first = rows[0];
  if (first === undefined) return;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const keys = Object.keys(first).filter(
    (key) => columns[key] && (first as Record<string, unknown>)[key] !== undefined,
  );
  const arrays: SQL[] = keys.map((key) => {
    const column = columns[key] as PgColumn;
    const type = column.getSQLType();
    if (type.endsWith("]"))
      throw new Error(`insertByColumns: ${getTableName(table)}.${column.name} is an array`);
    const values = rows.map((row) => {
      const value = (row as Record<string, unknown>)[key];
      if (value === undefined)
        throw new Error(`insertByColumns: a row of ${getTableName(table)} lacks ${key}`);
      return value === null ? null : column.mapToDriverValue(value);
    });
    // One parameter holding the whole column (a bare array in a template would become a parameter per element).
    return sql`${sql.param(values)}::${sql.raw(type)}[]`;
  });
  const names = sql.join(
    keys.map((key) => sql.identifier((columns[key] as PgColumn).name)),
    sql`, `,
  );
  await tx.execute(sql`insert into ${table} (${names}) select * from unnest(${sql.join(arrays, sql`, `)})`);
}
