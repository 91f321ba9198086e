// What a browser app bundles of the client SDK: none of zod's schemas. One value import from the contract's root
// (rather than a zod-free subpath) once brought them in and took the first load from 17 KB to 111 KB gzip.
import { gzipSync } from "node:zlib";
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

/**
 * What a browser loads first for `new StackClientApp(…).getUser()`, measured as `npm run bench:sdk-size` does: minified
 * ESM for es2022, split at import(), the entry chunk and the chunks it imports statically, each gzipped on its own.
 */
async function firstLoad(): Promise<{ gzip: number; text: string }> {
  const result = await build({
    stdin: {
      contents: `import { StackClientApp } from "./index.ts";
        new StackClientApp({ projectId: "p", publishableClientKey: "k", tokenStore: "cookie" }).getUser();`,
      resolveDir: here,
      loader: "ts",
      sourcefile: "first-load-entry.ts",
    },
    bundle: true,
    splitting: true,
    minify: true,
    outdir: "out",
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions: ["gatehouse-source"],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((path) =>
    outputs[path]?.entryPoint?.endsWith("first-load-entry.ts"),
  );
  if (!entry) throw new Error("esbuild produced no entry chunk");
  const first = new Set<string>();
  const visit = (path: string) => {
    if (first.has(path)) return;
    first.add(path);
    for (const imported of outputs[path]?.imports ?? [])
      if (imported.kind === "import-statement") visit(imported.path);
  };
  visit(entry);
  const files = result.outputFiles.filter((file) => [...first].some((path) => file.path.endsWith(path)));
  return {
    gzip: files.reduce((sum, file) => sum + gzipSync(file.contents, { level: 9 }).byteLength, 0),
    text: files.map((file) => file.text).join("\n"),
  };
}

// Issue 24 asks for 12 KB (min+gzip); the first load was 17.6 KB, 16.4 KB once the status column and the owned-project
// calls moved out, and 11.95 KB since the user's calls, the app's payments and the sign-in paths beyond the password
// load on use (flows.ts). The ceiling is issue 24's goal, just above where it stands, so any growth fails here.
const FIRST_LOAD_CEILING = 12_000;

it(`keeps the client's first load under ${FIRST_LOAD_CEILING} bytes gzip, without the admin app, the status column or the calls loaded on use`, async () => {
  const { gzip, text } = await firstLoad();
  // The admin app's and the server app's calls, and the catalogue's status column (REDIS_UNAVAILABLE is only there).
  expect(text.includes("/internal/projects/current"), "the admin app is in the first load").toBe(false);
  expect(text.includes("REDIS_UNAVAILABLE"), "the status column is in the first load").toBe(false);
  // The calls that load on use: the user's and its teams' (current-user-calls.ts, teams.ts), the sign-in paths beyond
  // the password (client-flows.ts).
  expect(text.includes("/team-member-profiles"), "the user's calls are in the first load").toBe(false);
  expect(text.includes("/auth/mfa/sign-in"), "the sign-in flows are in the first load").toBe(false);
  expect(gzip).toBeLessThanOrEqual(FIRST_LOAD_CEILING);
}, 30_000);
