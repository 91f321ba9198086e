// User rows with their primary e-mail, which every user view needs: one query reads both. Also the user list of
// GET /users, paged by keyset so that a page costs the same at any depth.
import { and, asc, desc, eq, exists, inArray, like, or, type SQL, sql } from "drizzle-orm";
import { alias, type SelectedFields } from "drizzle-orm/pg-core";
import type { Db } from "./client.ts";
import { insertByColumns } from "./insert-by-columns.ts";
import { perDatabase } from "./prepared.ts";
import { contactChannels, knownDevices, sessions, teamMembers, teams, users } from "./schema.ts";
import type { TeamRow } from "./teams-repo.ts";

export type UserRow = typeof users.$inferSelect;
export type ChannelRow = typeof contactChannels.$inferSelect;
export type PrimaryEmail = Pick<ChannelRow, "value" | "isVerified" | "usedForAuth">;
export type OAuthProviderRef = { id: string; account_id: string; email: string | null };
/** Whether a user has any known device, and the one of a sign-in among them (trust/new-device.ts). */
export type KnownDevice = { any: boolean; same: boolean };
/** A user with everything its wire object shows: primary e-mail, selected team and linked OAuth accounts. */
export type UserRecord = UserRow & {
  primaryEmail: PrimaryEmail | null;
  selectedTeam: TeamRow | null;
  oauthProviders: OAuthProviderRef[];
  hasPasskey: boolean;
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
  hasPasskey: sql<boolean>`exists (select 1 from passkeys p where p.user_id = ${users.id})`,
};

/** What minting an access token reads of a user (the claims, custom claims included): all a refresh reads. */
export type TokenSubject = Pick<
  UserRecord,
  | "id"
  | "projectId"
  | "displayName"
  | "primaryEmail"
  | "selectedTeamId"
  | "signedUpAt"
  | "isAnonymous"
  | "restrictedByAdmin"
  | "sealedTotpSecret"
  | "clientMetadata"
  | "clientReadOnlyMetadata"
  | "serverMetadata"
>;

/**
 * The columns of a TokenSubject, for a query that joins USER_JOINS.primary: 14 where a user record has 33 (no
 * selected team, linked accounts or passkeys, which cost the database two subqueries and a join).
 */
export const TOKEN_SUBJECT_COLUMNS = {
  subject: {
    id: users.id,
    projectId: users.projectId,
    displayName: users.displayName,
    selectedTeamId: users.selectedTeamId,
    signedUpAt: users.signedUpAt,
    isAnonymous: users.isAnonymous,
    restrictedByAdmin: users.restrictedByAdmin,
    sealedTotpSecret: users.sealedTotpSecret,
    clientMetadata: users.clientMetadata,
    clientReadOnlyMetadata: users.clientReadOnlyMetadata,
    serverMetadata: users.serverMetadata,
  },
  primary: USER_COLUMNS.primary,
};

type UserColumnsRow = {
  user: UserRow;
  primary: PrimaryEmail | null;
  selectedTeam: TeamRow | null;
  oauthProviders: OAuthProviderRef[] | null;
  hasPasskey: boolean;
};

// Left-joined objects are null as a whole when the user has no primary e-mail or no selected team.
export const toUserRecord = (row: UserColumnsRow): UserRecord => ({
  ...row.user,
  primaryEmail: row.primary,
  selectedTeam: row.selectedTeam,
  oauthProviders: row.oauthProviders ?? [],
  hasPasskey: row.hasPasskey,
});

/** Which users a list shows (WIRE.md §4.8): by default neither anonymous nor restricted ones. */
export type UserVisibility = "unrestricted" | "non_anonymous" | "all" | "anonymous";

