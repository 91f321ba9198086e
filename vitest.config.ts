// Every test runs on PGlite; the database suites (server and e2e) run again on PostgreSQL when DATABASE_URL is set.
import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";
import { LongFirstSequencer } from "./vitest.sequencer.ts";

const globalSetup = ["apps/server/src/testing/global-setup.ts"];
const databaseSuites = ["apps/server/src/**/*.test.ts", "e2e/**/*.test.ts"];
// Pages in Chromium (ours and Stack's) and our packed packages: what they test is the page, the wire and the packages,
// not the database, which the API and service suites cover on both; so one run (PGlite) is enough, and two runs of the
// package suite would build the same dist/ folders at once.
const uiOnly = ["e2e/browser/**", "e2e/packages/**", "**/node_modules/**"];
// Several server processes on one database (e2e/cluster): PostgreSQL only, since PGlite is single-process.
const clusterSuites = ["e2e/cluster/**/*.test.ts"];
// Suites that restart the PostgreSQL server itself: a project of their own that runs after every other, alone.
const chaosSuites = ["e2e/cluster/chaos*.test.ts"];
// The interop scenarios with the three SDKs run on PGlite; on PostgreSQL, e2e/cluster/interop.test.ts runs the same
// scenarios with Stack's SDK through three server processes, which is the PostgreSQL case that can differ (the wire
// the three SDKs speak does not depend on the database). One run of 90 s instead of two.
// The CLI suite runs each command as a process on a PGlite data directory of its own (its child processes never see
// DATABASE_URL): a PostgreSQL run would repeat the same minutes. The heap growth suite runs a child process that
// touches no database.
const pgliteOnly = [
  "e2e/interop/sdk-interop.test.ts",
  "apps/server/src/cli/cli.test.ts",
  "apps/server/src/importers/import-100k.test.ts",
  "apps/server/src/startup-imports.test.ts",
  "apps/server/src/heap-growth.test.ts",
];
// What only PostgreSQL has: pg_dump and pg_restore behind `gatehouse backup` and `restore`, its named statements.
const postgresOnly = [
  "apps/server/src/cli/backup-postgres.test.ts",
  "apps/server/src/db/statement-names-postgres.test.ts",
  "apps/server/src/startup-imports-postgres.test.ts",
];

// The server and end-to-end suites share one module registry per worker instead of importing the whole server again for
// each file: importing it took most of the run (851 s of import time in a 39-minute run, 376 s of a 13.5-minute run of
// the route suites, 22 s without isolation). They mock no modules and keep their state in the databases and servers
// each file makes. The component suites share theirs too (isolated, importing the server and the packages in each of
// their 64 files took 95 s of a 240-second project run; shared, 18 s): none mocks a module, their spies are restored or
// on their own file's objects, stubbed globals are unstubbed, and vitest hands a worker on only to a file of the same
// project and DOM environment, which it still makes afresh for each file.
const sharedModules = { isolate: false };
// Component and package suites: jsdom pages and the SDK, on PGlite.
const componentSuites = ["packages/**/*.test.{ts,tsx}", "apps/dashboard/**/*.test.{ts,tsx}"];

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
          include: databaseSuites,
          exclude: [...clusterSuites, ...postgresOnly, "**/node_modules/**"],
          globalSetup,
          ...sharedModules,
        },
      },
      {
        extends: true,
        test: {
          name: "components",
          include: componentSuites,
          globalSetup,
          setupFiles: ["packages/react/src/test-support/dom-timeouts.ts"],
          ...sharedModules,
        },
      },
      ...(process.env.DATABASE_URL
        ? [
            {
              extends: true,
              test: {
                name: "postgres",
                include: [...databaseSuites, ...clusterSuites],
                exclude: [...uiOnly, ...pgliteOnly, ...chaosSuites],
                globalSetup,
                ...sharedModules,
              },
            },
            {
              extends: true,
              test: { name: "chaos", include: chaosSuites, globalSetup, sequence: { groupOrder: 1 } },
            },
          ]
        : []),
    ],
    // Most suites wait on child servers, Chromium or PostgreSQL rather than compute: two files at a time keep two
    // cores busy (one at a time, vitest's default here, left them idle half the run). GATEHOUSE_TEST_WORKERS overrides.
    maxWorkers: Number(process.env.GATEHOUSE_TEST_WORKERS ?? 2),
    sequence: { sequencer: LongFirstSequencer },
    testTimeout: 30_000,
    // A server process or Chromium starting beside another suite's can take a minute on two cores.
    hookTimeout: 180_000,
  },
});
