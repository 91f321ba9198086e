// On PostgreSQL a start loads no embedded database engine either: PGlite and its driver load only in openPglite
// (db/client.ts), and none of the libraries needed only on use (startup-imports.test.ts). Runs where DATABASE_URL is.
import { expect, it } from "vitest";
import { LOADED_ON_USE, packagesLoadedAtStart } from "./testing/startup-packages.ts";
import { adminQuery, withDatabase } from "./testing/test-database.ts";

it("starts on PostgreSQL without PGlite", async () => {
  const adminUrl = process.env.DATABASE_URL as string;
  const name = `gatehouse_startup_imports_${process.pid}_${Date.now()}`;
  await adminQuery(adminUrl, `create database ${name}`);
  try {
    const packages = await packagesLoadedAtStart({ DATABASE_URL: withDatabase(adminUrl, name) });
    expect(packages).toContain("pg");
    expect(packages.filter((p) => [...LOADED_ON_USE, "@electric-sql/pglite"].includes(p))).toEqual([]);
  } finally {
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  }
}, 120_000);
