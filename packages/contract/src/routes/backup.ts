// [GO] A backup of the embedded database made by the running server (issue 23): PGlite lives inside the server's
// process, so no second process can read a consistent copy while it runs; the server dumps it on request. Only the
// internal project's admins (the instance's operators) may ask: the dump holds every project.
import { defineRoute } from "../route.ts";

export const backupRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/backup",
  access: ["admin"],
  summary:
    "[GO] The embedded PGlite database's data directory as a gzipped tar, taken between transactions (internal project only; a PostgreSQL server answers BACKUP_NOT_AVAILABLE: use pg_dump)",
  tag: "Server status",
  response: {
    status: 200,
    kind: "text",
    media: "application/gzip",
    description: "PGlite's data directory as a tar, gzipped (what `gatehouse restore` reads)",
  },
});

export const backupRoutes = [backupRoute] as const;
