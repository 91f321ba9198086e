// The dashboard's Vite configuration: a static build under /dashboard/ that the Gatehouse server serves
// (apps/server: GATEHOUSE_DASHBOARD_DIR, default this folder's dist/). It talks to the server that serves it.
import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";

export default defineConfig({
  base: "/dashboard/",
  plugins: [react()],
  // The workspace packages are bundled from their TypeScript source (the "gatehouse-source" condition), not dist/.
  resolve: { conditions: ["gatehouse-source", ...defaultClientConditions] },
  build: { outDir: "dist", emptyOutDir: true },
});
