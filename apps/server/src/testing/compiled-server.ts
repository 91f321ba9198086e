// The server and the `gatehouse` CLI compiled once per test run, for the suites that start them as processes.
//
// Why: through tsx, each start of a server spent about 2 s more CPU than the compiled file (3.7 s against 1.6 s on
// PostgreSQL, measured on this 2-core machine), and the suites start a few hundred servers and CLI commands. Unlike
// the release artifact (scripts/build.ts), this build leaves every npm package outside the bundle, resolved from the
// repository's node_modules as in development, and takes under a second; only our own source is compiled. The
// suites that test the release artifact or `npm start` itself still run those.
import { rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const serverSrc = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Where the spawned servers and CLI commands find the compiled files (set by the global setup, read by the suites). */
export const COMPILED_SERVER_ENV = "GATEHOUSE_TEST_SERVER_BUNDLE";
export const COMPILED_CLI_ENV = "GATEHOUSE_TEST_CLI_BUNDLE";

// npm packages stay imports, resolved from node_modules at run time; our workspace packages are compiled from source.
const packagesOutside: Plugin = {
  name: "packages-outside",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@gatehouse/") ? undefined : { path: args.path, external: true },
    );
  },
};

// resources.ts finds migrations and the dashboard from its own location; compiled elsewhere, it is told the source's.
const resourcesAtSource: Plugin = {
  name: "resources-at-source",
  setup(b) {
    b.onLoad({ filter: /\/resources\.ts$/ }, async (args) => {
      if (args.path !== join(serverSrc, "resources.ts")) return undefined;
      const { readFile } = await import("node:fs/promises");
      const source = await readFile(args.path, "utf8");
      const located = source.replace("dirname(fileURLToPath(import.meta.url))", JSON.stringify(serverSrc));
      if (located === source)
        throw new Error("resources.ts no longer locates itself as compiled-server.ts expects");
      return { contents: located, loader: "ts" };
    });
  },
};

/** Compiles src/main.ts and src/cli/main.ts into `outDir` (inside the repository, so node_modules resolve). */
export async function buildCompiledServer(outDir: string): Promise<{ server: string; cli: string }> {
  await rm(outDir, { recursive: true, force: true });
  await build({
    entryPoints: { server: join(serverSrc, "main.ts"), cli: join(serverSrc, "cli", "main.ts") },
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20.19",
    conditions: ["gatehouse-source"],
    plugins: [packagesOutside, resourcesAtSource],
    sourcemap: "linked",
    logLevel: "warning",
  });
  return { server: join(outDir, "server.mjs"), cli: join(outDir, "cli.mjs") };
}
