// On PostgreSQL, an insert the server repeats is a named prepared statement of its connection: parsed once, not
// on every call (db/statement-names.ts; about 3 ms of PostgreSQL CPU less per password sign-in). One pooled
// connection, so `pg_prepared_statements` (which lists the asking connection's statements) sees them all.
import { randomBytes } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminQuery, withDatabase } from "../testing/test-database.ts";
import { type Database, type Db, inTransaction, openPostgres } from "./client.ts";
import { MAX_PARAMETERS } from "./statement-names.ts";

const template = inject("testDbTemplate");
if (template.kind !== "postgres") throw new Error("a PostgreSQL-only suite (vitest.config.ts postgresOnly)");
const name = `gatehouse_test_${randomBytes(6).toString("hex")}`;
let database: Database;

beforeAll(async () => {
  await adminQuery(template.adminUrl, `create database ${name}`);
  database = openPostgres(withDatabase(template.adminUrl, name), () => {}, { settings: { poolSize: 1 } });
});
afterAll(async () => {
  await database.close();
  await adminQuery(template.adminUrl, `drop database if exists ${name} with (force)`);
});

/** The rows of a statement run through the pool (drizzle's execute answers pg's result). */
const rowsOf = async (query: SQL, db: Db = database.db) =>
  ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

/** The connection's prepared statements whose text starts with `prefix`. */
async function prepared(prefix: string): Promise<number> {
  const [row] = await rowsOf(
    sql`select count(*)::int as n from pg_prepared_statements where statement like ${`${prefix}%`}`,
  );
  return row?.n as number;
}

describe("named statements on PostgreSQL", () => {
  it("prepares a repeated insert once on its connection, and inserts as before", async () => {
    await rowsOf(sql`create table repeated_probe (id int primary key)`);
    const insert = (id: number) => rowsOf(sql`insert into repeated_probe (id) values (${id}) returning id`);
    expect(await insert(1)).toEqual([{ id: 1 }]);
    expect(await prepared("insert into repeated_probe")).toBe(0);
    for (const id of [2, 3, 4, 5, 6, 7, 8]) expect(await insert(id)).toEqual([{ id }]);
    expect(await prepared("insert into repeated_probe")).toBe(1);
    expect(await rowsOf(sql`select count(*)::int as n from repeated_probe`)).toEqual([{ n: 8 }]);
  });

  it("leaves selects unnamed: their best plan may hang on the values", async () => {
    for (let i = 0; i < 3; i++) await rowsOf(sql`select ${i}::int * 2 as doubled`);
    expect(await prepared("select $1::int * 2")).toBe(0);
  });

  it("names statements in a transaction too, which still rolls back as one", async () => {
    await database.db.execute(sql`create table named_probe (id int primary key, note text)`);
    const insert = (tx: Db, id: number) =>
      rowsOf(sql`insert into named_probe (id, note) values (${id}, ${"kept"})`, tx);
    await inTransaction(database.db, async (tx) => {
      await insert(tx, 1);
      await insert(tx, 2);
    });
    await inTransaction(database.db, async (tx) => {
      await insert(tx, 3);
      await insert(tx, 1).catch(() => undefined);
    }).catch(() => undefined);
    expect(await prepared("insert into named_probe")).toBe(1);
    expect(await rowsOf(sql`select id from named_probe order by id`)).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it("keeps working when a migration changes a table under a prepared statement", async () => {
    await rowsOf(sql`create table altered_probe (id int primary key, note text)`);
    const insert = (id: number) =>
      rowsOf(sql`insert into altered_probe (id, note) values (${id}, ${"a"}) returning id, note`);
    await insert(1);
    await insert(2);
    expect(await prepared("insert into altered_probe")).toBe(1);
    await rowsOf(sql`alter table altered_probe add column extra text default 'x'`);
    expect(await insert(3)).toEqual([{ id: 3, note: "a" }]);
  });

  it("leaves a statement with a long parameter list unnamed, to be planned for its values each time", async () => {
    const ids = Array.from({ length: MAX_PARAMETERS + 1 }, (_, i) => i);
    const list = sql.join(
      ids.map((id) => sql`${id}::int`),
      sql`, `,
    );
    await rowsOf(sql`create table listed_probe (id int)`);
    for (let i = 0; i < 3; i++)
      await rowsOf(
        sql`insert into listed_probe (id) select g from generate_series(1, 100) g where g in (${list})`,
      );
    expect(await prepared("insert into listed_probe")).toBe(0);
  });

  it("leaves statements without parameters on the simple protocol", async () => {
    await rowsOf(sql`create table constant_probe (id int)`);
    for (let i = 0; i < 3; i++) await rowsOf(sql`insert into constant_probe (id) values (42)`);
    expect(await prepared("insert into constant_probe")).toBe(0);
  });
});
