// API key set rows. Keys are looked up by the SHA-256 hash of the presented value, never compared in plaintext.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
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

export function createApiKeysRepo(db: Db) {
  // One prepared statement per key kind: this runs on every authenticated request.
  const prepareValid = (column: KeyColumn) =>
    db
      .select({ id: apiKeySets.id })
      .from(apiKeySets)
      .where(
        and(
          eq(apiKeySets.projectId, sql.placeholder("projectId")),
          eq(apiKeySets[column], sql.placeholder("hash")),
          isNull(apiKeySets.manuallyRevokedAt),
          gt(apiKeySets.expiresAt, sql.placeholder("now")),
        ),
      )
      .prepare(`valid_key_${column}`);
  const valid = {
    publishableClientKeyHash: prepareValid("publishableClientKeyHash"),
    secretServerKeyHash: prepareValid("secretServerKeyHash"),
    superSecretAdminKeyHash: prepareValid("superSecretAdminKeyHash"),
  };
  return {
    async isValid(projectId: string, column: KeyColumn, hash: string, now: Date): Promise<boolean> {
      const rows = await valid[column].execute({ projectId, hash, now: now.toISOString() });
      return rows.length > 0;
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
