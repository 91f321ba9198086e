// Data vault rows: one sealed value per project, store and hashed key (the key itself never reaches the server).
import { and, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { dataVaultEntries } from "./schema.ts";

export function createDataVaultRepo(db: Db) {
  return {
    async find(projectId: string, storeId: string, hashedKey: string): Promise<string | undefined> {
      const [row] = await db
        .select({ sealedValue: dataVaultEntries.sealedValue })
        .from(dataVaultEntries)
        .where(
          and(
            eq(dataVaultEntries.projectId, projectId),
            eq(dataVaultEntries.storeId, storeId),
            eq(dataVaultEntries.hashedKey, hashedKey),
          ),
        );
      return row?.sealedValue;
    },

    async upsert(projectId: string, storeId: string, hashedKey: string, sealedValue: string, now: Date) {
      await db
        .insert(dataVaultEntries)
        .values({ projectId, storeId, hashedKey, sealedValue, updatedAt: now })
        .onConflictDoUpdate({
          target: [dataVaultEntries.projectId, dataVaultEntries.storeId, dataVaultEntries.hashedKey],
          set: { sealedValue, updatedAt: now },
        });
    },
  };
}
