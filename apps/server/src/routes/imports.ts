// Bulk user import (issue 23): a batch of generic records in one transaction, idempotent by source id; and import
// jobs, the same import run in the background from an uploaded export file (import-jobs/).
import {
  cancelImportJobRoute,
  createImportJobRoute,
  getImportJobRoute,
  importUsersRoute,
  listImportJobsRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { projectOf } from "./auth.ts";

export function registerImportRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, importUsersRoute, async ({ body }, { caller }) =>
    deps.bulkImport.importBatch(projectOf(caller), body.provider, body.users),
  );

  bindRoute(app, deps, createImportJobRoute, async ({ query }, { caller, request }) => {
    const job = await deps.importJobs.create(
      projectOf(caller).id,
      { provider: query.provider, fileName: query.file_name ?? "upload", dryRun: query.dry_run === "true" },
      request,
    );
    deps.importJobWorker.wake();
    return job;
  });

  bindRoute(app, deps, listImportJobsRoute, async (_input, { caller }) => ({
    items: await deps.importJobs.list(projectOf(caller).id),
  }));

  bindRoute(app, deps, getImportJobRoute, async ({ params }, { caller }) =>
    deps.importJobs.get(projectOf(caller).id, params.job_id),
  );

  bindRoute(app, deps, cancelImportJobRoute, async ({ params }, { caller }) =>
    deps.importJobs.cancel(projectOf(caller).id, params.job_id),
  );
}
