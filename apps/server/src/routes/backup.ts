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
  // One backup at a time: each is a whole copy of the database in memory until it is sent, so a script retrying in
  // a loop (or 200 requests at once) would otherwise hold as many copies.
  let sending = false;
  bindRoute(app, deps, backupRoute, async (_input, { caller }) => {
    if (projectOf(caller).id !== INTERNAL_PROJECT_ID) throw KnownErrors.EXPECTED_INTERNAL_PROJECT();
    if (deps.database.kind !== "pglite")
      throw KnownErrors.BACKUP_NOT_AVAILABLE({
        reason: "the server runs on PostgreSQL; run `gatehouse backup` with DATABASE_URL (pg_dump) instead",
      });
    if (sending)
      throw KnownErrors.BACKUP_NOT_AVAILABLE({
        reason: "another backup is being made or sent; try again when it is done",
      });
    sending = true;
    const release = () => {
      sending = false;
    };
    let dump: Blob;
    try {
      dump = await backupPglite(deps.database);
    } catch (error) {
      release();
      throw error;
    }
    deps.logger.info("database backup sent", { bytes: dump.size });
    return new Response(releasedWhenDone(dump.stream(), release), {
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

/** The same bytes, calling `release` once they are all read or the reader gives up (the client went away). */
function releasedWhenDone(
  source: ReadableStream<Uint8Array>,
  release: () => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        release();
        controller.close();
      } else controller.enqueue(value);
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
}
