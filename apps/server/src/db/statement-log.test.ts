import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchStatementLog, bothObservers } from "./statement-log.ts";

describe("bench statement log", () => {
  it("is off unless GATEHOUSE_BENCH_STATEMENT_LOG is set", () => {
    expect(benchStatementLog({})).toBeUndefined();
  });

  it("appends each statement as one line", () => {
    const path = join(mkdtempSync(join(tmpdir(), "statements-")), "log.sql");
    const observe = benchStatementLog({ GATEHOUSE_BENCH_STATEMENT_LOG: path });
    observe?.("select 1\n  from users")();
    observe?.("commit")();
    expect(readFileSync(path, "utf8")).toBe("select 1 from users\ncommit\n");
  });

  it("reports a query to both observers, and to the one present when the other is absent", () => {
    const seen: string[] = [];
    const observer = (label: string) => (text: string) => {
      seen.push(`${label} ${text}`);
      return (error?: unknown) => void seen.push(`${label} end ${error ?? "ok"}`);
    };
    bothObservers(observer("a"), observer("b"))?.("select 1")("boom");
    expect(seen).toEqual(["a select 1", "b select 1", "a end boom", "b end boom"]);
    expect(bothObservers(undefined, undefined)).toBeUndefined();
    const only = observer("c");
    expect(bothObservers(undefined, only)).toBe(only);
  });
});
