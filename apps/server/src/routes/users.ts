// User routes (WIRE.md §4.8): the current user reads, updates and deletes itself.
import {
  deleteCurrentUserRoute,
  getCurrentUserRoute,
  KnownErrors,
  updateCurrentUserRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { UserRecord } from "../db/users-repo.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller } from "../http/caller.ts";
import { toClientUser, toServerUser } from "../services/users.ts";
import { TextError } from "../text-error.ts";

/** Clients get the client shape; server and admin callers the server shape. */
const userView = (caller: Caller, user: UserRecord) =>
  caller.accessType === "client" ? toClientUser(user) : toServerUser(user);

/** `me` routes: the SDK reads CANNOT_GET_OWN_USER_WITHOUT_USER as "signed out". */
function currentUser(caller: Caller): UserRecord {
  if (!caller.user) throw KnownErrors.CANNOT_GET_OWN_USER_WITHOUT_USER();
  return caller.user.record;
}

export function registerUserRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, getCurrentUserRoute, async (_input, { caller }) =>
    userView(caller, currentUser(caller)),
  );

  bindRoute(app, deps, updateCurrentUserRoute, async ({ body }, { caller }) =>
    userView(caller, await deps.userUpdates.update(currentUser(caller), body)),
  );

  bindRoute(app, deps, deleteCurrentUserRoute, async (_input, { caller }) => {
    const user = currentUser(caller);
    if (caller.accessType === "client" && !caller.project.config.client_user_deletion_enabled) {
      throw new TextError(400, "Client user deletion is not enabled for this project");
    }
    await deps.users.delete(deps.db, user);
    return { success: true as const };
  });
}
