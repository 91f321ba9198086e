// User routes (WIRE.md §4.8): the current user reads, updates and deletes itself; server and admin callers list,
// create, read, update and delete any user of the project.
import {
  createUserRoute,
  deleteCurrentUserRoute,
  deleteUserRoute,
  getCurrentUserRoute,
  getUserRoute,
  KnownErrors,
  listUsersRoute,
  USER_PAGE_DEFAULT,
  updateCurrentUserRoute,
  updateUserRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { UserRecord, UserVisibility } from "../db/users-repo.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller } from "../http/caller.ts";
import { toClientUser, toServerUser } from "../services/users.ts";
import { TextError } from "../text-error.ts";
import { projectOf } from "./auth.ts";

/** Clients get the client shape; server and admin callers the server shape. */
const userView = (caller: Caller, user: UserRecord) =>
  caller.accessType === "client" ? toClientUser(user) : toServerUser(user);

/** `me` routes: the SDK reads CANNOT_GET_OWN_USER_WITHOUT_USER as "signed out". */
function currentUser(caller: Caller): UserRecord {
  if (!caller.user) throw KnownErrors.CANNOT_GET_OWN_USER_WITHOUT_USER();
  return caller.user.record;
}

/** Which users the list shows; anonymous users include restricted ones. */
function visibility(query: {
  include_restricted?: boolean;
  include_anonymous?: boolean;
  only_anonymous?: boolean;
}): UserVisibility {
  if (query.only_anonymous && !query.include_anonymous) {
    throw new TextError(400, "only_anonymous requires include_anonymous=true");
  }
  if (query.only_anonymous) return "anonymous";
  if (query.include_anonymous) return "all";
  return query.include_restricted ? "non_anonymous" : "unrestricted";
}

export function registerUserRoutes(app: Hono<AppEnv>, deps: Deps): void {
  /** The user named by a path id; an id that is not a UUID names no user either (the repository says so). */
  async function userById(caller: Caller, userId: string): Promise<UserRecord> {
    const user = await deps.usersRepo.find(projectOf(caller).id, userId);
    if (!user) throw KnownErrors.USER_NOT_FOUND();
    return user;
  }

  // The `/users/me` routes are bound first, so `me` never reaches `/users/{user_id}`.
  bindRoute(app, deps, getCurrentUserRoute, async (_input, { caller }) =>
    userView(caller, currentUser(caller)),
  );

  bindRoute(app, deps, updateCurrentUserRoute, async ({ body }, { caller }) =>
    userView(caller, await deps.userUpdates.update(projectOf(caller), currentUser(caller), body)),
  );

  bindRoute(app, deps, deleteCurrentUserRoute, async (_input, { caller }) => {
    const user = currentUser(caller);
    if (caller.accessType === "client" && !caller.project.config.client_user_deletion_enabled) {
      throw new TextError(400, "Client user deletion is not enabled for this project");
    }
    await deps.users.delete(deps.db, user);
    return { success: true as const };
  });

  bindRoute(app, deps, listUsersRoute, async ({ query }, { caller }) => {
    const show = visibility(query);
    // This process's pending last-use times first, so `last_active_at` order sees them.
    await deps.activity.flush();
    const page = await deps.usersRepo.list(projectOf(caller).id, {
      limit: query.limit ?? USER_PAGE_DEFAULT,
      cursor: query.cursor,
      orderBy: query.order_by ?? "signed_up_at",
      desc: query.desc ?? false,
      query: query.query,
      teamId: query.team_id,
      visibility: show,
    });
    // The cursor's user was deleted since the page before: its position is gone with it.
    if (!page) throw new TextError(400, "The cursor user does not exist. Start again without a cursor.");
    return {
      items: page.users.map(toServerUser),
      is_paginated: true as const,
      pagination: { next_cursor: page.nextCursor },
    };
  });

  bindRoute(app, deps, createUserRoute, async ({ body }, { caller }) =>
    toServerUser(await deps.userUpdates.create(projectOf(caller), body)),
  );

  bindRoute(app, deps, getUserRoute, async ({ params }, { caller }) => {
    await deps.activity.flush();
    return toServerUser(await userById(caller, params.user_id));
  });

  bindRoute(app, deps, updateUserRoute, async ({ params, body }, { caller }) => {
    const user = await userById(caller, params.user_id);
    return toServerUser(await deps.userUpdates.update(projectOf(caller), user, body));
  });

  bindRoute(app, deps, deleteUserRoute, async ({ params }, { caller }) => {
    await deps.users.delete(deps.db, await userById(caller, params.user_id));
    return { success: true as const };
  });
}
