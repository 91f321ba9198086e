// Builds the demo for one Gatehouse server and project, and serves the build (with the single-page fallback, so
// /protected and /handler/* load the app). Tests and the root `npm start` use it.

import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { preview } from "vite";
import { type DemoSettings, demoConfig, demoRoot } from "./vite.config.ts";

export type StartDemoOptions = DemoSettings & { port: number };

export type RunningDemo = {
  /** The demo's origin, without a trailing slash. */
  url: string;
  close(): Promise<void>;
};

export async function startDemo({ port, ...settings }: StartDemoOptions): Promise<RunningDemo> {
  const config = demoConfig(settings);
  // A build per call: the settings are baked into the bundle, and concurrent demos must not share a folder.
  const outDir = await mkdtemp(join(tmpdir(), "gatehouse-demo-"));
  try {
    await buildInChild(settings, outDir);
    const server = await preview({
      ...config,
      logLevel: "error",
      build: { outDir },
      preview: { port, strictPort: true, host: "localhost" },
    });
    const url = (server.resolvedUrls?.local[0] ?? `http://localhost:${port}/`).replace(/\/+$/, "");
    return {
      url,
      close: async () => {
        await server.close();
        await rm(outDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(outDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * `vite build` in a process of its own with NODE_ENV=production: a caller's NODE_ENV ("test" under a test runner)
 * would otherwise give React's development build and JSX runtime. The settings reach vite.config.ts as variables.
 */
function buildInChild(settings: DemoSettings, outDir: string): Promise<void> {
  const viteBin = join(
    dirname(createRequire(import.meta.url).resolve("vite/package.json")),
    "bin",
    "vite.js",
  );
  const child = spawn(process.execPath, [viteBin, "build", "--logLevel", "error", "--outDir", outDir], {
    cwd: demoRoot,
    env: {
      ...process.env,
      NODE_ENV: "production",
      GATEHOUSE_URL: settings.gatehouseUrl,
      GATEHOUSE_PROJECT_ID: settings.projectId,
      GATEHOUSE_PUBLISHABLE_CLIENT_KEY: settings.publishableClientKey ?? "",
    },
    stdio: ["ignore", "inherit", "pipe"],
  });
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`The demo build failed (exit ${code}):\n${errors}`)),
    );
  });
}
