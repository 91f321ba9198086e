// The server artifact's layout (scripts/build-server.ts lays it out and puts this module in place of resources.ts):
// migrations/, dashboard/ and static/ beside server.js, the API reference's version fixed when it was built.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerResources } from "./resources.ts";

/** Replaced by the build with the version of the Scalar bundle it copied into static/. */
declare const GATEHOUSE_API_REFERENCE_VERSION: string;

const here = dirname(fileURLToPath(import.meta.url));

export const resources: ServerResources = {
  migrationsDir: join(here, "migrations"),
  dashboardDir: join(here, "dashboard"),
  apiReferenceInit: join(here, "static", "api-reference-init.js"),
  apiReference: () => ({
    file: join(here, "static", "api-reference.js"),
    version: GATEHOUSE_API_REFERENCE_VERSION,
  }),
};
