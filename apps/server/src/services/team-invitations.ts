// Team invitations (WIRE.md §4.11, §5): a `team_invitation` verification code e-mailed to an address. Whoever holds
// the code may join the team; a signed-in user may also accept by id an invitation sent to one of their verified
// e-mails. Both join with the member defaults through the team service, so events and grants stay in one place.

import { KnownErrors } from "@gatehouse/contract";
import { storedLocale } from "@gatehouse/contract/locales";
import type { Clock } from "../clock.ts";
import { type Db, inTransaction } from "../db/client.ts";
import {
  createTeamInvitationsRepo,
  TEAM_INVITATION_PURPOSE,
  type TeamInvitationData,
  type TeamInvitationRow,
} from "../db/team-invitations-repo.ts";
import type { TeamRow, TeamsRepo } from "../db/teams-repo.ts";
import type { UserRecord, UsersRepo } from "../db/users-repo.ts";
import { createVerificationCodesRepo } from "../db/verification-codes-repo.ts";
import { TextError } from "../text-error.ts";
import type { EmailService } from "./emails.ts";
import type { PermissionService, SystemPermissionId } from "./permissions.ts";
import type { Project } from "./projects.ts";
import type { RateLimiter } from "./rate-limits.ts";
import type { TeamService } from "./teams.ts";
import { assertTrustedUrl } from "./trusted-urls.ts";
import { toServerUser } from "./users.ts";
import type { SubmittedCode, VerificationCodeService } from "./verification-codes.ts";

const toWire = ({ code, teamDisplayName }: TeamInvitationRow) => {
  const data = code.data as TeamInvitationData;
  return {
    id: code.id,
    team_id: data.team_id,
    team_display_name: teamDisplayName,
    expires_at_millis: code.expiresAt.getTime(),
    recipient_email: data.email,
  };
};

/** Anonymous and restricted users may not join teams by invitation (they have not finished signing up). */
function assertMayJoin(user: UserRecord): void {
  const reason = toServerUser(user).restricted_reason;
  if (reason) throw KnownErrors.TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED({ restricted_reason: reason });
}

