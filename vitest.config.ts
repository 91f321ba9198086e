// Every test runs on PGlite; the database suites (server and e2e) run again on PostgreSQL when DATABASE_URL is set.
import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

const globalSetup = ["apps/server/src/testing/global-setup.ts"];
const databaseSuites = ["apps/server/src/**/*.test.ts", "e2e/**/*.test.ts"];
// Stack's own UI and our packed packages against our server: what they test is the wire and the packages, not the
// database, so one run (PGlite) is enough (and two runs would build the same dist/ folders at once).
const uiOnly = ["e2e/browser/stack-*.test.ts", "e2e/packages/**", "**/node_modules/**"];
// Several server processes on one database (e2e/cluster): PostgreSQL only, since PGlite is single-process.
const clusterSuites = ["e2e/cluster/**/*.test.ts"];

// Workspace packages resolve to their TypeScript source (the "gatehouse-source" exports condition), not to dist/.
const source = "gatehouse-source";

export default defineConfig({
  resolve: { conditions: [source, ...defaultClientConditions] },
  // Vitest hands the server conditions to Node in its workers; Node must not take "module" (a bundler's condition),
  // or it loads packages' bundler builds, such as @opentelemetry/api's extensionless ESM.
  ssr: { resolve: { conditions: [source, ...defaultServerConditions.filter((c) => c !== "module")] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "pglite",
          include: ["packages/**/*.test.{ts,tsx}", "apps/dashboard/**/*.test.{ts,tsx}", ...databaseSuites],
          exclude: [...clusterSuites, "**/node_modules/**"],
          globalSetup,
        },
      },
      ...(process.env.DATABASE_URL
        ? [
            {
              extends: true,
              test: {
                name: "postgres",
                include: [...databaseSuites, ...clusterSuites],
                exclude: uiOnly,
                globalSetup,
              },
            },
          ]
        : []),
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
