// Team invitations as rows: they are verification codes of purpose `team_invitation` (WIRE.md §4.11, §5.1) whose data
// names the team and the recipient. Reads join the team, so an invitation to a deleted team is never found.
import { and, asc, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { contactChannels, teams, verificationCodes } from "./schema.ts";
import type { VerificationCodeRow } from "./verification-codes-repo.ts";

export const TEAM_INVITATION_PURPOSE = "team_invitation";

/** The purpose data of an invitation code. `email_normalized` (lower-cased) is what recipients are matched by. */
export type TeamInvitationData = { team_id: string; email: string; email_normalized: string };

export type TeamInvitationRow = { code: VerificationCodeRow; teamDisplayName: string };

const teamIdOfCode = sql`(${verificationCodes.data} ->> 'team_id')`;
const recipientOfCode = sql`(${verificationCodes.data} ->> 'email_normalized')`;

const isInvitationOf = (projectId: string) =>
  and(eq(verificationCodes.projectId, projectId), eq(verificationCodes.purpose, TEAM_INVITATION_PURPOSE));

/** Unused and unexpired: what the wire calls pending. */
const isPending = (now: Date) => and(isNull(verificationCodes.usedAt), gt(verificationCodes.expiresAt, now));

export function createTeamInvitationsRepo(db: Db) {
  /** Pending invitations of the project that match `where`, with their team's display name, oldest first. */
  function listPending(projectId: string, now: Date, where: SQL | undefined, recipientUserId?: string) {
    let query = db
      .select({ code: verificationCodes, teamDisplayName: teams.displayName })
      .from(verificationCodes)
      .innerJoin(teams, and(eq(teams.projectId, projectId), sql`${teams.id}::text = ${teamIdOfCode}`))
      .$dynamic();
    if (recipientUserId) {
      // The recipient's verified addresses; contact_channels holds each normalised address once per user.
      query = query.innerJoin(
        contactChannels,
        and(
          eq(contactChannels.userId, recipientUserId),
          eq(contactChannels.type, "email"),
          eq(contactChannels.isVerified, true),
          sql`${contactChannels.normalized} = ${recipientOfCode}`,
        ),
      );
    }
    return query
      .where(and(isInvitationOf(projectId), isPending(now), where))
      .orderBy(asc(verificationCodes.createdAt), asc(verificationCodes.id));
  }

  return {
    listForTeam(projectId: string, teamId: string, now: Date): Promise<TeamInvitationRow[]> {
      return listPending(projectId, now, sql`${teamIdOfCode} = ${teamId}`);
    },

    /** Invitations addressed to any verified e-mail of the user, matched case-insensitively. */
    listForRecipient(projectId: string, userId: string, now: Date): Promise<TeamInvitationRow[]> {
      return listPending(projectId, now, undefined, userId);
    },

    async findPending(projectId: string, id: string, now: Date): Promise<TeamInvitationRow | undefined> {
      const [row] = await listPending(projectId, now, eq(verificationCodes.id, id));
      return row;
    },

    /** Deletes one invitation of the team, whatever its state; false when there is none. */
    async delete(projectId: string, teamId: string, id: string): Promise<boolean> {
      const deleted = await db
        .delete(verificationCodes)
        .where(and(isInvitationOf(projectId), eq(verificationCodes.id, id), sql`${teamIdOfCode} = ${teamId}`))
        .returning({ id: verificationCodes.id });
      return deleted.length > 0;
    },
  };
}

export type TeamInvitationsRepo = ReturnType<typeof createTeamInvitationsRepo>;
