// What a browser app bundles of the client SDK: none of zod's schemas. One value import from the contract's root
// (rather than a zod-free subpath) once brought them in and took the first load from 17 KB to 111 KB gzip.
import { build } from "esbuild";
import { expect, it } from "vitest";

// The test runs on Node, which sets import.meta.dirname; the SDK's own types do not know it.
const here = (import.meta as unknown as { dirname: string }).dirname;

it("bundles StackClientApp for the browser without zod", async () => {
  const result = await build({
    stdin: {
      contents: `import { StackClientApp } from "./index.ts";
        new StackClientApp({ projectId: "p", publishableClientKey: "k", tokenStore: "cookie" });`,
      resolveDir: here,
      loader: "ts",
    },
    bundle: true,
    splitting: true,
    outdir: "out",
    format: "esm",
    platform: "browser",
    conditions: ["gatehouse-source"],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.some((path) => path.includes("packages/contract/src/claim-names.ts"))).toBe(true);
  expect(inputs.filter((path) => /node_modules\/zod\//.test(path))).toEqual([]);
});
