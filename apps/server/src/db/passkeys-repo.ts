// Rows of users' passkeys (WIRE.md §4.4): at most one per user, found at sign-in by its credential id within the
// project. Every method runs in the caller's transaction.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { passkeys } from "./schema.ts";

export type PasskeyRow = typeof passkeys.$inferSelect;

export type NewPasskey = Pick<
  PasskeyRow,
  "projectId" | "userId" | "credentialId" | "publicKey" | "counter" | "transports" | "createdAt"
>;

export function createPasskeysRepo() {
  return {
    /** The passkey with this credential id in the project, locked until the transaction ends (counter update). */
    async findByCredentialId(
      tx: Db,
      projectId: string,
      credentialId: string,
    ): Promise<PasskeyRow | undefined> {
      const [row] = await tx
        .select()
        .from(passkeys)
        .where(and(eq(passkeys.projectId, projectId), eq(passkeys.credentialId, credentialId)))
        .for("update");
      return row;
    },

    /** Stores the user's passkey; an earlier one of the user is replaced (one per user). */
    async replace(tx: Db, passkey: NewPasskey): Promise<void> {
      const fresh = { ...passkey, lastUsedAt: null };
      await tx
        .insert(passkeys)
        .values({ id: randomUUID(), ...fresh })
        .onConflictDoUpdate({ target: passkeys.userId, set: fresh });
    },

    /** Records a sign-in: the authenticator's new signature counter and when. */
    async recordUse(tx: Db, id: string, counter: number, now: Date): Promise<void> {
      await tx.update(passkeys).set({ counter, lastUsedAt: now }).where(eq(passkeys.id, id));
    },

    /** Removes the user's passkey, if any. */
    async removeForUser(tx: Db, userId: string): Promise<void> {
      await tx.delete(passkeys).where(eq(passkeys.userId, userId));
    },
  };
}

export type PasskeysRepo = ReturnType<typeof createPasskeysRepo>;
