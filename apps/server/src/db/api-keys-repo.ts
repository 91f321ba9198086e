// API key set rows. Keys are stored as SHA-256 hashes; a presented key is checked by hash in db/request-repo.ts.
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { apiKeySets } from "./schema.ts";

export type ApiKeySetRow = typeof apiKeySets.$inferSelect;
export type NewApiKeySetRow = typeof apiKeySets.$inferInsert;
export type KeyColumn = "publishableClientKeyHash" | "secretServerKeyHash" | "superSecretAdminKeyHash";

/** The column holding each kind of key's hash. */
export const KEY_HASH_COLUMNS = {
  pck: "publishableClientKeyHash",
  ssk: "secretServerKeyHash",
  sak: "superSecretAdminKeyHash",
} as const satisfies Record<string, KeyColumn>;

export function createApiKeysRepo() {
  return {
    /** The project's key sets, newest first. */
    list(executor: Db, projectId: string): Promise<ApiKeySetRow[]> {
      return executor
        .select()
        .from(apiKeySets)
        .where(eq(apiKeySets.projectId, projectId))
        .orderBy(desc(apiKeySets.createdAt), desc(apiKeySets.id));
    },

    async find(executor: Db, projectId: string, id: string): Promise<ApiKeySetRow | undefined> {
      const [row] = await executor
        .select()
        .from(apiKeySets)
        .where(and(eq(apiKeySets.projectId, projectId), eq(apiKeySets.id, id)));
      return row;
    },

    async update(
      tx: Db,
      projectId: string,
      id: string,
      changes: Partial<Pick<ApiKeySetRow, "description" | "manuallyRevokedAt">>,
    ): Promise<ApiKeySetRow | undefined> {
      const [row] = await tx
        .update(apiKeySets)
        .set(changes)
        .where(and(eq(apiKeySets.projectId, projectId), eq(apiKeySets.id, id)))
        .returning();
      return row;
    },

    async upsert(tx: Db, row: NewApiKeySetRow): Promise<ApiKeySetRow> {
      const { id: _id, ...changes } = row;
      const [saved] = await tx
        .insert(apiKeySets)
        .values(row)
        .onConflictDoUpdate({ target: apiKeySets.id, set: changes })
        .returning();
      if (!saved) throw new Error("API key set upsert returned no row");
      return saved;
    },
  };
}

export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
