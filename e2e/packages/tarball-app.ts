// A newcomer's app on the published packages: `npm run build:packages`, `npm pack` of @gatehouse/contract, sdk and
// react, and a fresh Vite + React app in a temporary folder outside the repository (no workspace) that installs the
// tarballs, type-checks against them, runs the SDK under plain node and is built and served by its own Vite.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freePort } from "@gatehouse/server/testing/server-process";

const run = promisify(execFile);
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const LIBRARIES = ["@gatehouse/contract", "@gatehouse/sdk", "@gatehouse/react"];

/**
 * The environment without npm's own variables: a test started by `npm test` inherits npm_config_* settings (the
 * workspace among them) that must not reach an install in a folder of its own.
 */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, ...extra };
}

async function npm(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run("npm", args, { cwd, env: plainEnv(), maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** The version the repository has installed for `name` (seen from e2e/), so the app's install comes from npm's cache. */
function repoVersion(name: string): string {
  for (let at = fileURLToPath(new URL(".", import.meta.url)); ; at = dirname(at)) {
    const manifest = join(at, "node_modules", name, "package.json");
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, "utf8")).version;
    if (dirname(at) === at) throw new Error(`${name} is not installed in the repository`);
  }
}

/** Builds the three libraries and packs them into a temporary folder; answers the tarballs' paths. */
export async function buildAndPack(): Promise<string[]> {
  await npm(repoRoot, ["run", "build:packages"]);
  const into = await mkdtemp(join(tmpdir(), "gatehouse-tarballs-"));
  await npm(repoRoot, ["pack", "--pack-destination", into, ...LIBRARIES.flatMap((name) => ["-w", name])]);
  return (await readdir(into)).filter((file) => file.endsWith(".tgz")).map((file) => join(into, file));
}

export type AppSettings = { baseUrl: string; projectId: string; publishableClientKey: string };

/** What the app's sources are: Stack's Vite setup (a provider, the handler on /handler/*, a home page). */
function appFiles(settings: AppSettings): Record<string, string> {
  return {
    "index.html": `<!doctype html>
<html lang="en"><head><meta charset="UTF-8" /><title>Gatehouse from npm</title></head>
<body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>
`,
    "vite.config.js": `import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
export default defineConfig({ plugins: [react()] });
`,
    "src/main.tsx": `import { StackClientApp, StackHandler, StackProvider, useUser } from "@gatehouse/react";
import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";

const app = new StackClientApp(${JSON.stringify({ ...settings, tokenStore: "cookie" })});

function Home() {
  const user = useUser();
  return <p id="home">{user ? \`Signed in as \${user.primaryEmail}\` : "Signed out"}</p>;
}

const path = window.location.pathname;
const root = document.getElementById("root");
if (!root) throw new Error("no #root");
createRoot(root).render(
  <StrictMode>
    <StackProvider app={app}>
      <Suspense fallback={<p>Loading…</p>}>
        {path.startsWith("/handler") ? <StackHandler app={app} fullPage /> : <Home />}
      </Suspense>
    </StackProvider>
  </StrictMode>,
);
`,
    // Plain node, no TypeScript: the SDK's dist as a Node back end imports it.
    "node-check.mjs": `import { StackClientApp } from "@gatehouse/sdk";
const app = new StackClientApp({ ...${JSON.stringify(settings)}, tokenStore: "memory" });
const email = process.argv[2];
const result = await app.signUpWithCredential({ email, password: "a node password 1", noRedirect: true, noVerificationCallback: true });
if (result.status === "error") throw new Error(result.error.code);
const user = await app.getUser({ or: "throw" });
console.log(JSON.stringify({ email: user.primaryEmail }));
`,
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        target: "ES2023",
        lib: ["ES2023", "DOM"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        jsx: "react-jsx",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      include: ["src"],
    }),
  };
}

/** Writes the app into a fresh temporary folder and installs the tarballs plus React and Vite (npm's cache first). */
export async function createApp(tarballs: string[], settings: AppSettings): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gatehouse-npm-app-"));
  const registry = ["react", "react-dom", "vite", "@vitejs/plugin-react", "@types/react", "@types/react-dom"];
  const manifest = {
    name: "gatehouse-npm-app",
    private: true,
    type: "module",
    dependencies: Object.fromEntries([
      // npm pack names @gatehouse/sdk's tarball gatehouse-sdk-<version>.tgz.
      ...LIBRARIES.map((name) => {
        const tarball = tarballs.find((path) =>
          basename(path).startsWith(`${name.slice(1).replace("/", "-")}-`),
        );
        if (!tarball) throw new Error(`no tarball for ${name} among ${tarballs.join(", ")}`);
        return [name, `file:${tarball}`];
      }),
      ...registry.map((name) => [name, repoVersion(name)]),
    ]),
  };
  await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [file, text] of Object.entries(appFiles(settings))) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  await npm(dir, ["install", "--prefer-offline", "--no-audit", "--no-fund"]);
  return dir;
}

/** tsc (the repository's TypeScript) over the app's sources: the packages' declarations resolve and fit. */
export async function typecheckApp(dir: string): Promise<void> {
  await run(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", dir], { cwd: dir });
}

/** Runs node-check.mjs under plain node: it signs `email` up through the SDK and prints the user's e-mail. */
export async function runNodeCheck(dir: string, email: string): Promise<{ email: string }> {
  const { stdout } = await run(process.execPath, ["node-check.mjs", email], { cwd: dir, env: plainEnv() });
  return JSON.parse(stdout);
}

/** `vite build` with the app's own Vite, for production (a test runner's NODE_ENV would give React's dev build). */
export async function buildApp(dir: string): Promise<void> {
  await run(process.execPath, [join(dir, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "error"], {
    cwd: dir,
    env: plainEnv({ NODE_ENV: "production" }),
  });
}

/** `vite preview` of the build on a free loopback port, once it answers; `close` ends that process. */
export async function serveApp(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(dir, "node_modules/vite/bin/vite.js"),
      "preview",
      "--host",
      "localhost",
      "--port",
      String(port),
      "--strictPort",
    ],
    { cwd: dir, env: plainEnv(), stdio: "ignore" },
  );
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`vite preview did not start on ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    url,
    close: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
