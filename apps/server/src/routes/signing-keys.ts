// [GO] Signing keys of the caller's project (issue 23): the published keys with their state, and a rotation in one
// transaction (the service publishes, retires, and tells other processes through the change feed).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
  listSigningKeysRoute,
  rotateSigningKeysRoute,
  type SigningKeyView,
  serverStatusRoute,
} from "@gatehouse/contract";
import { sql } from "drizzle-orm";
import type { Hono } from "hono";
import { inTransaction, MIGRATIONS_FOLDER } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { PublishedKey } from "../services/signing-keys.ts";
import { projectOf } from "./auth.ts";

const toView = (key: PublishedKey): SigningKeyView => ({
  kid: key.kid,
  audience: key.audience,
  state: key.state,
  created_at_millis: key.createdAt.getTime(),
  signs_from_millis: key.signsFrom.getTime(),
});

/** The server package's version; "unknown" where no package.json sits beside the code (a bundled artifact). */
function serverVersion(): string {
  try {
    return (createRequire(import.meta.url)("../../package.json") as { version: string }).version;
  } catch {
    return "unknown";
  }
}

type JournalEntry = { tag: string; when: number };

export function registerSigningKeyRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, listSigningKeysRoute, async (_input, { caller }) => ({
    items: (await deps.signingKeys.describe(projectOf(caller).id)).map(toView),
  }));

  bindRoute(app, deps, rotateSigningKeysRoute, async (_input, { caller }) => {
    const projectId = projectOf(caller).id;
    const keys = await inTransaction(deps.db, async (tx) => {
      await deps.signingKeys.rotate(tx, projectId, await deps.oidcProvider.rotateKeys(tx, projectId));
      return deps.signingKeys.describe(projectId, tx);
    });
    return { items: keys.map(toView) };
  });

  bindRoute(app, deps, serverStatusRoute, async () => {
    const journal = (
      JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
        entries: JournalEntry[];
      }
    ).entries;
    // drizzle records each applied migration with its journal `when`; everything later is pending.
    const result = (await deps.db.execute(
      sql`select count(*)::int as n, max(created_at)::text as last from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { n: number; last: string | null }[] };
    const applied = Number(result.rows[0]?.n ?? 0);
    const last = result.rows[0]?.last == null ? 0 : Number(result.rows[0].last);
    return {
      version: serverVersion(),
      migrations: {
        applied,
        known: journal.length,
        latest_applied: [...journal].reverse().find((entry) => entry.when <= last)?.tag ?? null,
        pending: journal.filter((entry) => entry.when > last).map((entry) => entry.tag),
      },
    };
  });
}
