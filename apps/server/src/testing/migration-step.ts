// One statement of a migration file, as the migrator runs it (statements are split at the breakpoints): the tests
// of a migration's data step run it against data made the way an older version left it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS_FOLDER } from "../db/client.ts";

/** The statement of `file` that contains `marker`; undefined when there is none. */
export function migrationStatement(file: string, marker: string): string | undefined {
  return readFileSync(join(MIGRATIONS_FOLDER, file), "utf8")
    .split("--> statement-breakpoint")
    .map((statement) => statement.trim())
    .find((statement) => statement.includes(marker));
}
