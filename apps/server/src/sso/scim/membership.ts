// What a SCIM change does to the team: an active provisioned user is a member holding the permissions its groups map
// to (through the team's SSO attribute mapping, the same `group_permissions` SSO sign-in uses); deactivation and
// deletion end the membership and every session of the user at once, so a refresh token stops working immediately.
import { isKnownError } from "@gatehouse/contract";
import type { Db } from "../../db/client.ts";
import type { SessionsRepo } from "../../db/sessions-repo.ts";
import type { TeamsRepo } from "../../db/teams-repo.ts";
import type { Project } from "../../services/projects.ts";
import type { TeamService } from "../../services/teams.ts";
import type { AttributeMapping } from "../connections.ts";
import type { SsoRepo } from "../repo.ts";
import type { ScimRepo } from "./repo.ts";

export type MembershipDeps = {
  repo: ScimRepo;
  ssoRepo: SsoRepo;
  teams: TeamService;
  teamsRepo: TeamsRepo;
  sessionsRepo: SessionsRepo;
};

const IGNORED = ["PERMISSION_NOT_FOUND", "WRONG_PERMISSION_SCOPE", "TEAM_PERMISSION_NOT_FOUND"];

export function createScimMembership(deps: MembershipDeps) {
  /** The permissions the named groups map to, through every connection of the team. */
  async function mappedPermissions(tx: Db, project: Project, teamId: string, groups: string[]) {
    const connections = await deps.ssoRepo.listConnections(tx, project.id, teamId);
    const lower = new Set(groups.map((g) => g.toLowerCase()));
    const ids = new Set<string>();
    for (const connection of connections) {
      const mapping = (connection.attributeMapping as AttributeMapping).group_permissions;
      for (const [group, permissions] of Object.entries(mapping))
        if (lower.has(group.toLowerCase())) for (const id of permissions) ids.add(id);
    }
    return ids;
  }

  /** Ignores a mapped permission the project no longer defines, and a grant already gone. */
  async function tolerant(action: () => Promise<void>) {
    try {
      await action();
    } catch (error) {
      if (!isKnownError(error) || !IGNORED.includes(error.code)) throw error;
    }
  }

  return {
    /** A provisioned user becomes (or stays) an active member with what its groups grant. */
    async activate(tx: Db, project: Project, teamId: string, userId: string): Promise<void> {
      await deps.teams.addMember(tx, project, teamId, userId, "member");
      const groups = await deps.repo.groupNamesOf(tx, teamId, userId);
      for (const permissionId of await mappedPermissions(tx, project, teamId, groups))
        await tolerant(() => deps.teams.grant(tx, project.id, { teamId, userId, permissionId }));
    },

    /** Deprovisioning: the membership ends and so does every session, in the caller's transaction. */
    async deactivate(tx: Db, project: Project, teamId: string, userId: string): Promise<void> {
      if (await deps.teamsRepo.findMember(teamId, userId, tx)) {
        await deps.teams.removeMember(tx, project.id, teamId, userId);
      }
      await deps.sessionsRepo.deleteForUser(tx, userId);
    },

    /**
     * After a group's membership or name changed: grants what the groups now map to, and revokes what they mapped to
     * before and no longer do. Only active members are touched (an inactive one holds nothing).
     */
    async regrant(
      tx: Db,
      project: Project,
      teamId: string,
      userId: string,
      groupsBefore: string[],
    ): Promise<void> {
      const row = await deps.repo.findUser(tx, teamId, userId);
      if (!row?.active || !(await deps.teamsRepo.findMember(teamId, userId, tx))) return;
      const before = await mappedPermissions(tx, project, teamId, groupsBefore);
      const after = await mappedPermissions(
        tx,
        project,
        teamId,
        await deps.repo.groupNamesOf(tx, teamId, userId),
      );
      for (const permissionId of after)
        await tolerant(() => deps.teams.grant(tx, project.id, { teamId, userId, permissionId }));
      for (const permissionId of before)
        if (!after.has(permissionId))
          await tolerant(() => deps.teams.revoke(tx, project.id, { teamId, userId, permissionId }));
    },
  };
}

export type ScimMembership = ReturnType<typeof createScimMembership>;
