// Team invitation routes (WIRE.md §4.11): the HTTP side (which user a client may name, code-submission limits);
// team permissions and the work itself are in services/team-invitations.ts.
import {
  acceptTeamInvitationByIdRoute,
  acceptTeamInvitationRoute,
  checkTeamInvitationCodeRoute,
  KnownErrors,
  listTeamInvitationsRoute,
  revokeTeamInvitationRoute,
  sendTeamInvitationRoute,
  teamInvitationDetailsRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller } from "../http/caller.ts";
import { createTeamInvitationService } from "../services/team-invitations.ts";
import { TextError } from "../text-error.ts";
import { projectOf, userOf } from "./auth.ts";

/** The user whose team permissions are checked: a client's own user; server and admin callers are not checked. */
const clientUserIdOf = (caller: Caller) => (caller.accessType === "client" ? userOf(caller).id : null);

/** A client may only name its own user (`me` is already resolved to it). */
function assertOwnUser(caller: Caller, userId: string, text: string): void {
  if (caller.accessType === "client" && userOf(caller).id !== userId) throw new TextError(403, text);
}

export function registerTeamInvitationRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const invitations = createTeamInvitationService(deps);
  /** Every submission of a code counts against the caller's IP, whatever the flow (WIRE.md §1.10). */
  const countSubmission = (clientIp: string) => deps.rateLimits.hit("code_ip", clientIp);

  bindRoute(app, deps, sendTeamInvitationRoute, async ({ body }, { caller }) => {
    const id = await invitations.send(projectOf(caller), clientUserIdOf(caller), {
      teamId: body.team_id,
      email: body.email,
      callbackUrl: body.callback_url,
    });
    return { success: true as const, id };
  });

  bindRoute(app, deps, listTeamInvitationsRoute, async ({ query }, { caller }) => {
    const project = projectOf(caller);
    const { team_id: teamId, user_id: userId } = query;
    if (teamId !== undefined && userId === undefined) {
      const items = await invitations.listForTeam(project, teamId, clientUserIdOf(caller));
      return { items, is_paginated: false as const };
    }
    if (userId !== undefined && teamId === undefined) {
      assertOwnUser(caller, userId, "Client can only list invitations for their own user.");
      return { items: await invitations.listForRecipient(project, userId), is_paginated: false as const };
    }
    throw new TextError(400, "Exactly one of team_id and user_id must be given.");
  });

  bindRoute(app, deps, revokeTeamInvitationRoute, async ({ params, query }, { caller }) => {
    await invitations.revoke(projectOf(caller), query.team_id, clientUserIdOf(caller), params.id);
    return { success: true as const };
  });

  bindRoute(app, deps, acceptTeamInvitationRoute, async ({ body }, { caller, clientIp }) => {
    await countSubmission(clientIp);
    await invitations.accept(projectOf(caller), userOf(caller).record, body.code);
    return {};
  });

  bindRoute(app, deps, checkTeamInvitationCodeRoute, async ({ body }, { caller, clientIp }) => {
    await countSubmission(clientIp);
    await invitations.check(projectOf(caller), body.code);
    return { is_code_valid: true as const };
  });

  bindRoute(app, deps, teamInvitationDetailsRoute, async ({ body }, { caller, clientIp }) => {
    await countSubmission(clientIp);
    return invitations.details(projectOf(caller), body.code);
  });

  bindRoute(app, deps, acceptTeamInvitationByIdRoute, async ({ params, query }, { caller }) => {
    const project = projectOf(caller);
    assertOwnUser(caller, query.user_id, "Client can only accept invitations for their own user.");
    const user =
      query.user_id === userOf(caller).id
        ? userOf(caller).record
        : await deps.usersRepo.find(project.id, query.user_id);
    if (!user) throw KnownErrors.USER_NOT_FOUND();
    await invitations.acceptById(project, user, params.id);
    return {};
  });
}
