// insertByColumns writes what drizzle's own multi-row insert writes: the same rows read back, whatever the JSON,
// text and nulls hold (array literals must escape quotes, backslashes, braces and commas), on both databases.
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openTestDatabase } from "../testing/test-database.ts";
import type { Database } from "./client.ts";
import { insertByColumns } from "./insert-by-columns.ts";
import { projects, users } from "./schema.ts";

const PROJECT = "insert-by-columns";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.insert(projects).values({ id: PROJECT, displayName: "Rows", config: {} as never });
});
afterAll(() => database?.close());

const awkward = ['"quoted"', "back\\slash", "{braces}", "a, b", "NULL", "ünï©ødé 🙂", "", "line\nbreak"];

function row(i: number, text: string) {
  return {
    id: randomUUID(),
    projectId: PROJECT,
    displayName: i % 3 === 0 ? null : text,
    profileImageUrl: null,
    clientMetadata: i % 2 === 0 ? { text, nested: { list: [text, 1, true, null] } } : null,
    clientReadOnlyMetadata: text,
    serverMetadata: [text],
    passwordHash: null,
    isAnonymous: i % 2 === 1,
    signedUpAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i, 123)),
    lastActiveAt: new Date(Date.UTC(2026, 0, 2)),
  };
}

it("writes the rows drizzle's multi-row insert writes", async () => {
  const { db } = database;
  const ours = awkward.map((text, i) => row(i, text));
  const theirs = awkward.map((text, i) => row(i, text));
  await insertByColumns(db, users, ours);
  await db.insert(users).values(theirs);
  const read = async (rows: { id: string }[]) => {
    const found = await db
      .select()
      .from(users)
      .where(
        inArray(
          users.id,
          rows.map((r) => r.id),
        ),
      );
    const byId = new Map(found.map((r) => [r.id, r]));
    return rows.map(({ id }) => {
      const found = byId.get(id);
      if (!found) throw new Error(`row ${id} was not written`);
      const { id: _id, ...rest } = found;
      return rest;
    });
  };
  const written = await read(ours);
  expect(written).toEqual(await read(theirs));
  expect(written[1]).toMatchObject({ displayName: "back\\slash", clientReadOnlyMetadata: "back\\slash" });
  expect(written[0]?.clientMetadata).toEqual({
    text: '"quoted"',
    nested: { list: ['"quoted"', 1, true, null] },
  });
});

it("refuses rows that do not all give the same columns, and writes none of them", async () => {
  const { db } = database;
  const first = row(1, "first");
  const { displayName: _left, ...second } = row(2, "second");
  await expect(insertByColumns(db, users, [first, second])).rejects.toThrow(/lacks displayName/);
  expect(await db.select().from(users).where(eq(users.id, first.id))).toEqual([]);
});
