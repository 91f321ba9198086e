// Project API keys: key sets are created with fresh random keys (or the seeded ones), stored as hashes plus the
// last four characters, and checked by hash on every request.
import { randomUUID } from "node:crypto";
import { sha256Hex } from "../crypto/hash.ts";
import { type ApiKeyKind, generateApiKey } from "../crypto/random.ts";
import { type ApiKeySetRow, type ApiKeysRepo, KEY_HASH_COLUMNS } from "../db/api-keys-repo.ts";
import type { Db } from "../db/client.ts";

const LAST_FOUR_COLUMNS = {
  pck: "publishableClientKeyLastFour",
  ssk: "secretServerKeyLastFour",
  sak: "superSecretAdminKeyLastFour",
} as const satisfies Record<ApiKeyKind, keyof ApiKeySetRow>;

export type KeySetInput = {
  id?: string;
  description: string;
  expiresAt: Date;
  /** For each kind: `true` to generate a key, a string to store that key, absent for none. */
  keys: Partial<Record<ApiKeyKind, true | string>>;
};

export function createApiKeyService(deps: { repo: ApiKeysRepo }) {
  return {
    /** Creates (or, for a known id, rewrites) a key set. Returns the full keys: the only time they are seen. */
    async save(tx: Db, projectId: string, input: KeySetInput) {
      const full: Partial<Record<ApiKeyKind, string>> = {};
      const row: Record<string, unknown> = {
        id: input.id ?? randomUUID(),
        projectId,
        description: input.description,
        expiresAt: input.expiresAt,
        manuallyRevokedAt: null,
      };
      for (const kind of ["pck", "ssk", "sak"] as const) {
        const wanted = input.keys[kind];
        const value = wanted === true ? generateApiKey(kind) : wanted;
        row[KEY_HASH_COLUMNS[kind]] = value ? sha256Hex(value) : null;
        row[LAST_FOUR_COLUMNS[kind]] = value ? value.slice(-4) : null;
        if (value) full[kind] = value;
      }
      const saved = await deps.repo.upsert(tx, row as Parameters<ApiKeysRepo["upsert"]>[1]);
      return { set: saved, keys: full };
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
