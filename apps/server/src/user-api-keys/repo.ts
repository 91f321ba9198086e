// Rows of user and team API keys. Keys are stored as SHA-256 hashes; a presented key is found by its hash.
import { and, desc, eq, isNotNull, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { ownedApiKeys } from "../db/schema.ts";

export type OwnedApiKeyRow = typeof ownedApiKeys.$inferSelect;
export type NewOwnedApiKeyRow = typeof ownedApiKeys.$inferInsert;

/** Whose keys: a user's or a team's. */
export type KeyOwner = { userId: string } | { teamId: string };

const ownerFilter = (owner: KeyOwner): SQL =>
  "userId" in owner ? eq(ownedApiKeys.userId, owner.userId) : eq(ownedApiKeys.teamId, owner.teamId);

export function createOwnedApiKeysRepo() {
  return {
    /** The owner's keys, newest first. */
    list(executor: Db, projectId: string, owner: KeyOwner): Promise<OwnedApiKeyRow[]> {
      return executor
        .select()
        .from(ownedApiKeys)
        .where(and(eq(ownedApiKeys.projectId, projectId), ownerFilter(owner)))
        .orderBy(desc(ownedApiKeys.createdAt), desc(ownedApiKeys.id));
    },

    /** A key of the project by id, if it is of the given type (a user key is not found as a team key). */
    async find(
      executor: Db,
      projectId: string,
      id: string,
      type: "user" | "team",
    ): Promise<OwnedApiKeyRow | undefined> {
      const [row] = await executor
        .select()
        .from(ownedApiKeys)
        .where(
          and(
            eq(ownedApiKeys.projectId, projectId),
            eq(ownedApiKeys.id, id),
            isNotNull(type === "user" ? ownedApiKeys.userId : ownedApiKeys.teamId),
          ),
        );
      return row;
    },

    /** A key of the project by the hash of its text. */
    async findByHash(executor: Db, projectId: string, keyHash: string): Promise<OwnedApiKeyRow | undefined> {
      const [row] = await executor
        .select()
        .from(ownedApiKeys)
        .where(and(eq(ownedApiKeys.projectId, projectId), eq(ownedApiKeys.keyHash, keyHash)));
      return row;
    },

    async insert(tx: Db, row: NewOwnedApiKeyRow): Promise<OwnedApiKeyRow> {
      const [saved] = await tx.insert(ownedApiKeys).values(row).returning();
      if (!saved) throw new Error("Owned API key insert returned no row");
      return saved;
    },

    async update(
      tx: Db,
      projectId: string,
      id: string,
      changes: Partial<Pick<OwnedApiKeyRow, "description" | "expiresAt" | "manuallyRevokedAt">>,
    ): Promise<OwnedApiKeyRow | undefined> {
      const [row] = await tx
        .update(ownedApiKeys)
        .set(changes)
        .where(and(eq(ownedApiKeys.projectId, projectId), eq(ownedApiKeys.id, id)))
        .returning();
      return row;
    },
  };
}

export type OwnedApiKeysRepo = ReturnType<typeof createOwnedApiKeysRepo>;
