// Building the dashboard into dist/, which the server serves under /dashboard (GATEHOUSE_DASHBOARD_DIR). `npm start`
// builds it when dist/ is missing or older than the sources it is made of; tests build it into a folder of their own.
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { viteBuild } from "../../scripts/vite-build.ts";

export const dashboardRoot = dirname(fileURLToPath(import.meta.url));
export const dashboardDist = join(dashboardRoot, "dist");

/** What the bundle is made of: the dashboard's sources and the packages it bundles. */
const SOURCES = [
  join(dashboardRoot, "src"),
  join(dashboardRoot, "index.html"),
  join(dashboardRoot, "vite.config.ts"),
  join(dashboardRoot, "../../packages/react/src"),
  join(dashboardRoot, "../../packages/sdk/src"),
  join(dashboardRoot, "../../packages/contract/src"),
];

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

/** True when dist/ has no build, or a source changed after it was built. */
export function dashboardNeedsBuild(): boolean {
  const built = join(dashboardDist, "index.html");
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.some((source) => newestChange(source) > builtAt);
}

export function buildDashboard(outDir = dashboardDist): Promise<void> {
  return viteBuild({ root: dashboardRoot, outDir });
}
