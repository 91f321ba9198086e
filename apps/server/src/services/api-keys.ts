// Project API keys (WIRE.md §4.14): key sets are created with fresh random keys (or the seeded ones), stored as
// hashes plus the last four characters, listed, read and revoked; presented keys are checked by hash on every
// request (db/request-repo.ts), so expiry and revocation hold from the very next request.
import { randomUUID } from "node:crypto";
import { type ApiKey, type ApiKeyFirstView, KnownErrors } from "@gatehouse/contract";
import type { AuditLog } from "../audit/log.ts";
import { sha256Hex } from "../crypto/hash.ts";
import { type ApiKeyKind, generateApiKey } from "../crypto/random.ts";
import { type ApiKeySetRow, type ApiKeysRepo, KEY_HASH_COLUMNS } from "../db/api-keys-repo.ts";
import type { Db } from "../db/client.ts";

const KINDS = ["pck", "ssk", "sak"] as const satisfies readonly ApiKeyKind[];

const LAST_FOUR_COLUMNS = {
  pck: "publishableClientKeyLastFour",
  ssk: "secretServerKeyLastFour",
  sak: "superSecretAdminKeyLastFour",
} as const satisfies Record<ApiKeyKind, keyof ApiKeySetRow>;

/** Each kind of key's field in the wire object. */
const WIRE_FIELDS = {
  pck: "publishable_client_key",
  ssk: "secret_server_key",
  sak: "super_secret_admin_key",
} as const satisfies Record<ApiKeyKind, string>;

export type KeySetInput = {
  id?: string;
  description: string;
  expiresAt: Date;
  /** Absent: the database's clock. */
  createdAt?: Date;
  /** For each kind: `true` to generate a key, a string to store that key, absent for none. */
  keys: Partial<Record<ApiKeyKind, true | string>>;
};

/** The fields every view of a key set shares; `manually_revoked_at_millis` only once revoked. */
const baseView = (row: ApiKeySetRow) => ({
  id: row.id,
  description: row.description,
  created_at_millis: row.createdAt.getTime(),
  expires_at_millis: row.expiresAt.getTime(),
  ...(row.manuallyRevokedAt ? { manually_revoked_at_millis: row.manuallyRevokedAt.getTime() } : {}),
});

/** A key set as listed and read: each key it has by its last four characters. */
export function toApiKey(row: ApiKeySetRow): ApiKey {
  const view: ApiKey = baseView(row);
  for (const kind of KINDS) {
    const lastFour = row[LAST_FOUR_COLUMNS[kind]];
    if (lastFour !== null) view[WIRE_FIELDS[kind]] = { last_four: lastFour };
  }
  return view;
}

/** A new key set with its full keys: the only time they are seen. */
export function toApiKeyFirstView(
  row: ApiKeySetRow,
  keys: Partial<Record<ApiKeyKind, string>>,
): ApiKeyFirstView {
  const view: ApiKeyFirstView = baseView(row);
  for (const kind of KINDS) {
    const key = keys[kind];
    if (key !== undefined) view[WIRE_FIELDS[kind]] = key;
  }
  return view;
}

export function createApiKeyService(deps: { repo: ApiKeysRepo; audit: AuditLog }) {
  const { repo } = deps;
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
        ...(input.createdAt ? { createdAt: input.createdAt } : {}),
      };
      for (const kind of KINDS) {
        const wanted = input.keys[kind];
        const value = wanted === true ? generateApiKey(kind) : wanted;
        row[KEY_HASH_COLUMNS[kind]] = value ? sha256Hex(value) : null;
        row[LAST_FOUR_COLUMNS[kind]] = value ? value.slice(-4) : null;
        if (value) full[kind] = value;
      }
      const saved = await repo.upsert(tx, row as Parameters<ApiKeysRepo["upsert"]>[1]);
      await deps.audit.record(tx, projectId, {
        type: "api_key.created",
        target: { type: "project_api_key", id: saved.id },
        details: { description: input.description, kinds: Object.keys(full) },
      });
      return { set: saved, keys: full };
    },

    /** The project's key sets, newest first. */
    list: (db: Db, projectId: string) => repo.list(db, projectId),

    /** A key set of the project; another project's or an unknown id is API_KEY_NOT_FOUND. */
    async get(db: Db, projectId: string, id: string): Promise<ApiKeySetRow> {
      const row = await repo.find(db, projectId, id);
      if (!row) throw KnownErrors.API_KEY_NOT_FOUND();
      return row;
    },

    /** Changes the description and/or revokes the set. Revocation is permanent: a revoked set keeps its time. */
    async update(
      tx: Db,
      projectId: string,
      id: string,
      changes: { description?: string; revokedAt?: Date },
    ): Promise<ApiKeySetRow> {
      const current = await this.get(tx, projectId, id);
      const revoke = changes.revokedAt !== undefined && current.manuallyRevokedAt === null;
      if (changes.description === undefined && !revoke) return current;
      const updated = await repo.update(tx, projectId, id, {
        description: changes.description,
        ...(revoke ? { manuallyRevokedAt: changes.revokedAt } : {}),
      });
      if (!updated) throw KnownErrors.API_KEY_NOT_FOUND();
      if (revoke) {
        await deps.audit.record(tx, projectId, {
          type: "api_key.revoked",
          target: { type: "project_api_key", id },
        });
      }
      return updated;
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
