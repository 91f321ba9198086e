// Teams and memberships (WIRE.md §4.10, §6, §7): every change that creates or removes a team, a membership or a
// grant goes through here, so default permissions and webhook events are never forgotten. Each function runs in
// the caller's transaction.
import { randomUUID } from "node:crypto";
import { type ClientTeam, KnownErrors, type ServerTeam } from "@gatehouse/contract";
import type { AuditLog } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import type { GrantKey, TeamRow, TeamsRepo } from "../db/teams-repo.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import type { WebhookEvent, WebhookEvents } from "../webhooks/events.ts";
import { isSystemPermission } from "./permissions.ts";
import type { Project } from "./projects.ts";

export function toServerTeam(team: TeamRow): ServerTeam {
  return {
    id: team.id,
    display_name: team.displayName,
    profile_image_url: team.profileImageUrl,
    client_metadata: team.clientMetadata ?? null,
    client_read_only_metadata: team.clientReadOnlyMetadata ?? null,
    server_metadata: team.serverMetadata ?? null,
    created_at_millis: team.createdAt.getTime(),
  };
}

/** A team as clients see it: the server shape without `created_at_millis` and `server_metadata`. */
export function toClientTeam(team: ServerTeam): ClientTeam {
  const { created_at_millis: _c, server_metadata: _s, ...client } = team;
  return client;
}

export type NewTeam = {
  displayName: string;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
};

/** Changes to a team; absent fields stay as they are. */
export type TeamChanges = Partial<NewTeam>;

/** A member's per-team name and image; null falls back to the user's own. */
export type MemberProfileChanges = { displayName?: string | null; profileImageUrl?: string | null };

/** Only the fields that are present, so an update never overwrites what it was not asked to change. */
const present = <T extends object>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Whose defaults a new membership gets (WIRE.md §6). */
export type MemberRole = "creator" | "member";

const grantEvent = (
  type: "team_permission.created" | "team_permission.deleted",
  g: GrantKey,
): WebhookEvent => ({
  type,
  data: { id: g.permissionId, team_id: g.teamId, user_id: g.userId },
});

const membershipEvent = (
  type: "team_membership.created" | "team_membership.deleted",
  teamId: string,
  userId: string,
) => ({ type, data: { team_id: teamId, user_id: userId } }) satisfies WebhookEvent;

/** A personal team's name, from its user's display name or primary e-mail. */
export const personalTeamName = (name: string | null) => (name ? `${name}'s Team` : "Personal Team");

