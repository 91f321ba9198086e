// Storage of config-as-code overrides: one row per project and level, the override sealed by the caller.
import type { ConfigLevel } from "@gatehouse/contract";
import { and, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { configOverrides } from "./schema.ts";

export type ConfigOverrideRow = typeof configOverrides.$inferSelect;

export function createConfigOverridesRepo() {
  return {
    list: (executor: Db, projectId: string): Promise<ConfigOverrideRow[]> =>
      executor.select().from(configOverrides).where(eq(configOverrides.projectId, projectId)),

    async save(
      executor: Db,
      row: {
        projectId: string;
        level: ConfigLevel;
        sealedConfig: string;
        source?: Record<string, unknown> | null;
      },
      now: Date,
    ): Promise<void> {
      const source = row.source === undefined ? {} : { source: row.source };
      await executor
        .insert(configOverrides)
        .values({ ...row, source: row.source ?? null, updatedAt: now })
        .onConflictDoUpdate({
          target: [configOverrides.projectId, configOverrides.level],
          set: { sealedConfig: row.sealedConfig, updatedAt: now, ...source },
        });
    },

    async setSource(executor: Db, projectId: string, level: ConfigLevel, source: Record<string, unknown>) {
      await executor
        .update(configOverrides)
        .set({ source })
        .where(and(eq(configOverrides.projectId, projectId), eq(configOverrides.level, level)));
    },
  };
}

export type ConfigOverridesRepo = ReturnType<typeof createConfigOverridesRepo>;
