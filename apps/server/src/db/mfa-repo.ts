// Rows of the TOTP second factor: the last time step a user signed in with (replay protection) and the user's
// recovery codes. Every method runs in the caller's transaction.
import { randomUUID } from "node:crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "./client.ts";
import { mfaRecoveryCodes, users } from "./schema.ts";

export function createMfaRepo() {
  return {
    /**
     * Records `step` as the user's last used TOTP step if it is later than the one recorded. False when it is not:
     * the value was used already. One conditional UPDATE, so of two concurrent uses of one value only one wins.
     */
    async claimTotpStep(tx: Db, userId: string, step: number): Promise<boolean> {
      const rows = await tx
        .update(users)
        .set({ totpLastUsedStep: step })
        .where(
          and(eq(users.id, userId), or(isNull(users.totpLastUsedStep), lt(users.totpLastUsedStep, step))),
        )
        .returning({ id: users.id });
      return rows.length > 0;
    },

    /** Replaces every recovery code of the user with these, bound to the secret of `totpSecretHash`. */
    async replaceRecoveryCodes(
      tx: Db,
      input: { projectId: string; userId: string; totpSecretHash: string; codeHashes: string[]; now: Date },
    ): Promise<void> {
      await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, input.userId));
      await tx.insert(mfaRecoveryCodes).values(
        input.codeHashes.map((codeHash) => ({
          id: randomUUID(),
          projectId: input.projectId,
          userId: input.userId,
          totpSecretHash: input.totpSecretHash,
          codeHash,
          createdAt: input.now,
        })),
      );
    },

    /** Marks an unused code of the user and this secret used; false when there is none. */
    async markRecoveryCodeUsed(
      tx: Db,
      input: { userId: string; totpSecretHash: string; codeHash: string; now: Date },
    ): Promise<boolean> {
      const rows = await tx
        .update(mfaRecoveryCodes)
        .set({ usedAt: input.now })
        .where(
          and(
            eq(mfaRecoveryCodes.userId, input.userId),
            eq(mfaRecoveryCodes.totpSecretHash, input.totpSecretHash),
            eq(mfaRecoveryCodes.codeHash, input.codeHash),
            isNull(mfaRecoveryCodes.usedAt),
          ),
        )
        .returning({ id: mfaRecoveryCodes.id });
      return rows.length > 0;
    },
  };
}

export type MfaRepo = ReturnType<typeof createMfaRepo>;