export function createTeamService(deps: {
  teamsRepo: TeamsRepo;
  usersRepo: UsersRepo;
  events: WebhookEvents;
  clock: Clock;
  audit: AuditLog;
}) {
  const { teamsRepo, events, clock } = deps;

  /** Grants that exist as definitions (system or the project's); unknown ids are skipped. */
  async function knownPermissionIds(tx: Db, projectId: string, ids: string[]): Promise<string[]> {
    const custom = ids.filter((id) => !isSystemPermission(id));
    const defined = new Set(await teamsRepo.existingDefinitionIds(tx, projectId, custom));
    return ids.filter((id) => isSystemPermission(id) || defined.has(id));
  }

  const service = {
    /** Creates the team; with a creator, the creator joins it with the creator defaults. */
    async create(tx: Db, project: Project, input: NewTeam, creatorUserId?: string): Promise<TeamRow> {
      const team = await teamsRepo.insertTeam(tx, {
        id: randomUUID(),
        projectId: project.id,
        displayName: input.displayName,
        profileImageUrl: input.profileImageUrl ?? null,
        clientMetadata: input.clientMetadata ?? null,
        clientReadOnlyMetadata: input.clientReadOnlyMetadata ?? null,
        serverMetadata: input.serverMetadata ?? null,
        createdAt: clock.now(),
      });
      await events.record(tx, project.id, { type: "team.created", data: toServerTeam(team) });
      if (creatorUserId) await service.addMember(tx, project, team.id, creatorUserId, "creator");
      return team;
    },

    /** Applies the changes and records `team.updated` with the team as it now is. */
    async update(tx: Db, projectId: string, teamId: string, changes: TeamChanges): Promise<TeamRow> {
      const fields = present(changes);
      if (Object.keys(fields).length > 0) await teamsRepo.updateTeam(tx, teamId, fields);
      const team = await teamsRepo.findTeam(projectId, teamId, tx);
      if (!team) throw KnownErrors.TEAM_NOT_FOUND({ team_id: teamId });
      await events.record(tx, projectId, { type: "team.updated", data: toServerTeam(team) });
      return team;
    },

    /** Deletes the team with its memberships, grants and invitations (no per-member events), then `team.deleted`. */
    async delete(tx: Db, projectId: string, teamId: string): Promise<void> {
      await teamsRepo.deleteTeam(tx, teamId);
      await events.record(tx, projectId, { type: "team.deleted", data: { id: teamId } });
    },

    async updateMemberProfile(
      tx: Db,
      teamId: string,
      userId: string,
      changes: MemberProfileChanges,
    ): Promise<void> {
      if (!(await teamsRepo.findMember(teamId, userId, tx))) {
        throw KnownErrors.TEAM_MEMBERSHIP_NOT_FOUND({ team_id: teamId, user_id: userId });
      }
      const fields = present(changes);
      if (Object.keys(fields).length > 0) await teamsRepo.updateMember(tx, teamId, userId, fields);
    },

    /** The personal team of a new user (`create_team_on_sign_up`), joined as creator and selected. */
    async createPersonalTeam(
      tx: Db,
      project: Project,
      userId: string,
      name: string | null,
    ): Promise<TeamRow> {
      const team = await service.create(tx, project, { displayName: personalTeamName(name) }, userId);
      await deps.usersRepo.update(tx, userId, { selectedTeamId: team.id });
      return team;
    },

    /**
     * Adds the membership with the role's default permissions. Returns false (and changes nothing) when the user
     * already is a member.
     */
    async addMember(
      tx: Db,
      project: Project,
      teamId: string,
      userId: string,
      role: MemberRole,
    ): Promise<boolean> {
      const now = clock.now();
      const added = await teamsRepo.insertMember(tx, {
        projectId: project.id,
        teamId,
        userId,
        createdAt: now,
      });
      if (!added) return false;
      const defaults =
        role === "creator"
          ? project.config.team_creator_default_permissions
          : project.config.team_member_default_permissions;
      const granted = await teamsRepo.insertDefinedGrants(
        tx,
        project.id,
        { teamId, userId },
        defaults.map((p) => ({ id: p.id, system: isSystemPermission(p.id) })),
        now,
      );
      await events.record(
        tx,
        project.id,
        membershipEvent("team_membership.created", teamId, userId),
        ...granted.map((g) => grantEvent("team_permission.created", g)),
      );
      return true;
    },

    /**
     * Adds the user with the creator's defaults when the team has no member yet; false otherwise. The check is made
     * again under the team's lock, so two transactions racing to be first cannot both see an empty team: the second
     * waits, and its re-check reads the first one's committed member.
     */
    async addFirstMember(tx: Db, project: Project, teamId: string, userId: string): Promise<boolean> {
      // Once the team has members (the usual case) no lock is needed: members are never first again.
      if (await teamsRepo.hasMembers(tx, teamId)) return false;
      await teamsRepo.lockMemberships(tx, teamId);
      if (await teamsRepo.hasMembers(tx, teamId)) return false;
      return service.addMember(tx, project, teamId, userId, "creator");
    },

    /** Ends the membership with its direct grants; clears the team as the user's selection. */
    async removeMember(tx: Db, projectId: string, teamId: string, userId: string): Promise<void> {
      const removed = await teamsRepo.deleteMember(tx, teamId, userId);
      if (!removed) throw KnownErrors.TEAM_MEMBERSHIP_NOT_FOUND({ team_id: teamId, user_id: userId });
      await events.record(tx, projectId, membershipEvent("team_membership.deleted", teamId, userId));
    },

    /** A direct grant; idempotent (the event fires only when the grant is new). */
    async grant(tx: Db, projectId: string, grant: GrantKey): Promise<void> {
      if (!(await teamsRepo.findMember(grant.teamId, grant.userId, tx))) {
        throw KnownErrors.TEAM_MEMBERSHIP_NOT_FOUND({ team_id: grant.teamId, user_id: grant.userId });
      }
      const [known] = await knownPermissionIds(tx, projectId, [grant.permissionId]);
      if (!known) {
        // Team and project definitions share ids: a project one is Stack's WRONG_PERMISSION_SCOPE.
        if ((await teamsRepo.definitionScope(tx, projectId, grant.permissionId)) === "project") {
          throw KnownErrors.WRONG_PERMISSION_SCOPE({
            permission_id: grant.permissionId,
            expected_scope: "team",
            actual_scope: "project",
          });
        }
        throw KnownErrors.PERMISSION_NOT_FOUND({ permission_id: grant.permissionId });
      }
      const granted = await teamsRepo.insertGrants(tx, projectId, [grant], clock.now());
      await events.record(tx, projectId, ...granted.map((g) => grantEvent("team_permission.created", g)));
      await deps.audit.record(
        tx,
        projectId,
        ...granted.map(() => ({
          type: "permission.granted" as const,
          target: { type: "user", id: grant.userId },
          details: { scope: "team", team_id: grant.teamId, permission_id: grant.permissionId },
        })),
      );
    },

    async revoke(tx: Db, projectId: string, grant: GrantKey): Promise<void> {
      if (!(await teamsRepo.deleteGrant(tx, grant))) {
        throw KnownErrors.TEAM_PERMISSION_NOT_FOUND({
          team_id: grant.teamId,
          user_id: grant.userId,
          permission_id: grant.permissionId,
        });
      }
      await events.record(tx, projectId, grantEvent("team_permission.deleted", grant));
      await deps.audit.record(tx, projectId, {
        type: "permission.revoked",
        target: { type: "user", id: grant.userId },
        details: { scope: "team", team_id: grant.teamId, permission_id: grant.permissionId },
      });
    },

    /** Every membership of a user ends (user deletion): one `team_membership.deleted` per team. */
    async leaveAll(tx: Db, projectId: string, userId: string): Promise<string[]> {
      const teamIds = await teamsRepo.teamIdsOf(tx, userId);
      for (const teamId of teamIds) await teamsRepo.deleteMember(tx, teamId, userId);
      await events.record(
        tx,
        projectId,
        ...teamIds.map((t) => membershipEvent("team_membership.deleted", t, userId)),
      );
      return teamIds;
    },
  };
  return service;
}

export type TeamService = ReturnType<typeof createTeamService>;
