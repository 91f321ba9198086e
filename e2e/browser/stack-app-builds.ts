// The two apps of e2e/stack-apps/ made on Stack's published UI packages, built once per hash of their sources, the
// packages they are built with and the settings baked into them (the dashboard's build is cached the same way), and
// served on loopback: the Vite app's dist/ by a tiny static server, the Next.js app by `next start`.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@gatehouse/server/testing/server-process";
import { viteBuild } from "../../scripts/vite-build.ts";

export const reactViteRoot = fileURLToPath(new URL("../stack-apps/react-vite/", import.meta.url));
export const nextRoot = fileURLToPath(new URL("../stack-apps/next/", import.meta.url));

/** Where a build records the hash it was made from: a build whose hash differs is made again. */
const HASH_FILE = ".gatehouse-build-hash";
/** What a build leaves in the app's folder besides dist/: not part of what it is made of. */
const NOT_SOURCES = new Set(["node_modules", "dist", "next-env.d.ts"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => !NOT_SOURCES.has(name))
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : [path];
    });
}

/** The version of `name` that node resolves from `dir` (read from disk: some packages export no package.json). */
function installedVersion(dir: string, name: string): string {
  for (let at = dir; ; at = dirname(at)) {
    const manifest = join(at, "node_modules", name, "package.json");
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, "utf8")).version;
    if (dirname(at) === at) throw new Error(`${name} is not installed for ${dir}`);
  }
}

/** The hash of an app's sources, the versions of the packages named and the settings baked into its build. */
function buildHash(root: string, packages: string[], env: Record<string, string>): string {
  const hash = createHash("sha256");
  for (const file of sourceFiles(root)) hash.update(file.slice(root.length)).update(readFileSync(file));
  for (const name of packages) hash.update(`${name}@${installedVersion(root, name)}`);
  hash.update(JSON.stringify(Object.entries(env).sort()));
  return hash.digest("hex");
}

/** Runs `build` unless dist/ already holds a build of the same hash; answers whether it built. */
async function buildOnce(root: string, hash: string, build: () => Promise<void>): Promise<boolean> {
  const hashFile = join(root, "dist", HASH_FILE);
  if (existsSync(hashFile) && (await readFile(hashFile, "utf8")) === hash) return false;
  await build();
  await writeFile(hashFile, hash);
  return true;
}

/** The Vite app, built with its VITE_STACK_* settings into e2e/stack-apps/react-vite/dist/. */
export async function buildReactVite(env: Record<string, string>): Promise<boolean> {
  const hash = buildHash(reactViteRoot, ["@stackframe/react", "react-router-dom", "react", "vite"], env);
  return buildOnce(reactViteRoot, hash, () =>
    viteBuild({ root: reactViteRoot, outDir: join(reactViteRoot, "dist"), env }),
  );
}

/** Runs a command of an app's own (`next build`, `next start`) as a child process with NODE_ENV=production. */
function spawnNext(args: string[], env: Record<string, string>): ChildProcess & { output: () => string } {
  const nextBin = createRequire(join(nextRoot, "package.json")).resolve("next/dist/bin/next");
  // A test runner's NODE_ENV=test would give React's development build.
  const child = spawn(process.execPath, [nextBin, ...args], {
    cwd: nextRoot,
    env: { ...process.env, ...env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return Object.assign(child, { output: () => output });
}

/**
 * The Next.js app, built by `next build --turbopack` with its NEXT_PUBLIC_STACK_* settings into
 * e2e/stack-apps/next/dist/. Turbopack, not webpack: on a fresh clone (CI) the build is the suite's longest step, and
 * webpack's took 78 s (120 s of CPU) against Turbopack's 27 s (59 s) on two cores. What the suite tests is Stack's
 * packages speaking to our server from the pages Next serves, which the bundler does not change.
 */
export async function buildNext(env: Record<string, string>): Promise<boolean> {
  const hash = buildHash(nextRoot, ["@stackframe/stack", "next", "react"], env);
  return buildOnce(nextRoot, hash, async () => {
    const child = spawnNext(["build", "--turbopack"], env);
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${child.output()}`);
  });
}

export type ServedApp = { url: string; close: () => Promise<void> };

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};

/** Serves the Vite app's dist/ on loopback: a file where one exists, index.html for every route (a SPA). */
export async function serveReactVite(): Promise<ServedApp> {
  const dist = join(reactViteRoot, "dist");
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    const file = join(dist, path);
    const isFile = file.startsWith(dist) && existsSync(file) && statSync(file).isFile();
    const served = isFile ? file : join(dist, "index.html");
    res.writeHead(200, { "content-type": CONTENT_TYPES[extname(served)] ?? "application/octet-stream" });
    res.end(await readFile(served));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `next start` of the built Next.js app on a free port, once it answers; `close` ends that process. */
export async function startNext(env: Record<string, string>): Promise<ServedApp & { output: () => string }> {
  const port = await freePort();
  const child = spawnNext(["start", "--port", String(port), "--hostname", "127.0.0.1"], env);
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`next start did not start:\n${child.output()}`);
    }
    const answered = await fetch(`http://127.0.0.1:${port}/_next/static/not-there`).then(
      () => true,
      () => false,
    );
    if (answered) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    output: child.output,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
