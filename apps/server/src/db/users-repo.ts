// User rows with their primary e-mail, which every user view needs: one query reads both.
import { and, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "./client.ts";
import { contactChannels, sessions, users } from "./schema.ts";

export type UserRow = typeof users.$inferSelect;
export type ChannelRow = typeof contactChannels.$inferSelect;
export type PrimaryEmail = Pick<ChannelRow, "value" | "isVerified" | "usedForAuth">;
export type UserRecord = UserRow & { primaryEmail: PrimaryEmail | null };

const primaryJoin = and(
  eq(contactChannels.userId, users.id),
  eq(contactChannels.isPrimary, true),
  eq(contactChannels.type, "email"),
);
const primaryColumns = {
  value: contactChannels.value,
  isVerified: contactChannels.isVerified,
  usedForAuth: contactChannels.usedForAuth,
};

// A left-joined object is null as a whole when the user has no primary e-mail.
const toRecord = (row: { user: UserRow; primary: PrimaryEmail | null }): UserRecord => ({
  ...row.user,
  primaryEmail: row.primary,
});

// A second reference to contact_channels, for a user's primary e-mail beside another of their channels.
const primaryChannels = alias(contactChannels, "primary_channels");
const primaryOf = {
  value: primaryChannels.value,
  isVerified: primaryChannels.isVerified,
  usedForAuth: primaryChannels.usedForAuth,
};

export function createUsersRepo(db: Db) {
  /** A session (found by `match`) with its user and primary e-mail, as one prepared statement. */
  const sessionWithUser = (match: SQL | undefined, name: string) =>
    db
      .select({
        user: users,
        primary: primaryColumns,
        sessionId: sessions.id,
        expiresAt: sessions.expiresAt,
        refreshTokenHash: sessions.refreshTokenHash,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(contactChannels, primaryJoin)
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
      return row && { user: toRecord(row), sessionId: row.sessionId, sessionExpiresAt: row.expiresAt };
    },

    async find(projectId: string, userId: string, executor: Db = db): Promise<UserRecord | undefined> {
      const [row] = await executor
        .select({ user: users, primary: primaryColumns })
        .from(users)
        .leftJoin(contactChannels, primaryJoin)
        .where(and(eq(users.projectId, projectId), eq(users.id, userId)));
      return row && toRecord(row);
    },

    /** The user of a session, with the session's expiry; undefined when the session is gone. */
    async findBySession(projectId: string, sessionId: string) {
      const [row] = await bySession.execute({ projectId, sessionId });
      return (
        row && {
          user: toRecord(row),
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
        .select({ channel: contactChannels, user: users, primary: primaryOf })
        .from(contactChannels)
        .innerJoin(users, eq(users.id, contactChannels.userId))
        .leftJoin(
          primaryChannels,
          and(
            eq(primaryChannels.userId, users.id),
            eq(primaryChannels.isPrimary, true),
            eq(primaryChannels.type, "email"),
          ),
        )
        .where(
          and(
            eq(contactChannels.projectId, projectId),
            eq(contactChannels.type, "email"),
            eq(contactChannels.normalized, email.toLowerCase()),
            eq(contactChannels.usedForAuth, true),
          ),
        );
      return row && { channel: row.channel, user: toRecord(row) };
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
