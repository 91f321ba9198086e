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
  const config = demoConfig(settings);
  // A build per call: the settings are baked into the bundle, and concurrent demos must not share a folder.
  const outDir = await mkdtemp(join(tmpdir(), "gatehouse-demo-"));
  try {
    await viteBuild({
      root: demoRoot,
      outDir,
      env: {
        GATEHOUSE_URL: settings.gatehouseUrl,
        GATEHOUSE_PROJECT_ID: settings.projectId,
        GATEHOUSE_PUBLISHABLE_CLIENT_KEY: settings.publishableClientKey ?? "",
      },
    });
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
