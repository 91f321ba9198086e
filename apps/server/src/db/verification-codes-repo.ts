// Verification code rows (WIRE.md §5.1). Codes are found by the SHA-256 of the code and counted by the SHA-256 of
// its nonce; the plaintext never reaches the database.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { verificationCodes } from "./schema.ts";

export type VerificationCodeRow = typeof verificationCodes.$inferSelect;
export type NewVerificationCodeRow = typeof verificationCodes.$inferInsert;

/**
 * Every method takes the executor it runs on, so the transaction boundary is visible at the call site:
 * `insert` and `markUsed` belong in a transaction, `bumpAttempts` must not be in one that can roll back.
 */
export function createVerificationCodesRepo() {
  return {
    async insert(tx: Db, row: NewVerificationCodeRow): Promise<VerificationCodeRow> {
      const [created] = await tx.insert(verificationCodes).values(row).returning();
      if (!created) throw new Error("Verification code insert returned no row");
      return created;
    },

    /** Adds 1 to the attempts of every live code of the project with this nonce, whatever its purpose. */
    async bumpAttempts(db: Db, projectId: string, nonceHash: string, now: Date): Promise<void> {
      await db
        .update(verificationCodes)
        .set({ attempts: sql`${verificationCodes.attempts} + 1` })
        .where(
          and(
            eq(verificationCodes.projectId, projectId),
            eq(verificationCodes.nonceHash, nonceHash),
            isNull(verificationCodes.usedAt),
            gt(verificationCodes.expiresAt, now),
          ),
        );
    },

    async find(
      db: Db,
      projectId: string,
      purpose: string,
      codeHash: string,
    ): Promise<VerificationCodeRow | undefined> {
      const [row] = await db
        .select()
        .from(verificationCodes)
        .where(
          and(
            eq(verificationCodes.projectId, projectId),
            eq(verificationCodes.purpose, purpose),
            eq(verificationCodes.codeHash, codeHash),
          ),
        );
      return row;
    },

    /** By hash alone, in any project: for codes whose project the caller cannot know. */
    async findAnywhere(db: Db, purpose: string, codeHash: string): Promise<VerificationCodeRow | undefined> {
      const [row] = await db
        .select()
        .from(verificationCodes)
        .where(and(eq(verificationCodes.purpose, purpose), eq(verificationCodes.codeHash, codeHash)));
      return row;
    },

    /** Adds keys to a code's data (what using it produced, e.g. the session an exchange opened). */
    async mergeData(tx: Db, id: string, data: Record<string, unknown>): Promise<void> {
      await tx
        .update(verificationCodes)
        .set({ data: sql`${verificationCodes.data} || ${JSON.stringify(data)}::jsonb` })
        .where(eq(verificationCodes.id, id));
    },

    /**
     * Sets used_at only if it is still unset. The row lock makes a concurrent second use wait, re-read used_at and
     * match nothing, so at most one caller gets the row back.
     */
    async markUsed(tx: Db, id: string, now: Date): Promise<VerificationCodeRow | undefined> {
      const [row] = await tx
        .update(verificationCodes)
        .set({ usedAt: now })
        .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.usedAt)))
        .returning();
      return row;
    },
  };
}

export type VerificationCodesRepo = ReturnType<typeof createVerificationCodesRepo>;
