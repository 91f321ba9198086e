// Session rows. Refresh tokens are looked up by their SHA-256 hash.
import { and, desc, eq, getTableColumns, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import { type Db, inTransaction } from "./client.ts";
import { endOpSessions } from "./oidc-sessions.ts";
import { preparedSql } from "./prepared.ts";
import { oidcPayloads, retiredRefreshTokens, sessions, users } from "./schema.ts";
import { isUuid } from "./users-repo.ts";

export type SessionRow = typeof sessions.$inferSelect;
/** A new session with every column given. */
export type NewSession = Required<typeof sessions.$inferInsert>;
/** What else the statement that inserts a session writes, only when it made the session (its audit entry). */
export type Alongside = {
  /** Parts of one name build the same SQL: the statement is prepared once per combination of names. */
  name: string;
  /**
   * Common table expressions following the one named `made` (`, name as (…)…`), reading from it, with placeholders
   * only (prefixed with `name`): values go in `values`.
   */
  build: (made: SQL) => SQL;
  values: Record<string, unknown>;
};
const sessionColumns = getTableColumns(sessions);

/** `now` dates the back-channel logout notices of OP sessions that end with a session (the real clock if none). */
export function createSessionsRepo(db: Db, now: () => Date = () => new Date()) {
  // A session inserted from its user's row, read FOR SHARE: every column a typed placeholder in table order (drizzle
  // checks the order; a bare parameter in a select list is text), and the user's id from the locked row. Rendered
  // only: the statements below run it.
  const unlessBanned = () => {
    const selection = Object.fromEntries(
      Object.entries(sessionColumns).map(([key, column]) => [
        key,
        key === "userId"
          ? users.id
          : sql`${sql.placeholder(key)}::${sql.raw(column.getSQLType())}`.as(column.name),
      ]),
    ) as unknown as Record<keyof NewSession, typeof users.id>;
    return db
      .insert(sessions)
      .select((qb) =>
        qb
          .select(selection)
          .from(users)
          .where(and(eq(users.id, sql.placeholder("userId")), eq(users.restrictedByAdmin, false)))
          .for("share"),
      )
      .returning({ id: sessions.id })
      .getSQL();
  };
  // Every sign-in runs one: a statement per combination of the parts' names, its text built once per process.
  const statements = new Map<string, ReturnType<typeof preparedSql>>();
  const statementWith = (alongside: Alongside[]) => {
    const names = alongside.map((part) => part.name).join("_");
    let statement = statements.get(names);
    if (!statement) {
      const opened = sql.raw("opened");
      const parts = sql.join(
        alongside.map((part) => part.build(opened)),
        sql` `,
      );
      statement = preparedSql(
        names ? `session_insert_with_${names}` : "session_insert_unless_banned",
        () => sql`with ${opened} as (${unlessBanned()}) ${parts} select 1 from ${opened}`,
      );
      statements.set(names, statement);
    }
    return statement;
  };
  return {
    /**
     * Inserts the session only while its user exists and is not restricted by an administrator (banned); false
     * when it did not. One statement, so it needs no transaction around it: the user row is read FOR SHARE, which
     * waits for a ban under way (users-repo lockUser) and then sees it, while a ban that starts after this takes
     * its turn and ends the session it finds. `alongside`: what else the same statement writes when the session
     * was inserted (its audit entry, a new user's first device), saving a round trip each on every sign-in.
     */
    async insertUnlessBanned(tx: Db, row: NewSession, alongside: Alongside[] = []): Promise<boolean> {
      const values: Record<string, unknown> = Object.fromEntries(
        Object.entries(sessionColumns).map(([key, column]) => [
          key,
          column.mapToDriverValue(row[key as keyof NewSession]),
        ]),
      );
      const rows = await statementWith(alongside)(
        tx,
        Object.assign(values, ...alongside.map((part) => part.values)),
      );
      return rows.length > 0;
    },
    async find(projectId: string, id: string): Promise<SessionRow | undefined> {
      // Ids from requests are any text; one that is not a UUID names no session and must not reach the uuid column.
      if (!isUuid(id)) return undefined;
      const [row] = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.projectId, projectId), eq(sessions.id, id)));
      return row;
    },
    async listForUser(projectId: string, userId: string): Promise<SessionRow[]> {
      if (!isUuid(userId)) return [];
      return db
        .select()
        .from(sessions)
        .where(and(eq(sessions.projectId, projectId), eq(sessions.userId, userId)))
        .orderBy(desc(sessions.createdAt));
    },
    /**
     * Records uses of sessions, and their users' last activity, in one statement. Times only move forward, so an
     * older batch written late cannot undo a newer one. An impersonation's use is not the user's activity: an
     * operator looking around as the user leaves their last-active time (and the active-user counts) alone.
     */
    async touchMany(uses: { sessionId: string; at: Date }[]): Promise<void> {
      if (uses.length === 0) return;
      const values = sql.join(
        uses.map((u) => sql`(${u.sessionId}::uuid, ${u.at.toISOString()}::timestamptz)`),
        sql`, `,
      );
      await db.execute(sql`
        with used(id, at) as (values ${values}),
        touched as (
          update ${sessions} s set last_used_at = greatest(s.last_used_at, used.at)
          from used where s.id = used.id
          returning s.user_id, used.at, s.is_impersonation
        )
        update ${users} u set last_active_at = greatest(u.last_active_at, latest.at)
        from (select user_id, max(at) as at from touched where not is_impersonation group by user_id) latest
        where u.id = latest.user_id`);
    },
    /**
     * Replaces a session's refresh token (rotation), keeping the old one's hash to recognise a replay. Repeating it
     * with the same tokens changes nothing, so two refreshes racing with one token agree.
     */
    async rotate(id: string, oldHash: string, newHash: string, at: Date): Promise<void> {
      await inTransaction(db, async (tx) => {
        await tx.update(sessions).set({ refreshTokenHash: newHash }).where(eq(sessions.id, id));
        await tx
          .insert(retiredRefreshTokens)
          .values({ hash: oldHash, sessionId: id, retiredAt: at })
          .onConflictDoNothing();
      });
    },

    async findRetired(hash: string) {
      const [row] = await db.select().from(retiredRefreshTokens).where(eq(retiredRefreshTokens.hash, hash));
      return row;
    },

    /** Answers whether there was such a session. [GO] The OP sessions signed in from it end with it. */
    async delete(tx: Db, id: string): Promise<boolean> {
      await endOpSessions(tx, eq(oidcPayloads.gatehouseSessionId, id), now());
      const gone = await tx.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id });
      return gone.length > 0;
    },
    /**
     * Ends every session of the user except `keep` (all of them when `keep` is undefined), and [GO] everything they
     * hold at the project's OpenID Provider (its sessions, grants and tokens, oidc-provider/): a ban, a password reset
     * or "sign out everywhere" must also sign them out of the apps they signed in to through Gatehouse.
     */
    async deleteForUser(tx: Db, userId: string, keep?: string): Promise<void> {
      await tx
        .delete(sessions)
        .where(keep ? and(eq(sessions.userId, userId), ne(sessions.id, keep)) : eq(sessions.userId, userId));
      // With `keep`, the OP sessions of the kept session stay; every other one ends and its apps are told.
      await endOpSessions(
        tx,
        and(
          eq(oidcPayloads.accountId, userId),
          keep
            ? or(isNull(oidcPayloads.gatehouseSessionId), ne(oidcPayloads.gatehouseSessionId, keep))
            : undefined,
        ),
        now(),
      );
      await tx
        .delete(oidcPayloads)
        .where(and(eq(oidcPayloads.accountId, userId), ne(oidcPayloads.model, "Session")));
    },
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
