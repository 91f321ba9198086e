// Team routes (WIRE.md §4.10, §4.12, §6): teams, memberships, member profiles and direct permission grants.
// Clients act for their signed-in user on teams they belong to, subject to team permissions; server and admin
// callers act on anything in the project.
import {
  addTeamMemberRoute,
  createTeamRoute,
  deleteTeamRoute,
  getTeamMemberProfileRoute,
  getTeamRoute,
  grantTeamPermissionRoute,
  KnownErrors,
  listTeamMemberProfilesRoute,
  listTeamPermissionsRoute,
  listTeamsRoute,
  removeTeamMemberRoute,
  revokeTeamPermissionRoute,
  updateTeamMemberProfileRoute,
  updateTeamRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import { inTransaction } from "../db/client.ts";
import type { GrantKey, MemberProfileRow, TeamRow } from "../db/teams-repo.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller } from "../http/caller.ts";
import type { SystemPermissionId } from "../services/permissions.ts";
import { type TeamChanges, toClientTeam, toServerTeam } from "../services/teams.ts";
import { assertProfileImageUrl } from "../services/user-updates.ts";
import { toServerUser } from "../services/users.ts";
import { TextError } from "../text-error.ts";
import { projectOf, userOf } from "./auth.ts";

const isClient = (caller: Caller) => caller.accessType === "client";

const teamView = (caller: Caller, team: TeamRow) =>
  isClient(caller) ? toClientTeam(toServerTeam(team)) : toServerTeam(team);

/** The per-team name and image fall back to the user's own; server callers also get the server user. */
function profileView(caller: Caller, { member, user }: MemberProfileRow) {
  const profile = {
    team_id: member.teamId,
    user_id: member.userId,
    display_name: member.displayName ?? user.displayName,
    profile_image_url: member.profileImageUrl ?? user.profileImageUrl,
  };
  return isClient(caller) ? profile : { ...profile, user: toServerUser(user) };
}

const grantView = (g: GrantKey) => ({ id: g.permissionId, team_id: g.teamId, user_id: g.userId });

type TeamBody = {
  display_name?: string;
  profile_image_url?: string | null;
  client_metadata?: unknown;
  client_read_only_metadata?: unknown;
  server_metadata?: unknown;
};

function teamInput(body: TeamBody): TeamChanges {
  if (body.profile_image_url !== undefined) assertProfileImageUrl(body.profile_image_url);
  return {
    displayName: body.display_name,
    profileImageUrl: body.profile_image_url,
    clientMetadata: body.client_metadata,
    clientReadOnlyMetadata: body.client_read_only_metadata,
    serverMetadata: body.server_metadata,
  };
}

export function registerTeamRoutes(app: Hono<AppEnv>, deps: Deps): void {
  /** The team, or TEAM_NOT_FOUND; a client must be a member holding every `required` permission (WIRE.md §6). */
  async function authorizeTeam(caller: Caller, teamId: string, required: SystemPermissionId[] = []) {
    const project = projectOf(caller);
    const team = await deps.teamsRepo.findTeam(project.id, teamId);
    if (!team) throw KnownErrors.TEAM_NOT_FOUND({ team_id: teamId });
    if (isClient(caller)) await deps.permissions.require(project.id, teamId, userOf(caller).id, required);
    return team;
  }

  /** Member profiles: a client must be a member, and needs `$read_members` to see anyone else's. */
  async function authorizeProfiles(caller: Caller, teamId: string, userId: string | undefined) {
    if (!isClient(caller)) return;
    const self = userOf(caller).id;
    const required: SystemPermissionId[] = userId === self ? [] : ["$read_members"];
    await deps.permissions.require(projectOf(caller).id, teamId, self, required);
  }

  bindRoute(app, deps, listTeamsRoute, async ({ query }, { caller }) => {
    let userId = query.user_id;
    if (isClient(caller)) {
      const self = userOf(caller).id;
      if (userId !== undefined && userId !== self) {
        throw new TextError(
          403,
          'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user',
        );
      }
      userId = self;
    }
    const teams = await deps.teamsRepo.listTeams(projectOf(caller).id, userId);
    return { items: teams.map((t) => teamView(caller, t)), is_paginated: false as const };
  });

  bindRoute(app, deps, createTeamRoute, async ({ query, body }, { caller }) => {
    const project = projectOf(caller);
    let creator = body.creator_user_id ?? (query.add_current_user ? "me" : undefined);
    if (isClient(caller)) {
      const self = userOf(caller).id;
      if (!project.config.client_team_creation_enabled) {
        throw new TextError(403, "Client team creation is disabled for this project");
      }
      creator ??= self;
      if (creator !== "me" && creator !== self) {
        throw new TextError(
          403,
          "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.",
        );
      }
    }
    if (creator === "me") {
      if (!caller.user) throw KnownErrors.CANNOT_GET_OWN_USER_WITHOUT_USER();
      creator = caller.user.id;
    }
    const input = { ...teamInput(body), displayName: body.display_name };
    const team = await inTransaction(deps.db, async (tx) => {
      if (creator && !(await deps.usersRepo.find(project.id, creator, tx))) {
        throw KnownErrors.USER_ID_DOES_NOT_EXIST({ user_id: creator });
      }
      return deps.teams.create(tx, project, input, creator);
    });
    return teamView(caller, team);
  });

  bindRoute(app, deps, getTeamRoute, async ({ params }, { caller }) =>
    teamView(caller, await authorizeTeam(caller, params.team_id)),
  );

  bindRoute(app, deps, updateTeamRoute, async ({ params, body }, { caller }) => {
    await authorizeTeam(caller, params.team_id, ["$update_team"]);
    const changes = teamInput(body);
    const team = await inTransaction(deps.db, (tx) =>
      deps.teams.update(tx, projectOf(caller).id, params.team_id, changes),
    );
    return teamView(caller, team);
  });

  bindRoute(app, deps, deleteTeamRoute, async ({ params }, { caller }) => {
    await authorizeTeam(caller, params.team_id, ["$delete_team"]);
    await inTransaction(deps.db, (tx) => deps.teams.delete(tx, projectOf(caller).id, params.team_id));
    return { success: true as const };
  });

  bindRoute(app, deps, addTeamMemberRoute, async ({ params }, { caller }) => {
    const project = projectOf(caller);
    const { team_id, user_id } = params;
    await inTransaction(deps.db, async (tx) => {
      if (!(await deps.teamsRepo.findTeam(project.id, team_id, tx))) {
        throw KnownErrors.TEAM_NOT_FOUND({ team_id });
      }
      if (!(await deps.usersRepo.find(project.id, user_id, tx))) throw KnownErrors.USER_NOT_FOUND();
      if (!(await deps.teams.addMember(tx, project, team_id, user_id, "member"))) {
        throw KnownErrors.TEAM_MEMBERSHIP_ALREADY_EXISTS();
      }
    });
    return { team_id, user_id };
  });

  bindRoute(app, deps, removeTeamMemberRoute, async ({ params }, { caller }) => {
    const project = projectOf(caller);
    const { team_id, user_id } = params;
    // Leaving needs nothing; removing someone else needs `$remove_members` (and the caller's own membership).
    if (isClient(caller) && user_id !== userOf(caller).id) {
      await deps.permissions.require(project.id, team_id, userOf(caller).id, ["$remove_members"]);
    }
    await inTransaction(deps.db, (tx) => deps.teams.removeMember(tx, project.id, team_id, user_id));
    return { success: true as const };
  });

  bindRoute(app, deps, listTeamMemberProfilesRoute, async ({ query }, { caller }) => {
    // Clients must name a team (clientQuery); server callers may list across teams.
    if (query.team_id) await authorizeProfiles(caller, query.team_id, query.user_id);
    const rows = await deps.teamsRepo.listMemberProfiles(projectOf(caller).id, {
      teamId: query.team_id,
      userId: query.user_id,
    });
    return { items: rows.map((r) => profileView(caller, r)), is_paginated: false as const };
  });

  /** One profile; TEAM_MEMBERSHIP_NOT_FOUND when the user is not a member of the team. */
  async function findProfile(caller: Caller, teamId: string, userId: string) {
    const [row] = await deps.teamsRepo.listMemberProfiles(projectOf(caller).id, { teamId, userId });
    if (!row) throw KnownErrors.TEAM_MEMBERSHIP_NOT_FOUND({ team_id: teamId, user_id: userId });
    return profileView(caller, row);
  }

  bindRoute(app, deps, getTeamMemberProfileRoute, async ({ params }, { caller }) => {
    await authorizeProfiles(caller, params.team_id, params.user_id);
    return findProfile(caller, params.team_id, params.user_id);
  });

  bindRoute(app, deps, updateTeamMemberProfileRoute, async ({ params, body }, { caller }) => {
    const { team_id, user_id } = params;
    if (isClient(caller)) {
      if (user_id !== userOf(caller).id) {
        throw new TextError(403, "Client can only update their own team member profile.");
      }
      await authorizeProfiles(caller, team_id, user_id);
    }
    if (body.profile_image_url !== undefined) assertProfileImageUrl(body.profile_image_url);
    await inTransaction(deps.db, (tx) =>
      deps.teams.updateMemberProfile(tx, team_id, user_id, {
        displayName: body.display_name,
        profileImageUrl: body.profile_image_url,
      }),
    );
    return findProfile(caller, team_id, user_id);
  });

  bindRoute(app, deps, listTeamPermissionsRoute, async ({ query }, { caller }) => {
    let userId = query.user_id;
    if (isClient(caller)) {
      // A client lists only its own permissions, in any of its teams: grants exist only for memberships.
      const self = userOf(caller).id;
      if (userId !== undefined && userId !== self) {
        throw new TextError(403, "Client can only list permissions for their own user.");
      }
      userId = self;
    }
    const filter = { teamId: query.team_id, userId, permissionId: query.permission_id };
    const grants = await deps.permissions.listGrants(projectOf(caller).id, filter, query.recursive);
    return { items: grants.map(grantView), is_paginated: false as const };
  });

  bindRoute(app, deps, grantTeamPermissionRoute, async ({ params }, { caller }) => {
    const grant = { teamId: params.team_id, userId: params.user_id, permissionId: params.permission_id };
    await inTransaction(deps.db, (tx) => deps.teams.grant(tx, projectOf(caller).id, grant));
    return grantView(grant);
  });

  bindRoute(app, deps, revokeTeamPermissionRoute, async ({ params }, { caller }) => {
    const grant = { teamId: params.team_id, userId: params.user_id, permissionId: params.permission_id };
    await inTransaction(deps.db, (tx) => deps.teams.revoke(tx, projectOf(caller).id, grant));
    return { success: true as const };
  });
}
