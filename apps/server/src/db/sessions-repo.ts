// Session rows. Refresh tokens are looked up by their SHA-256 hash.
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { sessions, users } from "./schema.ts";

export type SessionRow = typeof sessions.$inferSelect;

export function createSessionsRepo(db: Db) {
  return {
    async insert(tx: Db, row: typeof sessions.$inferInsert): Promise<void> {
      await tx.insert(sessions).values(row);
    },
    async findByRefreshHash(projectId: string, hash: string): Promise<SessionRow | undefined> {
      const [row] = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.projectId, projectId), eq(sessions.refreshTokenHash, hash)));
      return row;
    },
    async find(projectId: string, id: string): Promise<SessionRow | undefined> {
      const [row] = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.projectId, projectId), eq(sessions.id, id)));
      return row;
    },
    async listForUser(projectId: string, userId: string): Promise<SessionRow[]> {
      return db
        .select()
        .from(sessions)
        .where(and(eq(sessions.projectId, projectId), eq(sessions.userId, userId)))
        .orderBy(desc(sessions.createdAt));
    },
    /** Records a use on the session and its user's last activity in one statement (one round trip). */
    async touch(id: string, at: Date): Promise<void> {
      await db.execute(sql`
        with touched as (
          update ${sessions} set last_used_at = ${at.toISOString()} where id = ${id} returning user_id
        )
        update ${users} set last_active_at = ${at.toISOString()} from touched where ${users.id} = touched.user_id`);
    },
    async delete(tx: Db, id: string): Promise<void> {
      await tx.delete(sessions).where(eq(sessions.id, id));
    },
    /** Ends every session of the user except `keep` (all of them when `keep` is undefined). */
    async deleteForUser(tx: Db, userId: string, keep?: string): Promise<void> {
      await tx
        .delete(sessions)
        .where(keep ? and(eq(sessions.userId, userId), ne(sessions.id, keep)) : eq(sessions.userId, userId));
    },
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
