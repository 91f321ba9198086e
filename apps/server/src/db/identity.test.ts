// The database identity behind an install's default Redis prefix: the same for every process on one database (so
// they count together), a short hex string fit for a key. Two databases told apart: e2e/cluster/request-limit.test.ts.
import { afterAll, beforeAll, expect, it } from "vitest";
import { openTestDatabase } from "../testing/test-database.ts";
import type { Database } from "./client.ts";
import { databaseIdentity } from "./identity.ts";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

it("names one database the same way every time, as 16 hex digits", async () => {
  const first = await databaseIdentity(database.db);
  expect(first).toMatch(/^[0-9a-f]{16}$/);
  expect(await databaseIdentity(database.db)).toBe(first);
});
