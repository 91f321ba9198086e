// Where the server's database is, read from the same environment variables as the server (config.ts).
import { resolve } from "node:path";

export type Location = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

export function databaseLocation(env: NodeJS.ProcessEnv = process.env): Location {
  if (env.DATABASE_URL) return { kind: "postgres", url: env.DATABASE_URL };
  return { kind: "pglite", dataDir: resolve(env.GATEHOUSE_DATA_DIR ?? ".gatehouse") };
}
