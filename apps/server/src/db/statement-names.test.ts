// Which statement texts get names: repeated ones, within a bound (db/statement-names.ts). The effect on PostgreSQL
// (statements parsed once per connection) is checked in statement-names-postgres.test.ts.
import { describe, expect, it } from "vitest";
import { createStatementNames } from "./statement-names.ts";

describe("statement names", () => {
  it("names a text on its second sighting, and keeps that name", () => {
    const names = createStatementNames();
    expect(names.nameOf("insert into t values ($1)")).toBeUndefined();
    const name = names.nameOf("insert into t values ($1)");
    expect(name).toMatch(/^gh_\d+$/);
    expect(names.nameOf("insert into t values ($1)")).toBe(name);
    expect(names.nameOf("insert into u values ($2)")).toBeUndefined();
    expect(names.nameOf("insert into u values ($2)")).not.toBe(name);
  });

  it("names inserts only: a select's best plan may hang on its values", () => {
    const names = createStatementNames();
    for (const text of [
      "select * from users where search_text like $1",
      "update t set a = $1",
      "insert into t values ($1)",
    ]) {
      names.nameOf(text);
      names.nameOf(text);
    }
    expect(names.size).toBe(1);
    const audit = "with entries as (insert into audit_log values ($1)) insert into webhook_events select $2";
    names.nameOf(audit);
    expect(names.nameOf(audit)).toBeDefined();
  });

  it("names no more than its bound: the texts after it stay unnamed", () => {
    const names = createStatementNames(2);
    for (const text of [
      "insert into a values ($1)",
      "insert into b values ($1)",
      "insert into c values ($1)",
    ]) {
      names.nameOf(text);
      names.nameOf(text);
    }
    expect(names.size).toBe(2);
    expect(names.nameOf("insert into c values ($1)")).toBeUndefined();
    expect(names.nameOf("insert into a values ($1)")).toBeDefined();
  });

  it("never names a bulk statement (an import batch's multi-row insert)", () => {
    const names = createStatementNames();
    const bulk = `insert into t values ${Array.from({ length: 3000 }, (_, i) => `($${i + 1})`).join(", ")}`;
    names.nameOf(bulk);
    expect(names.nameOf(bulk)).toBeUndefined();
  });
});
