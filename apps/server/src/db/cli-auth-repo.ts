// Storage of CLI login attempts (Stack's `/auth/cli`): rows found by the hash of either code, and the two one-way
// transitions (confirmed by a user, then used by the poll) as conditional UPDATEs so that of two racing requests
// only one wins.
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "./client.ts";
import { cliAuthAttempts } from "./schema.ts";

export type CliAuthAttempt = typeof cliAuthAttempts.$inferSelect;

export function createCliAuthRepo(db: Db) {
  return {
    insert: (row: typeof cliAuthAttempts.$inferInsert) => db.insert(cliAuthAttempts).values(row),

    async findByPollingHash(projectId: string, hash: string): Promise<CliAuthAttempt | undefined> {
      const [row] = await db
        .select()
        .from(cliAuthAttempts)
        .where(and(eq(cliAuthAttempts.projectId, projectId), eq(cliAuthAttempts.pollingCodeHash, hash)));
      return row;
    },

    async findByLoginHash(projectId: string, hash: string): Promise<CliAuthAttempt | undefined> {
      const [row] = await db
        .select()
        .from(cliAuthAttempts)
        .where(and(eq(cliAuthAttempts.projectId, projectId), eq(cliAuthAttempts.loginCodeHash, hash)));
      return row;
    },

    /** Pending → confirmed by `userId`; the CLI's anonymous user is forgotten (never merged). False if lost. */
    async complete(id: string, userId: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(cliAuthAttempts)
        .set({ userId, completedAt: now, anonUserId: null })
        .where(and(eq(cliAuthAttempts.id, id), pending(now)))
        .returning({ id: cliAuthAttempts.id });
      return rows.length > 0;
    },

    /** Takes the anonymous user off a pending attempt, once: the claim cannot be replayed. */
    async claimAnonymous(id: string, anonUserId: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(cliAuthAttempts)
        .set({ anonUserId: null })
        .where(and(eq(cliAuthAttempts.id, id), eq(cliAuthAttempts.anonUserId, anonUserId), pending(now)))
        .returning({ id: cliAuthAttempts.id });
      return rows.length > 0;
    },

    /** Confirmed → used, in the caller's transaction (with the CLI's new session). False if already used. */
    async markUsed(tx: Db, id: string, now: Date): Promise<boolean> {
      const rows = await tx
        .update(cliAuthAttempts)
        .set({ usedAt: now })
        .where(and(eq(cliAuthAttempts.id, id), isNull(cliAuthAttempts.usedAt)))
        .returning({ id: cliAuthAttempts.id });
      return rows.length > 0;
    },
  };
}

/** Not yet confirmed, not used, not expired. */
const pending = (now: Date) =>
  and(isNull(cliAuthAttempts.userId), isNull(cliAuthAttempts.usedAt), gt(cliAuthAttempts.expiresAt, now));

export type CliAuthRepo = ReturnType<typeof createCliAuthRepo>;
