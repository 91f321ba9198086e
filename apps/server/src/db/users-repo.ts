// User rows with their primary e-mail, which every user view needs: one query reads both.
import { and, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "./client.ts";
import { contactChannels, sessions, teams, users } from "./schema.ts";
import type { TeamRow } from "./teams-repo.ts";

export type UserRow = typeof users.$inferSelect;
export type ChannelRow = typeof contactChannels.$inferSelect;
export type PrimaryEmail = Pick<ChannelRow, "value" | "isVerified" | "usedForAuth">;
export type OAuthProviderRef = { id: string; account_id: string; email: string | null };
/** A user with everything its wire object shows: primary e-mail, selected team and linked OAuth accounts. */
export type UserRecord = UserRow & {
  primaryEmail: PrimaryEmail | null;
  selectedTeam: TeamRow | null;
  oauthProviders: OAuthProviderRef[];
};

// The user's primary e-mail and selected team are joined under their own names, so a query can also join
// contact_channels or teams for another purpose.
const primaryChannel = alias(contactChannels, "primary_channel");
const selectedTeam = alias(teams, "selected_team");

/** Join conditions for the two parts of a user record: `.leftJoin(...USER_JOINS.primary).leftJoin(...USER_JOINS.team)`. */
export const USER_JOINS = {
  primary: [
    primaryChannel,
    and(
      eq(primaryChannel.userId, users.id),
      eq(primaryChannel.isPrimary, true),
      eq(primaryChannel.type, "email"),
    ),
  ],
  team: [selectedTeam, eq(selectedTeam.id, users.selectedTeamId)],
} as const;

/** The columns of a user record, for any query that joins USER_JOINS. */
export const USER_COLUMNS = {
  user: users,
  primary: {
    value: primaryChannel.value,
    isVerified: primaryChannel.isVerified,
    usedForAuth: primaryChannel.usedForAuth,
  },
  selectedTeam,
  oauthProviders: sql<
    OAuthProviderRef[] | null
  >`(select json_agg(json_build_object('id', o.provider_id, 'account_id', o.account_id, 'email', o.email) order by o.created_at) from oauth_accounts o where o.user_id = ${users.id})`,
};

type UserColumnsRow = {
  user: UserRow;
  primary: PrimaryEmail | null;
  selectedTeam: TeamRow | null;
  oauthProviders: OAuthProviderRef[] | null;
};

// Left-joined objects are null as a whole when the user has no primary e-mail or no selected team.
export const toUserRecord = (row: UserColumnsRow): UserRecord => ({
  ...row.user,
  primaryEmail: row.primary,
  selectedTeam: row.selectedTeam,
  oauthProviders: row.oauthProviders ?? [],
});

export function createUsersRepo(db: Db) {
  /** A session (found by `match`) with its user and primary e-mail, as one prepared statement. */
  const sessionWithUser = (match: SQL | undefined, name: string) =>
    db
      .select({
        ...USER_COLUMNS,
        sessionId: sessions.id,
        expiresAt: sessions.expiresAt,
        refreshTokenHash: sessions.refreshTokenHash,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(...USER_JOINS.primary)
      .leftJoin(...USER_JOINS.team)
      .where(and(match, eq(sessions.projectId, sql.placeholder("projectId"))))
      .prepare(name);
  const bySession = sessionWithUser(eq(sessions.id, sql.placeholder("sessionId")), "user_by_session");
  // Runs on every refresh.
  const byRefreshHash = sessionWithUser(
    eq(sessions.refreshTokenHash, sql.placeholder("hash")),
    "user_by_refresh_hash",
  );

  return {
    /** The session of a refresh token (by its hash) and its user; undefined when the session is gone. */
    async findByRefreshHash(projectId: string, hash: string) {
      const [row] = await byRefreshHash.execute({ projectId, hash });
      return row && { user: toUserRecord(row), sessionId: row.sessionId, sessionExpiresAt: row.expiresAt };
    },

    async find(projectId: string, userId: string, executor: Db = db): Promise<UserRecord | undefined> {
      const [row] = await executor
        .select(USER_COLUMNS)
        .from(users)
        .leftJoin(...USER_JOINS.primary)
        .leftJoin(...USER_JOINS.team)
        .where(and(eq(users.projectId, projectId), eq(users.id, userId)));
      return row && toUserRecord(row);
    },

    /** The user of a session, with the session's expiry; undefined when the session is gone. */
    async findBySession(projectId: string, sessionId: string) {
      const [row] = await bySession.execute({ projectId, sessionId });
      return (
        row && {
          user: toUserRecord(row),
          sessionExpiresAt: row.expiresAt,
          refreshTokenHash: row.refreshTokenHash,
        }
      );
    },

    /** The user who signs in with this address (an auth-enabled channel), matched case-insensitively. */
    async findByAuthEmail(projectId: string, email: string, executor: Db = db) {
      return (await this.findAuthChannel(projectId, email, executor))?.user;
    },

    /** The auth-enabled channel of this address and its user (with the user's primary e-mail), in one query. */
    async findAuthChannel(projectId: string, email: string, executor: Db = db) {
      const [row] = await executor
        .select({ channel: contactChannels, ...USER_COLUMNS })
        .from(contactChannels)
        .innerJoin(users, eq(users.id, contactChannels.userId))
        .leftJoin(...USER_JOINS.primary)
        .leftJoin(...USER_JOINS.team)
        .where(
          and(
            eq(contactChannels.projectId, projectId),
            eq(contactChannels.type, "email"),
            eq(contactChannels.normalized, email.toLowerCase()),
            eq(contactChannels.usedForAuth, true),
          ),
        );
      return row && { channel: row.channel, user: toUserRecord(row) };
    },

    /** A user's channel for this address, whether or not it is used for sign-in. */
    async findChannel(executor: Db, userId: string, email: string): Promise<ChannelRow | undefined> {
      const [channel] = await executor
        .select()
        .from(contactChannels)
        .where(and(eq(contactChannels.userId, userId), eq(contactChannels.normalized, email.toLowerCase())));
      return channel;
    },

    async updateChannel(tx: Db, channelId: string, changes: Partial<ChannelRow>): Promise<void> {
      await tx.update(contactChannels).set(changes).where(eq(contactChannels.id, channelId));
    },

    async delete(tx: Db, userId: string): Promise<void> {
      // Sessions and contact channels go with the user (ON DELETE CASCADE).
      await tx.delete(users).where(eq(users.id, userId));
    },

    async markChannelVerified(tx: Db, channelId: string): Promise<void> {
      await tx.update(contactChannels).set({ isVerified: true }).where(eq(contactChannels.id, channelId));
    },

    async insert(tx: Db, row: typeof users.$inferInsert): Promise<void> {
      await tx.insert(users).values(row);
    },

    async update(tx: Db, userId: string, changes: Partial<typeof users.$inferInsert>): Promise<void> {
      await tx.update(users).set(changes).where(eq(users.id, userId));
    },

    async insertChannel(tx: Db, row: typeof contactChannels.$inferInsert): Promise<void> {
      await tx.insert(contactChannels).values(row);
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
