// Client bundle sizes (`npm run bench:sdk-size`): a tiny browser entry that creates a client app and reads the
// user, bundled with esbuild (minified ESM for browsers, nothing external) once against @gatehouse/sdk and once
// against Stack Auth's @stackframe/js, in the same run; and an app's React entry (provider, handler pages, useUser)
// against @gatehouse/react and @stackframe/react, with React itself external (the app has it anyway). Counts what a
// page loads first (the entry chunk and the chunks it imports; each file gzipped on its own, as a server sends it)
// and, apart, the chunks loaded on use (the React pages' other languages apart again: one loads only in that
// language). Prints the sizes, the SDK's goals (ours at most a third of theirs; issue 24:
// 12 KB) and the biggest inputs of our SDK's first load, as markdown for bench/README.md. Ours is bundled from
// source (the gatehouse-source condition).
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";

const OURS = "@gatehouse/sdk";
const THEIRS = "@stackframe/js";
const OURS_REACT = "@gatehouse/react";
const THEIRS_REACT = "@stackframe/react";
/** What a React app brings itself: not counted in either React package's size. */
const REACT_EXTERNALS = ["react", "react-dom", "react/jsx-runtime", "react-dom/client"];
const GOAL = 1 / 3;
/** Issue 24's goal for the client SDK's first load: 12 KB min+gzip (KB of 1000 bytes, as the issues count them). */
const GZIP_GOAL = 12_000;
const TOP_INPUTS = 10;

/** The same entry for both SDKs: what an app does first in a browser. */
const entry = (sdk: string) =>
  `import { StackClientApp } from "${sdk}";\n` +
  `new StackClientApp({ projectId: "p", publishableClientKey: "k", tokenStore: "cookie" }).getUser();\n`;

/** The React entry, the same for both: the app, the provider and the handler pages an app mounts, and useUser. */
const reactEntry = (pkg: string) =>
  `import { StackClientApp, StackHandler, StackProvider, useUser } from "${pkg}";\n` +
  `export const app = new StackClientApp({ projectId: "p", publishableClientKey: "k", tokenStore: "cookie" });\n` +
  "export { StackHandler, StackProvider, useUser };\n";

type Bundle = {
  sdk: string;
  version: string;
  /** How many files a page loads first. */
  files: number;
  raw: number;
  gzip: number;
  /** Chunks loaded on use, the locale tables aside. */
  lazyGzip: number;
  /** The locale tables' chunks (each loaded only for its language): all together and the largest. */
  localeGzip: number;
  localeMaxGzip: number;
  metafile: Metafile;
  initial: Set<string>;
};

/**
 * What a browser loads on first use: the entry chunk and every chunk it imports statically. Chunks reached only by
 * import() (the admin app that an internal-project user's owned projects load) are split off, as any app bundler
 * (Vite, Next) splits them, and counted apart as `lazy`.
 */
