// API key set rows. Keys are stored as SHA-256 hashes; a presented key is checked by hash in db/request-repo.ts.
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
