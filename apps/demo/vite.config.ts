// The demo's Vite configuration: React, and the Gatehouse settings baked in at build time as `__GATEHOUSE__`.
// `npm run dev` / `npm run build` read them from the environment; serve.ts passes them in.
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig, type InlineConfig } from "vite";

export type DemoSettings = {
  /** Where the Gatehouse server answers (its API is under /api/v1). */
  gatehouseUrl: string;
  projectId: string;
  publishableClientKey?: string;
};

/** The demo's folder, so builds work from any working directory. */
export const demoRoot = fileURLToPath(new URL(".", import.meta.url));

export function demoConfig(settings: DemoSettings): InlineConfig {
  return {
    root: demoRoot,
    configFile: false,
    appType: "spa",
    plugins: [react()],
    // The workspace packages are bundled from their TypeScript source (the "gatehouse-source" condition), not dist/.
    resolve: { conditions: ["gatehouse-source", ...defaultClientConditions] },
    define: { __GATEHOUSE__: JSON.stringify(settings) },
  };
}

export default defineConfig(
  demoConfig({
    gatehouseUrl: process.env.GATEHOUSE_URL ?? "http://localhost:8102",
    projectId: process.env.GATEHOUSE_PROJECT_ID ?? "demo",
    publishableClientKey: process.env.GATEHOUSE_PUBLISHABLE_CLIENT_KEY || undefined,
  }),
);
