// User and team API keys: who may manage which (Stack's rules), creation with the key shown once, revocation, and
// the check a back end runs on a presented key. Keys are stored as SHA-256 hashes with their last four characters.
import { randomUUID } from "node:crypto";
import {
  KnownErrors,
  type OwnedApiKeyFirstViewJson,
  type OwnedApiKeyJson,
  type OwnedApiKeyType,
} from "@gatehouse/contract";
import type { AuditLog } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import { type Db, inTransaction } from "../db/client.ts";
import type { TeamsRepo } from "../db/teams-repo.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import type { PermissionService } from "../services/permissions.ts";
import type { Project } from "../services/projects.ts";
import { TextError } from "../text-error.ts";
import { formatOwnedApiKey, parseOwnedApiKey } from "./key-format.ts";
import type { KeyOwner, OwnedApiKeyRow, OwnedApiKeysRepo } from "./repo.ts";

/** Who asks: server and admin callers manage every key of the project; a client only as its signed-in user. */
export type KeyActor = { project: Project; client: { userId: string | null } | null };

export type KeyCreateInput = {
  ownerId: string;
  description: string;
  expiresAtMillis?: number | null;
  isPublic?: boolean;
};

export type KeyUpdateInput = { description?: string; revoked?: true; expiresAtMillis?: number | null };

const ownerOf = (type: OwnedApiKeyType, id: string): KeyOwner =>
  type === "user" ? { userId: id } : { teamId: id };

/** The wire shape of a stored key: Stack's read shape, the key itself only ever as its last four characters. */
export function toOwnedApiKeyJson(row: OwnedApiKeyRow): OwnedApiKeyJson {
  const base = {
    id: row.id,
    description: row.description,
    expires_at_millis: row.expiresAt?.getTime(),
    manually_revoked_at_millis: row.manuallyRevokedAt?.getTime(),
    created_at_millis: row.createdAt.getTime(),
    is_public: row.isPublic,
    value: { last_four: row.lastFour },
  };
  if (row.userId) return { ...base, type: "user", user_id: row.userId };
  if (row.teamId) return { ...base, type: "team", team_id: row.teamId };
  throw new Error(`Owned API key ${row.id} has no owner`);
}

