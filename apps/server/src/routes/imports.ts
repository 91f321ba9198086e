// Bulk user import (issue 23): a batch of generic records in one transaction, idempotent by source id.
import { importUsersRoute } from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { projectOf } from "./auth.ts";

export function registerImportRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, importUsersRoute, async ({ body }, { caller }) =>
    deps.bulkImport.importBatch(projectOf(caller), body.provider, body.users),
  );
}
