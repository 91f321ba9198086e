// Readiness: the database answers and carries every migration this build ships (a process of a newer build started
// before its migrations ran, or a database restored from an old backup, is not ready to serve).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { type Database, MIGRATIONS_FOLDER } from "../db/client.ts";

export type Readiness =
  | { ready: true }
  | { ready: false; reason: "database unreachable" | "migrations pending" };

/** The `when` of the newest migration in drizzle's journal: drizzle records it as `created_at` once applied. */
function newestMigration(folder: string): number {
  const journal = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((e) => e.when));
}

export function createReadinessCheck(database: Pick<Database, "db">, folder = MIGRATIONS_FOLDER) {
  const newest = newestMigration(folder);
  return async (): Promise<Readiness> => {
    let applied: number;
    try {
      const result = await database.db.execute(
        sql`select coalesce(max(created_at), 0) as applied from drizzle.__drizzle_migrations`,
      );
      applied = Number((result as unknown as { rows: { applied: string | number }[] }).rows[0]?.applied ?? 0);
    } catch (error) {
      // No migrations table yet is "not migrated", anything else an unreachable database.
      if (
        /__drizzle_migrations|schema "drizzle"/.test(String((error as { cause?: unknown }).cause ?? error))
      ) {
        return { ready: false, reason: "migrations pending" };
      }
      return { ready: false, reason: "database unreachable" };
    }
    return applied >= newest ? { ready: true } : { ready: false, reason: "migrations pending" };
  };
}
