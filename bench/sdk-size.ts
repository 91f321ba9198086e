// Client bundle sizes (`npm run bench:sdk-size`): a tiny browser entry that creates a client app and reads the
// user, bundled with esbuild (minified ESM for browsers, nothing external) once against @gatehouse/sdk and once
// against Stack Auth's @stackframe/js, in the same run; and an app's React entry (provider, handler pages, useUser)
// against @gatehouse/react and @stackframe/react, with React itself external (the app has it anyway). Prints raw
// and gzip sizes, the SDK's ratio against its goal (ours at most a third of theirs) and the biggest inputs of our
// SDK bundle, as markdown for bench/README.md. Ours is bundled from source (the gatehouse-source condition).
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";

const OURS = "@gatehouse/sdk";
const THEIRS = "@stackframe/js";
const OURS_REACT = "@gatehouse/react";
const THEIRS_REACT = "@stackframe/react";
/** What a React app brings itself: not counted in either React package's size. */
const REACT_EXTERNALS = ["react", "react-dom", "react/jsx-runtime", "react-dom/client"];
const GOAL = 1 / 3;
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

type Bundle = { sdk: string; version: string; raw: number; gzip: number; metafile: Metafile };

async function bundle(sdk: string, contents = entry(sdk), external: string[] = []): Promise<Bundle> {
  const result = await build({
    stdin: { contents, resolveDir: import.meta.dirname, sourcefile: "entry.js", loader: "js" },
    bundle: true,
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
  const output = result.outputFiles[0];
  if (!output) throw new Error(`${sdk}: esbuild produced no output`);
  return {
    sdk,
    version: versionOf(sdk),
    raw: output.contents.byteLength,
    gzip: gzipSync(output.contents, { level: 9 }).byteLength,
    metafile: result.metafile,
  };
}

/** The installed version: the nearest package.json above the file the package name resolves to. */
function versionOf(sdk: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(sdk));
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
}

/** The inputs that put the most bytes into the (minified) output, biggest first. */
function biggestInputs(metafile: Metafile): { path: string; bytes: number }[] {
  const inputs = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs).map(([path, input]) => ({ path, bytes: input.bytesInOutput })),
  );
  return inputs.sort((a, b) => b.bytes - a.bytes).slice(0, TOP_INPUTS);
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

async function main() {
  const ours = await bundle(OURS);
  const theirs = await bundle(THEIRS);

  console.log(`esbuild: minified esm bundle, browser, es2022; gzip level 9; Node ${process.version}\n`);
  console.log("| bundle | raw bytes | gzip bytes |\n|---|---|---|");
  for (const b of [ours, theirs]) console.log(`| ${b.sdk} ${b.version} | ${b.raw} | ${b.gzip} |`);
  const rawRatio = ours.raw / theirs.raw;
  const gzipRatio = ours.gzip / theirs.gzip;
  console.log(`| ours / theirs | ${percent(rawRatio)} | ${percent(gzipRatio)} |`);
  const verdict = (ratio: number) => (ratio <= GOAL ? "met" : "missed");
  console.log(`\ngoal: ours ≤ 33 % of theirs — raw ${verdict(rawRatio)}, gzip ${verdict(gzipRatio)}`);

  const oursReact = await bundle(OURS_REACT, reactEntry(OURS_REACT), REACT_EXTERNALS);
  const theirsReact = await bundle(THEIRS_REACT, reactEntry(THEIRS_REACT), REACT_EXTERNALS);
  console.log("\nReact packages (provider, handler pages, useUser; react and react-dom external):\n");
  console.log("| bundle | raw bytes | gzip bytes |\n|---|---|---|");
  for (const b of [oursReact, theirsReact]) console.log(`| ${b.sdk} ${b.version} | ${b.raw} | ${b.gzip} |`);
  console.log(
    `| ours / theirs | ${percent(oursReact.raw / theirsReact.raw)} | ${percent(oursReact.gzip / theirsReact.gzip)} |`,
  );

  console.log(`\nBiggest inputs of the ${OURS} bundle (bytes in the minified output):\n`);
  console.log("| input | bytes | share |\n|---|---|---|");
  for (const input of biggestInputs(ours.metafile)) {
    console.log(`| ${input.path} | ${input.bytes} | ${percent(input.bytes / ours.raw)} |`);
  }
}

await main();