export type UserListOptions = {
  limit: number;
  /** The id of the first user of the page. */
  cursor?: string;
  orderBy: "signed_up_at" | "last_active_at";
  desc: boolean;
  /** Case-insensitive: the exact id, or a substring of the display name or of any contact-channel value. */
  query?: string;
  teamId?: string;
  visibility: UserVisibility;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

/** `%`, `_` and the escape character itself match literally (backslash is LIKE's default escape). */
const likeSubstring = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const VISIBILITY: Record<UserVisibility, SQL | undefined> = {
  unrestricted: and(eq(users.isAnonymous, false), eq(users.restrictedByAdmin, false)),
  non_anonymous: eq(users.isAnonymous, false),
  all: undefined,
  anonymous: eq(users.isAnonymous, true),
};

/**
 * The statement behind one page of `GET /users`: `limit + 1` users, to tell whether a next page exists. Keyset
 * paging: the page starts at the cursor user's (sort value, id), read in the same statement, so it is an index range
 * scan on users(project_id, <sort column>, id) at any depth, and users created or deleted meanwhile neither shift
 * nor repeat the others. Exported so the benchmark can show its plans.
 */
export function userListQuery(db: Db, projectId: string, o: UserListOptions) {
  const column = o.orderBy === "last_active_at" ? users.lastActiveAt : users.signedUpAt;
  const direction = o.desc ? desc : asc;
  const conditions = [eq(users.projectId, projectId), VISIBILITY[o.visibility]];
  if (o.cursor) {
    const c = alias(users, "cursor_user");
    const cursorColumn = o.orderBy === "last_active_at" ? c.lastActiveAt : c.signedUpAt;
    const pick = (field: typeof c.id | typeof cursorColumn) =>
      db
        .select({ field })
        .from(c)
        .where(and(eq(c.projectId, projectId), eq(c.id, o.cursor as string)));
    // Two scalar subqueries become two parameters of one row comparison, which the index can range-scan.
    const operator = sql.raw(o.desc ? "<=" : ">=");
    conditions.push(sql`(${column}, ${users.id}) ${operator} (${pick(cursorColumn)}, ${pick(c.id)})`);
  }
  if (o.teamId) {
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(teamMembers)
          .where(and(eq(teamMembers.teamId, o.teamId), eq(teamMembers.userId, users.id))),
      ),
    );
  }
  if (o.query) {
    // search_text holds the name and every address one per line, under a trigram index. A query without a line
    // break can only match inside one line, so the index answers exactly; one with a line break can only be
    // part of a display name (addresses have none).
    const text = o.query.includes("\n") ? sql`lower(${users.displayName})` : users.searchText;
    conditions.push(
      or(
        isUuid(o.query) ? eq(users.id, o.query.toLowerCase()) : undefined,
        like(text, likeSubstring(o.query.toLowerCase())),
      ),
    );
  }
  return db
    .select(USER_COLUMNS)
    .from(users)
    .leftJoin(...USER_JOINS.primary)
    .leftJoin(...USER_JOINS.team)
    .where(and(...conditions))
    .orderBy(direction(column), direction(users.id))
    .limit(o.limit + 1);
}

