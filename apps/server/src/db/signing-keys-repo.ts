// Signing key rows: the published keys of a project, and lookup by key id for verification.
import { isStorableText } from "@gatehouse/contract";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "./client.ts";
import { signingKeys } from "./schema.ts";

export type SigningKeyRow = typeof signingKeys.$inferSelect;
export type NewSigningKeyRow = typeof signingKeys.$inferInsert;

export function createSigningKeysRepo(db: Db) {
  return {
    async insert(tx: Db, rows: NewSigningKeyRow[]): Promise<void> {
      await tx.insert(signingKeys).values(rows);
    },
    async find(kid: string): Promise<SigningKeyRow | undefined> {
      // The kid comes from the header of a token not yet verified (it names the key to verify with): a forged one
      // with text PostgreSQL cannot store names no key, instead of failing the query with a 500.
      if (!isStorableText(kid)) return undefined;
      const [row] = await db.select().from(signingKeys).where(eq(signingKeys.id, kid));
      return row;
    },
    /** Keys still in the JWKS (not retired), oldest first. Inside a transaction, pass it as `executor`. */
    async published(projectId: string, executor: Db = db): Promise<SigningKeyRow[]> {
      return executor
        .select()
        .from(signingKeys)
        .where(and(eq(signingKeys.projectId, projectId), isNull(signingKeys.retiredAt)))
        .orderBy(asc(signingKeys.createdAt));
    },
    async retire(tx: Db, kid: string, at: Date): Promise<void> {
      await tx.update(signingKeys).set({ retiredAt: at }).where(eq(signingKeys.id, kid));
    },
  };
}

export type SigningKeysRepo = ReturnType<typeof createSigningKeysRepo>;
