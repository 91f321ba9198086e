// Which statement texts get names: repeated ones, within a bound (db/statement-names.ts). The effect on PostgreSQL
// (statements parsed once per connection) is checked in statement-names-postgres.test.ts.
import { describe, expect, it } from "vitest";
import { createStatementNames } from "./statement-names.ts";

describe("statement names", () => {
  it("names a text on its second sighting, and keeps that name", () => {
    const names = createStatementNames();
    expect(names.nameOf("select $1")).toBeUndefined();
    const name = names.nameOf("select $1");
    expect(name).toMatch(/^gh_\d+$/);
    expect(names.nameOf("select $1")).toBe(name);
    expect(names.nameOf("select $2")).toBeUndefined();
    expect(names.nameOf("select $2")).not.toBe(name);
  });

  it("names no more than its bound: the texts after it stay unnamed", () => {
    const names = createStatementNames(2);
    for (const text of ["a $1", "b $1", "c $1"]) {
      names.nameOf(text);
      names.nameOf(text);
    }
    expect(names.size).toBe(2);
    expect(names.nameOf("c $1")).toBeUndefined();
    expect(names.nameOf("a $1")).toBeDefined();
  });

  it("never names a bulk statement (an import batch's multi-row insert)", () => {
    const names = createStatementNames();
    const bulk = `insert into t values ${Array.from({ length: 3000 }, (_, i) => `($${i + 1})`).join(", ")}`;
    names.nameOf(bulk);
    expect(names.nameOf(bulk)).toBeUndefined();
  });
});
