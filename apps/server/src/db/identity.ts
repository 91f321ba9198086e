// What tells one Gatehouse install from another when they share an outside store (Redis): its database. Every
// process of an install opens the same database, and two installs never do, so the database's identity, hashed, is
// the default start of the install's Redis keys (GATEHOUSE_REDIS_PREFIX overrides it).
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";

/**
 * The cluster's system identifier (random, set by initdb; readable without superuser rights, on PGlite too), the
 * database's name within the cluster and the schema: together they name one database. A copy made from a physical
 * backup or a disk snapshot keeps the cluster's identifier, so such a copy that shares a Redis with its original
 * needs GATEHOUSE_REDIS_PREFIX (docs/production.md).
 */
export async function databaseIdentity(db: Db): Promise<string> {
  const result = await db.execute(sql`
    select system_identifier::text as system, current_database() as database, current_schema() as schema
      from pg_control_system()`);
  // pg answers { rows }, PGlite's drizzle driver the same shape.
  const row = (result as unknown as { rows: Array<Record<string, string>> }).rows[0];
  if (!row) throw new Error("pg_control_system() answered no row");
  const digest = createHash("sha256").update(`${row.system}/${row.database}/${row.schema}`).digest("hex");
  return digest.slice(0, 16);
}
