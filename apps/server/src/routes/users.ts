// User routes (WIRE.md §4.8): the current user so far.
import { getCurrentUserRoute, KnownErrors } from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { toClientUser, toServerUser } from "../services/users.ts";

export function registerUserRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, getCurrentUserRoute, async (_input, { caller }) => {
    // The SDK reads this error as "signed out".
    if (!caller.user) throw KnownErrors.CANNOT_GET_OWN_USER_WITHOUT_USER();
    return caller.accessType === "client"
      ? toClientUser(caller.user.record)
      : toServerUser(caller.user.record);
  });
}