export function createUsersRepo(db: Db) {
  /** The auth-enabled channel of an address with its user, and `extra` columns. */
  const authChannelQuery = <T extends SelectedFields>(executor: Db, extra: T) =>
    executor
      .select({ channel: contactChannels, ...USER_COLUMNS, ...extra })
      .from(contactChannels)
      .innerJoin(users, eq(users.id, contactChannels.userId))
      .leftJoin(...USER_JOINS.primary)
      .leftJoin(...USER_JOINS.team)
      .where(
        and(
          eq(contactChannels.projectId, sql.placeholder("projectId")),
          eq(contactChannels.type, "email"),
          eq(contactChannels.normalized, sql.placeholder("email")),
          eq(contactChannels.usedForAuth, true),
        ),
      );
  const authChannel = perDatabase((executor) => authChannelQuery(executor, {}).prepare("user_by_auth_email"));
  // Every password sign-in runs it: the user, and what the new-device notice asks of the user's known devices
  // (trust/new-device.ts), in one statement.
  const passwordSignInUser = perDatabase((executor) =>
    authChannelQuery(executor, {
      deviceAny: sql<boolean>`exists (select 1 from ${knownDevices} k where k.user_id = ${users.id})`,
      deviceSame: sql<boolean>`exists (select 1 from ${knownDevices} k where k.user_id = ${users.id} and k.device_hash = ${sql.placeholder("deviceHash")})`,
    }).prepare("user_by_auth_email_with_device"),
  );
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
      // Ids from requests are any text: one that is not a UUID names no user, and must not reach the uuid column,
      // where PostgreSQL refuses it (a 500 instead of "no such user").
      if (!isUuid(userId)) return undefined;
      const [row] = await executor
        .select(USER_COLUMNS)
        .from(users)
        .leftJoin(...USER_JOINS.primary)
        .leftJoin(...USER_JOINS.team)
        .where(and(eq(users.projectId, projectId), eq(users.id, userId)));
      return row && toUserRecord(row);
    },

    /** Several users of the project in one query (a bulk import's new users), in no particular order. */
    async findMany(projectId: string, userIds: string[], executor: Db = db): Promise<UserRecord[]> {
      const ids = userIds.filter(isUuid);
      if (ids.length === 0) return [];
      const rows = await executor
        .select(USER_COLUMNS)
        .from(users)
        .leftJoin(...USER_JOINS.primary)
        .leftJoin(...USER_JOINS.team)
        .where(and(eq(users.projectId, projectId), inArray(users.id, ids)));
      return rows.map(toUserRecord);
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
      const [row] = await authChannel(executor).execute({ projectId, email: email.toLowerCase() });
      return row && { channel: row.channel, user: toUserRecord(row) };
    },

    /** findByAuthEmail, with whether the user has known devices and this one (its hash) among them. */
    async findForPasswordSignIn(
      projectId: string,
      email: string,
      deviceHash: string,
    ): Promise<{ user: UserRecord; knownDevice: KnownDevice } | undefined> {
      const [row] = await passwordSignInUser(db).execute({
        projectId,
        email: email.toLowerCase(),
        deviceHash,
      });
      return row && { user: toUserRecord(row), knownDevice: { any: row.deviceAny, same: row.deviceSame } };
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

    /** False when there was no such user. */
    async delete(tx: Db, userId: string): Promise<boolean> {
      // Sessions, contact channels, memberships, grants and provider accounts go with the user (ON DELETE CASCADE).
      const deleted = await tx.delete(users).where(eq(users.id, userId)).returning({ id: users.id });
      return deleted.length > 0;
    },

    async markChannelVerified(tx: Db, channelId: string): Promise<void> {
      await tx.update(contactChannels).set({ isVerified: true }).where(eq(contactChannels.id, channelId));
    },

    /** Inserts the user and answers the row as stored (defaults and the insert trigger's search text applied). */
    async insert(tx: Db, row: typeof users.$inferInsert): Promise<UserRow> {
      const [inserted] = await tx.insert(users).values(row).returning();
      if (!inserted) throw new Error("User insert returned no row");
      return inserted;
    },

    /** Many users in one statement (a bulk import). */
    async insertMany(tx: Db, rows: (typeof users.$inferInsert)[]): Promise<void> {
      await insertByColumns(tx, users, rows);
    },

    async update(tx: Db, userId: string, changes: Partial<typeof users.$inferInsert>): Promise<void> {
      await tx.update(users).set(changes).where(eq(users.id, userId));
    },

    /** One or many channels in one statement. */
    async insertChannel(
      tx: Db,
      rows: typeof contactChannels.$inferInsert | (typeof contactChannels.$inferInsert)[],
    ): Promise<void> {
      if (Array.isArray(rows)) await insertByColumns(tx, contactChannels, rows);
      else await tx.insert(contactChannels).values(rows);
    },

    /**
     * Locks the user's row for the rest of the transaction; false when the project has no such user. Every change
     * to a user and its channels takes this lock first, so per-user checks (the same value twice, one primary)
     * cannot race. `no key update` leaves rows that only reference the user (a new session) unblocked.
     */
    async lockUser(tx: Db, projectId: string, userId: string): Promise<boolean> {
      const rows = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.projectId, projectId), eq(users.id, userId)))
        .for("no key update");
      return rows.length > 0;
    },

    /** The user's primary e-mail channel, read in the caller's transaction. */
    async findPrimaryChannel(executor: Db, userId: string): Promise<ChannelRow | undefined> {
      const [channel] = await executor
        .select()
        .from(contactChannels)
        .where(
          and(
            eq(contactChannels.userId, userId),
            eq(contactChannels.type, "email"),
            eq(contactChannels.isPrimary, true),
          ),
        );
      return channel;
    },

    /** Replaces the hash only if it still is `old`: a password changed since it was verified stays changed. */
    async replacePasswordHash(tx: Db, userId: string, old: string, replacement: string): Promise<void> {
      await tx
        .update(users)
        .set({ passwordHash: replacement })
        .where(and(eq(users.id, userId), eq(users.passwordHash, old)));
    },

    /**
     * One page of users and the id of the first user of the next page; undefined when the cursor names no user of
     * the project (it was deleted meanwhile).
     */
    async list(
      projectId: string,
      o: UserListOptions,
    ): Promise<{ users: UserRecord[]; nextCursor: string | null } | undefined> {
      const rows = await userListQuery(db, projectId, o);
      if (rows.length === 0 && o.cursor && !(await this.find(projectId, o.cursor))) return undefined;
      const next = rows[o.limit];
      return { users: rows.slice(0, o.limit).map(toUserRecord), nextCursor: next ? next.user.id : null };
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
