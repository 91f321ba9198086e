// `npm run build`: the server artifact in dist/ (or the folder given with --out): the server bundled into one
// server.js (compiled JavaScript, nothing to transform at start), its SQL migrations, the built dashboard, the API
// reference's browser bundle, and a package.json with lockfile for the few packages a bundle cannot hold.
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { buildDashboard } from "../apps/dashboard/build.ts";
import { artifactLock } from "./artifact-lockfile.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const serverDir = join(repoRoot, "apps", "server");

/**
 * Installed beside server.js rather than bundled: argon2's native binary (a package per platform), PGlite's wasm and
 * data files (loaded from its own folder), and pg, whose optional pg-native a bundler cannot leave out cleanly.
 */
export const RUNTIME_PACKAGES = ["@electric-sql/pglite", "@node-rs/argon2", "pg"];

/** The artifact's module of file locations (resources-artifact.ts) in place of the repository's (resources.ts). */
const artifactResources: Plugin = {
  name: "artifact-resources",
  setup(b) {
    // Only the server's own src/resources.ts: other modules of that name (sso/scim/resources.ts) stay themselves.
    b.onResolve({ filter: /\/resources\.ts$/ }, (args) =>
      resolve(args.resolveDir, args.path) === join(serverDir, "src", "resources.ts")
        ? { path: join(serverDir, "src", "resources-artifact.ts") }
        : undefined,
    );
  },
};

/**
 * PGlite loads only when the server opens an embedded database. Our code imports PGlite and drizzle's PGlite driver
 * dynamically (db/client.ts), but the driver's own modules import PGlite statically, and a bundle hoists the imports
 * of an external package to its top: on PostgreSQL the artifact loaded PGlite at every start. So the driver's imports
 * of PGlite go through a module that imports it when the driver itself is first loaded (an await inside the driver's
 * lazily run module body); the driver uses what it imports only when it is called. The start-up imports test runs
 * the artifact and fails if PGlite is loaded again at start.
 */
const PGLITE = "@electric-sql/pglite";
const pgliteWhenUsed: Plugin = {
  name: "pglite-when-used",
  setup(b) {
    b.onResolve({ filter: /^@electric-sql\/pglite$/ }, (args) =>
      /[/\\]drizzle-orm[/\\]pglite[/\\]/.test(args.importer)
        ? { path: PGLITE, namespace: "pglite-when-used" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "pglite-when-used" }, () => ({
      contents: `export const { PGlite, types } = await import(${JSON.stringify(PGLITE)});`,
      loader: "js",
    }));
  },
};

export async function buildServerArtifact(outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(join(outDir, "static"), { recursive: true });
  const serverRequire = createRequire(join(serverDir, "package.json"));
  const scalarDir = join(dirname(serverRequire.resolve("@scalar/api-reference")), "..");
  const scalar = JSON.parse(await readFile(join(scalarDir, "package.json"), "utf8")) as { version: string };

  await build({
    entryPoints: [join(serverDir, "src", "main.ts")],
    outfile: join(outDir, "server.js"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20.19",
    external: [...RUNTIME_PACKAGES, "pg-native"],
    // Our workspace packages are bundled from their source, not from a dist/ that may not be built.
    conditions: ["gatehouse-source"],
    plugins: [artifactResources, pgliteWhenUsed],
    // Whitespace and syntax only: class names stay, since the log names an error by its class.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: "linked",
    // React's production build for the server-rendered pages; the server's own NODE_ENV is read from the
    // environment object at start (config.ts), which this replacement does not touch.
    define: {
      "process.env.NODE_ENV": '"production"',
      GATEHOUSE_API_REFERENCE_VERSION: JSON.stringify(scalar.version),
    },
    // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
    banner: {
      js: 'import { createRequire as __gatehouseRequire } from "node:module";\nconst require = __gatehouseRequire(import.meta.url);',
    },
    logLevel: "warning",
  });

  await cp(join(serverDir, "src", "db", "migrations"), join(outDir, "migrations"), { recursive: true });
  await cp(join(scalarDir, "dist", "browser", "standalone.js"), join(outDir, "static", "api-reference.js"));
  const init = join(serverDir, "src", "routes", "api-reference-init.js");
  await cp(init, join(outDir, "static", "api-reference-init.js"));
  await buildDashboard(join(outDir, "dashboard"));

  const server = JSON.parse(await readFile(join(serverDir, "package.json"), "utf8")) as { version: string };
  const { dependencies, lockfile } = artifactLock(
    repoRoot,
    "apps/server",
    RUNTIME_PACKAGES,
    "gatehouse-server",
  );
  const manifest = {
    name: "gatehouse-server",
    version: server.version,
    private: true,
    type: "module",
    engines: { node: ">=20.19" },
    scripts: { start: "node server.js" },
    dependencies,
  };
  await writeFile(join(outDir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(outDir, "package-lock.json"), `${JSON.stringify(lockfile, null, 2)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--out");
  const outDir = resolve(at === -1 ? join(repoRoot, "dist") : (process.argv[at + 1] ?? "dist"));
  const started = performance.now();
  await buildServerArtifact(outDir);
  process.stdout.write(
    `Server artifact built in ${outDir} (${((performance.now() - started) / 1000).toFixed(1)} s).\n` +
      "Run it: cd into it, `npm ci --omit=dev`, then `node server.js`.\n",
  );
}
