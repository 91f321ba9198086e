// Session routes (WIRE.md §4.6): create (server), list, end one, sign out, and refresh through a header.
import {
  createSessionRoute,
  endCurrentSessionRoute,
  endSessionRoute,
  KnownErrors,
  listSessionsRoute,
  refreshCurrentSessionRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import { inTransaction } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller } from "../http/caller.ts";
import { readGatehouseHeaders } from "../http/headers.ts";
import type { Impersonator } from "../services/sessions.ts";
import { TextError } from "../text-error.ts";
import { projectOf } from "./auth.ts";

/**
 * [GF] Who creates an impersonation session, recorded on it for the audit log: the operator of an admin access token,
 * else the project key that was used.
 */
function impersonatorOf(caller: Caller): Impersonator {
  if (caller.operatorId) return { kind: "operator", userId: caller.operatorId };
  return { kind: caller.accessType === "admin" ? "admin_key" : "server_key", userId: null };
}

/** Clients manage only their own sessions; server and admin callers any user's of the project. */
function assertOwnSessions(caller: Caller, userId: string): void {
  if (caller.accessType === "client" && caller.user?.id !== userId) {
    throw new TextError(403, "Client can only manage their own sessions.");
  }
}

export function registerSessionRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, createSessionRoute, async ({ body }, { caller }) => {
    const project = projectOf(caller);
    const user = await deps.usersRepo.find(project.id, body.user_id);
    if (!user) throw KnownErrors.USER_ID_DOES_NOT_EXIST({ user_id: body.user_id });
    const opened = await inTransaction(deps.db, (tx) =>
      deps.sessions.open(tx, user, {
        expiresInMs: body.expires_in_millis,
        impersonator: body.is_impersonation ? impersonatorOf(caller) : undefined,
        signIn: { method: "server_api", isNewUser: false, byCaller: true },
      }),
    );
    const issued = await deps.sessions.issue(opened);
    return { refresh_token: issued.refreshToken, access_token: issued.accessToken };
  });

  bindRoute(app, deps, listSessionsRoute, async ({ query }, { caller }) => {
    const project = projectOf(caller);
    assertOwnSessions(caller, query.user_id);
    const sessions = await deps.sessions.list(project.id, query.user_id);
    return {
      is_paginated: false as const,
      items: sessions
        // Impersonation sessions are an administrator's business; the user does not see them. [GF] Except by the
        // one holding it: the impersonating operator's own current session, so our pages can say whose it is.
        .filter((s) => !s.isImpersonation || caller.accessType === "admin" || s.id === caller.user?.sessionId)
        .map((s) => ({
          id: s.id,
          user_id: s.userId,
          created_at: s.createdAt.getTime(),
          last_used_at: s.lastUsedAt.getTime(),
          is_impersonation: s.isImpersonation,
          is_current_session: s.id === caller.user?.sessionId,
        })),
    };
  });

  // Registered before `/{session_id}` so that `current` is not read as an id.
  bindRoute(app, deps, endCurrentSessionRoute, async (_input, { caller, request }) => {
    const project = projectOf(caller);
    const user = caller.user;
    if (!user) throw KnownErrors.USER_AUTHENTICATION_REQUIRED();
    await deps.sessions.end(user.sessionId, { projectId: project.id, userId: user.id, type: "sign_out" });
    const refreshToken = readGatehouseHeaders(request.headers).get("refresh-token");
    if (refreshToken) await deps.sessions.endByRefreshToken(project.id, user.id, refreshToken);
    return { success: true as const };
  });

  bindRoute(app, deps, endSessionRoute, async ({ params, query }, { caller }) => {
    const project = projectOf(caller);
    assertOwnSessions(caller, query.user_id);
    if (params.session_id === caller.user?.sessionId) throw KnownErrors.CANNOT_DELETE_CURRENT_SESSION();
    const session = await deps.sessions.find(project.id, params.session_id);
    if (!session || session.userId !== query.user_id) throw new TextError(404, "Session not found.");
    await deps.sessions.end(session.id, {
      projectId: project.id,
      userId: session.userId,
      type: "session.revoked",
    });
    return { success: true as const };
  });

  bindRoute(app, deps, refreshCurrentSessionRoute, async (_input, { caller, request }) => {
    const project = projectOf(caller);
    const refreshToken = readGatehouseHeaders(request.headers).get("refresh-token");
    if (!refreshToken) throw KnownErrors.REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED();
    const refreshed = await deps.sessions.refresh(project, refreshToken);
    return refreshed.rotated
      ? { access_token: refreshed.accessToken, refresh_token: refreshed.refreshToken }
      : { access_token: refreshed.accessToken };
  });
}
