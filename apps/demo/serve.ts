// Builds the demo for one Gatehouse server and project, and serves the build (with the single-page fallback, so
// /protected and /handler/* load the app). Tests and the root `npm start` use it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { preview } from "vite";
import { viteBuild } from "../../scripts/vite-build.ts";
import { type DemoSettings, demoConfig, demoRoot } from "./vite.config.ts";

export type StartDemoOptions = DemoSettings & { port: number };

export type RunningDemo = {
  /** The demo's origin, without a trailing slash. */
  url: string;
  close(): Promise<void>;
};

export async function startDemo({ port, ...settings }: StartDemoOptions): Promise<RunningDemo> {
  // A build per call: the settings are baked into the bundle, and concurrent demos must not share a folder.
  return serveDemo(port, settings, (outDir) => buildDemo(outDir, settings));
}

/** A build of the demo for `settings` into `outDir`. */
export function buildDemo(outDir: string, settings: DemoSettings): Promise<void> {
  return viteBuild({
    root: demoRoot,
    outDir,
    env: {
      GATEHOUSE_URL: settings.gatehouseUrl,
      GATEHOUSE_PROJECT_ID: settings.projectId,
      GATEHOUSE_PUBLISHABLE_CLIENT_KEY: settings.publishableClientKey ?? "",
    },
  });
}

/**
 * Serves a demo build for these settings at `port`: `fill` writes the build into a fresh folder, which closing the
 * demo removes (the tests fill it with a copy of their run's shared build, e2e/browser/demo-build.ts).
 */
export async function serveDemo(
  port: number,
  settings: DemoSettings,
  fill: (outDir: string) => Promise<void>,
): Promise<RunningDemo> {
  const outDir = await mkdtemp(join(tmpdir(), "gatehouse-demo-"));
  try {
    await fill(outDir);
    const server = await preview({
      ...demoConfig(settings),
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
