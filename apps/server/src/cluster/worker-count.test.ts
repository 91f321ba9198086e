// workerCount: what GATEHOUSE_WORKERS gives on PostgreSQL (any number, auto = the cores) and on PGlite (one, said).
import { describe, expect, it } from "vitest";
import { workerCount } from "./worker-count.ts";

describe("workerCount", () => {
  it("runs the number asked for on PostgreSQL, and one per core for auto", () => {
    expect(workerCount(3, true, 2)).toEqual({ count: 3 });
    expect(workerCount("auto", true, 8)).toEqual({ count: 8 });
    expect(workerCount("auto", true, 0)).toEqual({ count: 1 });
    expect(workerCount(1, true, 8)).toEqual({ count: 1 });
  });

  it("runs one process on PGlite and says why, whatever was asked", () => {
    const asked = workerCount(4, false, 2);
    expect(asked.count).toBe(1);
    expect(asked.warning).toMatch(
      /GATEHOUSE_WORKERS=4 asks for 4 processes.*PGlite.*one process.*DATABASE_URL/,
    );
    expect(workerCount("auto", false, 2)).toMatchObject({
      count: 1,
      warning: expect.stringContaining("auto"),
    });
    // Nothing to say when one was asked for (or auto on one core).
    expect(workerCount(1, false, 8)).toEqual({ count: 1 });
    expect(workerCount("auto", false, 1)).toEqual({ count: 1 });
  });
});
