// Where the server finds the files it applies and serves: the SQL migrations, the dashboard's build and the API
// reference's browser bundle, here as they lie in the repository. The server artifact (`npm run build`) swaps this
// module for resources-artifact.ts, which finds the same files beside its server.js.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type ServerResources = {
  /** drizzle's migrations folder (the SQL files and meta/_journal.json). */
  migrationsDir: string;
  /** The dashboard's build, served under /dashboard unless GATEHOUSE_DASHBOARD_DIR says otherwise. */
  dashboardDir: string;
  /** The script that starts the API reference on its page (routes/api-reference-init.js). */
  apiReferenceInit: string;
  /** Scalar's standalone browser bundle and its version (the version names the bundle's URL). */
  apiReference: () => { file: string; version: string };
};

// Paths from the module's path as a string: DOM test environments replace the global URL class.
const here = dirname(fileURLToPath(import.meta.url));

export const resources: ServerResources = {
  migrationsDir: join(here, "db", "migrations"),
  dashboardDir: join(here, "..", "..", "dashboard", "dist"),
  apiReferenceInit: join(here, "routes", "api-reference-init.js"),
  apiReference: () => {
    // The package's own folder, found through Node's resolution so a hoisted or nested install both work.
    const require = createRequire(import.meta.url);
    const dir = join(dirname(require.resolve("@scalar/api-reference")), "..");
    const { version } = require(join(dir, "package.json")) as { version: string };
    return { file: join(dir, "dist", "browser", "standalone.js"), version };
  },
};
