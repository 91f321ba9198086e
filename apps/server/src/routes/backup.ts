// [GO] GET /internal/backup (issue 23): the running server's own copy of its embedded database, so `gatehouse backup`
// works without stopping the server. Operators only (the internal project's admins): the dump holds every project.
import { backupRoute, KnownErrors } from "@gatehouse/contract";
import type { Hono } from "hono";
import { backupPglite } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { INTERNAL_PROJECT_ID } from "../services/seed.ts";
import { projectOf } from "./auth.ts";

export function registerBackupRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, backupRoute, async (_input, { caller }) => {
    if (projectOf(caller).id !== INTERNAL_PROJECT_ID) throw KnownErrors.EXPECTED_INTERNAL_PROJECT();
    if (deps.database.kind !== "pglite")
      throw KnownErrors.BACKUP_NOT_AVAILABLE({
        reason: "the server runs on PostgreSQL; run `gatehouse backup` with DATABASE_URL (pg_dump) instead",
      });
    const dump = await backupPglite(deps.database);
    deps.logger.info("database backup sent", { bytes: dump.size });
    return new Response(dump.stream(), {
      status: 200,
      headers: {
        "content-type": "application/gzip",
        "content-length": String(dump.size),
        "content-disposition": 'attachment; filename="gatehouse-pglite.tar.gz"',
        "cache-control": "no-store",
      },
    });
  });
}