export function createOwnedApiKeyService(deps: {
  db: Db;
  repo: OwnedApiKeysRepo;
  usersRepo: UsersRepo;
  teamsRepo: TeamsRepo;
  permissions: PermissionService;
  clock: Clock;
  audit: AuditLog;
}) {
  const { db, repo, clock } = deps;

  /** Stack answers a disabled kind of key with this plain-text 400, on every route of the kind. */
  function assertEnabled(project: Project, type: OwnedApiKeyType) {
    const enabled = type === "user" ? project.config.allow_user_api_keys : project.config.allow_team_api_keys;
    if (enabled !== true) {
      throw new TextError(
        400,
        `${type === "user" ? "User" : "Team"} API keys are not enabled for this project.`,
      );
    }
  }

  /**
   * Stack's rule for clients: only their own user's keys, and a team's keys only with `$manage_api_keys` there
   * (directly or contained). Without it the answer is API_KEY_NOT_FOUND, so the team's existence does not leak.
   */
  async function assertCanManage(actor: KeyActor, owner: KeyOwner) {
    if (!actor.client) return;
    const self = actor.client.userId;
    if (!self) throw KnownErrors.USER_AUTHENTICATION_REQUIRED();
    if ("userId" in owner) {
      if (owner.userId !== self) throw new TextError(403, "Client can only manage their own api keys");
      return;
    }
    const grants = await deps.permissions.listGrants(
      actor.project.id,
      { teamId: owner.teamId, userId: self, permissionId: "$manage_api_keys" },
      true,
    );
    if (grants.length === 0) throw KnownErrors.API_KEY_NOT_FOUND();
  }

  /** A new key's owner must be of the project (another project's id is not found, as an unknown one is). */
  async function assertOwnerExists(projectId: string, owner: KeyOwner, executor: Db) {
    if ("userId" in owner) {
      if (!(await deps.usersRepo.find(projectId, owner.userId, executor))) throw KnownErrors.USER_NOT_FOUND();
    } else if (!(await deps.teamsRepo.findTeam(projectId, owner.teamId, executor))) {
      throw KnownErrors.TEAM_NOT_FOUND({ team_id: owner.teamId });
    }
  }

  /** A key by id, of this type, that the actor may manage. */
  async function manageable(actor: KeyActor, type: OwnedApiKeyType, id: string) {
    assertEnabled(actor.project, type);
    const row = await repo.find(db, actor.project.id, id, type);
    if (!row) throw KnownErrors.API_KEY_NOT_FOUND();
    await assertCanManage(actor, row.userId ? { userId: row.userId } : { teamId: row.teamId as string });
    return row;
  }

  return {
    async list(actor: KeyActor, type: OwnedApiKeyType, ownerId: string): Promise<OwnedApiKeyJson[]> {
      assertEnabled(actor.project, type);
      const owner = ownerOf(type, ownerId);
      await assertCanManage(actor, owner);
      return (await repo.list(db, actor.project.id, owner)).map(toOwnedApiKeyJson);
    },

    async create(
      actor: KeyActor,
      type: OwnedApiKeyType,
      input: KeyCreateInput,
    ): Promise<OwnedApiKeyFirstViewJson> {
      assertEnabled(actor.project, type);
      const owner = ownerOf(type, input.ownerId);
      await assertCanManage(actor, owner);
      const id = randomUUID();
      const isPublic = input.isPublic ?? false;
      const key = formatOwnedApiKey({ id, type, isPublic });
      const row = await inTransaction(db, async (tx) => {
        await assertOwnerExists(actor.project.id, owner, tx);
        await deps.audit.record(tx, actor.project.id, {
          type: "api_key.created",
          target: { type: `${type}_api_key`, id },
          details: {
            owner_id: input.ownerId,
            ...(type === "team" ? { team_id: input.ownerId } : {}),
            description: input.description,
            is_public: isPublic,
          },
        });
        return repo.insert(tx, {
          id,
          projectId: actor.project.id,
          ...owner,
          description: input.description,
          isPublic,
          keyHash: sha256Hex(key),
          lastFour: key.slice(-4),
          createdAt: clock.now(),
          expiresAt: input.expiresAtMillis == null ? null : new Date(input.expiresAtMillis),
        });
      });
      // The one answer that holds the key: it is not stored, so it can never be shown again.
      return { ...toOwnedApiKeyJson(row), value: key } as OwnedApiKeyFirstViewJson;
    },

    async get(actor: KeyActor, type: OwnedApiKeyType, id: string): Promise<OwnedApiKeyJson> {
      return toOwnedApiKeyJson(await manageable(actor, type, id));
    },

    async update(
      actor: KeyActor,
      type: OwnedApiKeyType,
      id: string,
      input: KeyUpdateInput,
    ): Promise<OwnedApiKeyJson> {
      // Checked outside a transaction: the permission lookup reads on its own (PGlite has a single connection).
      const current = await manageable(actor, type, id);
      const changes = {
        ...(input.description === undefined ? {} : { description: input.description }),
        // A revoked key stays revoked, with the time of its first revocation.
        ...(input.revoked && !current.manuallyRevokedAt ? { manuallyRevokedAt: clock.now() } : {}),
        ...(input.expiresAtMillis === undefined
          ? {}
          : { expiresAt: input.expiresAtMillis === null ? null : new Date(input.expiresAtMillis) }),
      };
      if (Object.keys(changes).length === 0) return toOwnedApiKeyJson(current);
      const updated = await inTransaction(db, async (tx) => {
        const row = await repo.update(tx, actor.project.id, id, changes);
        if (row && "manuallyRevokedAt" in changes) {
          await deps.audit.record(tx, actor.project.id, {
            type: "api_key.revoked",
            target: { type: `${type}_api_key`, id },
            details: { owner_id: row.userId ?? row.teamId, ...(row.teamId ? { team_id: row.teamId } : {}) },
          });
        }
        return row;
      });
      if (!updated) throw KnownErrors.API_KEY_NOT_FOUND();
      return toOwnedApiKeyJson(updated);
    },

    /**
     * A back end's check of a presented key, in Stack's order: unknown (or another project's), of the other type,
     * revoked, expired. Found by hash, so the comparison happens inside the index lookup on a digest, not the key.
     */
    async check(project: Project, type: OwnedApiKeyType, apiKey: string): Promise<OwnedApiKeyJson> {
      assertEnabled(project, type);
      // Text that is not a key (wrong shape or checksum) is refused without a database read.
      const parsed = parseOwnedApiKey(apiKey);
      const row = parsed && (await repo.findByHash(db, project.id, sha256Hex(apiKey)));
      if (!row || row.id !== parsed?.id) throw KnownErrors.API_KEY_NOT_FOUND();
      const actual = row.userId ? "user" : "team";
      if (actual !== type) throw KnownErrors.WRONG_API_KEY_TYPE({ expected_type: type, actual_type: actual });
      if (row.manuallyRevokedAt) throw KnownErrors.API_KEY_REVOKED();
      if (row.expiresAt && row.expiresAt.getTime() < clock.now().getTime())
        throw KnownErrors.API_KEY_EXPIRED();
      return toOwnedApiKeyJson(row);
    },
  };
}

export type OwnedApiKeyService = ReturnType<typeof createOwnedApiKeyService>;
