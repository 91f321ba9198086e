// One row of a table as a select list, for `insert … select`: a session inserted only while its user may sign in,
// an audit entry written only when the change it records was made. Each value is cast to its column's type, because
// PostgreSQL types a bare parameter in a select list as text, which an insert into a uuid or timestamp column refuses.
import { Column, getTableColumns, is, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

/**
 * Every column of `table` in table order (drizzle checks the order), from `valueFor`: a parameter or placeholder,
 * cast here to the column's type, or a column of the query's source (the user's id from the locked row), taken as
 * it is.
 */
export function typedRow(
  table: PgTable,
  valueFor: (key: string, column: PgColumn) => unknown,
): Record<string, SQL.Aliased | PgColumn> {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => {
      const value = valueFor(key, column);
      if (is(value, Column)) return [key, value as PgColumn];
      return [key, sql`${value}::${sql.raw(column.getSQLType())}`.as(column.name)];
    }),
  );
}