export function createTeamInvitationService(deps: {
  db: Db;
  clock: Clock;
  codes: VerificationCodeService;
  emails: EmailService;
  teams: TeamService;
  teamsRepo: TeamsRepo;
  usersRepo: UsersRepo;
  permissions: PermissionService;
  rateLimits: RateLimiter;
}) {
  const repo = createTeamInvitationsRepo(deps.db);
  const codesRepo = createVerificationCodesRepo();
  const submitted = (project: Project, code: string): SubmittedCode => ({
    projectId: project.id,
    purpose: TEAM_INVITATION_PURPOSE,
    code,
  });

  /**
   * The team, for an action on it: unknown → TEAM_NOT_FOUND. A client (`clientUserId` set) must be a member holding
   * `required`; server and admin callers act on any team.
   */
  async function requireTeam(
    project: Project,
    teamId: string,
    clientUserId: string | null,
    required: readonly SystemPermissionId[],
  ): Promise<TeamRow> {
    const team = await deps.teamsRepo.findTeam(project.id, teamId);
    if (!team) throw KnownErrors.TEAM_NOT_FOUND({ team_id: teamId });
    if (clientUserId) await deps.permissions.require(project.id, teamId, clientUserId, required);
    return team;
  }

  /** The invitation's team; an invitation to a team deleted since counts as not found. */
  async function teamOf(project: Project, data: unknown, executor?: Db): Promise<TeamRow> {
    const team = await deps.teamsRepo.findTeam(project.id, (data as TeamInvitationData).team_id, executor);
    if (!team) throw KnownErrors.VERIFICATION_CODE_NOT_FOUND();
    return team;
  }

  /** Joins with the member defaults; an existing membership is left as it is. */
  async function join(tx: Db, project: Project, data: unknown, userId: string): Promise<void> {
    const team = await teamOf(project, data, tx);
    await deps.teams.addMember(tx, project, team.id, userId, "member");
  }

  return {
    /** Creates the code and queues the `team_invitation` e-mail in one transaction; returns the invitation id. */
    async send(
      project: Project,
      clientUserId: string | null,
      input: { teamId: string; email: string; callbackUrl: string },
    ): Promise<string> {
      const team = await requireTeam(project, input.teamId, clientUserId, ["$invite_members"]);
      assertTrustedUrl(project.config, input.callbackUrl);
      const normalized = input.email.toLowerCase();
      await deps.rateLimits.hit("email_send", `${project.id}:${normalized}`);
      const recipient = await deps.usersRepo.findByAuthEmail(project.id, input.email);
      return inTransaction(deps.db, async (tx) => {
        const data: TeamInvitationData = {
          team_id: team.id,
          email: input.email,
          email_normalized: normalized,
        };
        const { id, link } = await deps.codes.create(tx, {
          projectId: project.id,
          purpose: TEAM_INVITATION_PURPOSE,
          data,
          callbackUrl: input.callbackUrl,
        });
        await deps.emails.queue(tx, project, {
          to: input.email,
          type: "team_invitation",
          userDisplayName: recipient?.displayName,
          userLocale: storedLocale(recipient?.clientMetadata),
          variables: { teamInvitationLink: link ?? input.callbackUrl, teamDisplayName: team.displayName },
        });
        return id;
      });
    },

    async listForTeam(project: Project, teamId: string, clientUserId: string | null) {
      await requireTeam(project, teamId, clientUserId, ["$read_members", "$invite_members"]);
      return (await repo.listForTeam(project.id, teamId, deps.clock.now())).map(toWire);
    },

    async listForRecipient(project: Project, userId: string) {
      return (await repo.listForRecipient(project.id, userId, deps.clock.now())).map(toWire);
    },

    async revoke(project: Project, teamId: string, clientUserId: string | null, id: string): Promise<void> {
      await requireTeam(project, teamId, clientUserId, ["$remove_members"]);
      if (!(await repo.delete(project.id, teamId, id)))
        throw new TextError(404, "Team invitation not found.");
    },

    /** The code is a bearer secret: whoever holds it joins. Checked before the code is touched. */
    async accept(project: Project, user: UserRecord, code: string): Promise<void> {
      assertMayJoin(user);
      await deps.codes.use(submitted(project, code), (tx, row) => join(tx, project, row.data, user.id));
    },

    async check(project: Project, code: string): Promise<void> {
      const row = await deps.codes.check(submitted(project, code));
      await teamOf(project, row.data);
    },

    async details(project: Project, code: string) {
      const row = await deps.codes.check(submitted(project, code));
      const team = await teamOf(project, row.data);
      return { team_id: team.id, team_display_name: team.displayName };
    },

    /** Accept by id: only for the owner of a verified e-mail equal to the recipient; anyone else learns nothing. */
    async acceptById(project: Project, user: UserRecord, id: string): Promise<void> {
      assertMayJoin(user);
      const now = deps.clock.now();
      const invitation = await repo.findPending(project.id, id, now);
      const data = invitation?.code.data as TeamInvitationData | undefined;
      const channel = data && (await deps.usersRepo.findChannel(deps.db, user.id, data.email_normalized));
      if (!invitation || !channel?.isVerified) throw KnownErrors.VERIFICATION_CODE_NOT_FOUND();
      await inTransaction(deps.db, async (tx) => {
        // Conditional on used_at still being unset: of two concurrent accepts only one gets the row.
        const used = await codesRepo.markUsed(tx, id, now);
        if (!used) throw KnownErrors.VERIFICATION_CODE_NOT_FOUND();
        await join(tx, project, used.data, user.id);
      });
    },
  };
}

export type TeamInvitationService = ReturnType<typeof createTeamInvitationService>;
