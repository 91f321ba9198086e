// The compact status/parent table and the per-code catalogue: errors rebuilt from the wire keep status and
// ancestry without the catalogue, and a bundle that names no entry carries no message (what keeps client SDKs small).
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { knownErrorIs } from "./known-error.ts";
import { statusOf } from "./known-error-status.ts";
import { ancestorsOf } from "./known-error-table.ts";
import { define, KnownErrors, knownErrorFromWire } from "./known-errors.ts";

// Contract has no Node types (it runs anywhere); the test itself runs on Node, which sets import.meta.dirname.
const here = (import.meta as unknown as { dirname: string }).dirname;

/** Minified browser bundle of `code`, importing from this folder as a client SDK would. */
async function bundle(code: string): Promise<string> {
  const result = await build({
    stdin: {
      contents: code,
      resolveDir: here,
      loader: "ts",
    },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

describe("known-error table", () => {
  it("gives every catalogue code the status and parents its factory has", () => {
    for (const [code, factory] of Object.entries(KnownErrors)) {
      expect(statusOf(code)).toBe(factory.status);
      expect(ancestorsOf(code)[0]).toBe(factory.parent);
    }
  });

  it("rebuilds a wire error with its ancestry, and an unknown code with none", () => {
    const e = knownErrorFromWire(401, { code: "ACCESS_TOKEN_EXPIRED", message: "expired" });
    expect([e.status, e.message]).toEqual([401, "expired"]);
    expect(knownErrorIs(e, "INVALID_ACCESS_TOKEN")).toBe(true);
    expect(knownErrorIs(e, "SESSION_AUTHENTICATION_ERROR")).toBe(true);
    expect(statusOf("NOT_A_CODE")).toBeUndefined();
    expect(knownErrorFromWire(418, { code: "NOT_A_CODE" }).ancestors).toEqual([]);
  });

  it("refuses an entry the table has no status for", () => {
    expect(() => define("NOT_A_CODE", { message: () => "x" })).toThrow(/no status/);
  });

  it("leaves every message out of a bundle that only rebuilds errors from the wire", async () => {
    const js = await bundle(
      'import { knownErrorFromWire, statusOf } from "./known-errors.ts";\nconsole.log(knownErrorFromWire, statusOf);',
    );
    expect(js).toContain("ACCESS_TOKEN_EXPIRED");
    expect(js).not.toContain("Analytics is not enabled");
    expect(js).not.toContain("User authentication required");
  });

  it("ships only the entries a bundle names", async () => {
    const js = await bundle(
      'import { ANALYTICS_NOT_ENABLED } from "./known-errors.ts";\nconsole.log(ANALYTICS_NOT_ENABLED());',
    );
    expect(js).toContain("Analytics is not enabled");
    expect(js).not.toContain("Failed to rewrite template source");
  });
});