async function bundle(sdk: string, contents = entry(sdk), external: string[] = []): Promise<Bundle> {
  const dir = mkdtempSync(join(tmpdir(), "sdk-size-"));
  const entryFile = join(dir, "entry.js");
  writeFileSync(entryFile, contents);
  try {
    const result = await build({
      entryPoints: [entryFile],
      // The entry imports the package by name: resolve it from here, where the workspace has it.
      nodePaths: [join(import.meta.dirname, "node_modules"), join(import.meta.dirname, "..", "node_modules")],
      bundle: true,
      splitting: true,
      outdir: join(dir, "out"),
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      metafile: true,
      external,
      // Our packages from their TypeScript source, as the workspace resolves them (no build of dist/ needed).
      conditions: ["gatehouse-source"],
      logLevel: "warning",
    });
    const files = new Map(result.outputFiles.map((f) => [relative(process.cwd(), f.path), f.contents]));
    const initial = new Set<string>();
    const visit = (path: string) => {
      if (initial.has(path)) return;
      initial.add(path);
      for (const imported of result.metafile.outputs[path]?.imports ?? []) {
        if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
      }
    };
    // Every chunk reached by import() names its module as entryPoint too (a locale table, say): the entry chunk is the
    // one whose entryPoint is our entry file.
    const entryReal = realpathSync(entryFile);
    const entryOutput = Object.entries(result.metafile.outputs).find(
      ([, o]) => o.entryPoint && realpathSync(resolve(o.entryPoint)) === entryReal,
    );
    if (!entryOutput) throw new Error(`${sdk}: esbuild produced no entry chunk`);
    visit(entryOutput[0]);
    // Each file is compressed on its own, as a server sends it: the sum is what the browser transfers.
    const sizes = (paths: string[]) => {
      const chunks = paths.filter((p) => p.endsWith(".js")).map((p) => files.get(p) ?? new Uint8Array());
      return {
        files: chunks.length,
        raw: chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0),
        gzip: chunks.reduce((sum, chunk) => sum + gzipSync(chunk, { level: 9 }).byteLength, 0),
      };
    };
    const first = sizes([...initial]);
    const isLocale = (path: string) =>
      /\/locales\/[^/]+\.ts$/.test(result.metafile.outputs[path]?.entryPoint ?? "");
    const later = [...files.keys()].filter((p) => !initial.has(p));
    const lazy = sizes(later.filter((p) => !isLocale(p)));
    const locales = later.filter(isLocale).map((p) => sizes([p]).gzip);
    return {
      sdk,
      version: versionOf(sdk),
      ...first,
      lazyGzip: lazy.gzip,
      localeGzip: locales.reduce((sum, size) => sum + size, 0),
      localeMaxGzip: Math.max(0, ...locales),
      metafile: result.metafile,
      initial,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The installed version: the nearest package.json above the file the package name resolves to. */
function versionOf(sdk: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(sdk));
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
}

/** The inputs that put the most bytes into the (minified) output, biggest first. */
function biggestInputs({ metafile, initial }: Bundle): { path: string; bytes: number }[] {
  const loaded = Object.entries(metafile.outputs).filter(([path]) => initial.has(path));
  const inputs = loaded.flatMap(([, output]) =>
    Object.entries(output.inputs).map(([path, input]) => ({ path, bytes: input.bytesInOutput })),
  );
  return inputs.sort((a, b) => b.bytes - a.bytes).slice(0, TOP_INPUTS);
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

async function main() {
  const ours = await bundle(OURS);
  const theirs = await bundle(THEIRS);

  console.log(
    `esbuild: minified esm, browser, es2022, split at import(); sizes of what a page loads first (the entry and the chunks it imports), each file gzipped on its own at level 9; Node ${process.version}\n`,
  );
  console.log("| bundle | files | raw bytes | gzip bytes | loaded later (gzip) |\n|---|---|---|---|---|");
  for (const b of [ours, theirs])
    console.log(`| ${b.sdk} ${b.version} | ${b.files} | ${b.raw} | ${b.gzip} | ${b.lazyGzip} |`);
  const rawRatio = ours.raw / theirs.raw;
  const gzipRatio = ours.gzip / theirs.gzip;
  console.log(`| ours / theirs | | ${percent(rawRatio)} | ${percent(gzipRatio)} |`);
  const verdict = (met: boolean) => (met ? "met" : "missed");
  console.log(
    `\ngoal: ours ≤ 33 % of theirs — raw ${verdict(rawRatio <= GOAL)}, gzip ${verdict(gzipRatio <= GOAL)}; ` +
      `issue 24: ours ≤ ${GZIP_GOAL} gzip bytes — ${verdict(ours.gzip <= GZIP_GOAL)}`,
  );

  const oursReact = await bundle(OURS_REACT, reactEntry(OURS_REACT), REACT_EXTERNALS);
  const theirsReact = await bundle(THEIRS_REACT, reactEntry(THEIRS_REACT), REACT_EXTERNALS);
  console.log(
    "\nReact packages, measured the same way (provider, handler pages, useUser; react and react-dom external):\n",
  );
  console.log(
    "| bundle | files | raw bytes | gzip bytes | loaded later (gzip) | other languages (gzip: all, largest) |\n|---|---|---|---|---|---|",
  );
  for (const b of [oursReact, theirsReact])
    console.log(
      `| ${b.sdk} ${b.version} | ${b.files} | ${b.raw} | ${b.gzip} | ${b.lazyGzip} | ${b.localeGzip}, ${b.localeMaxGzip} |`,
    );
  console.log(
    `| ours / theirs | | ${percent(oursReact.raw / theirsReact.raw)} | ${percent(oursReact.gzip / theirsReact.gzip)} |`,
  );

  console.log(`\nBiggest inputs of the ${OURS} first load (bytes in the minified output):\n`);
  console.log("| input | bytes | share |\n|---|---|---|");
  for (const input of biggestInputs(ours)) {
    console.log(
      `| ${input.path.replace(/^\.\.\//, "")} | ${input.bytes} | ${percent(input.bytes / ours.raw)} |`,
    );
  }
}

await main();
