// The server side of a bulk import (issue 23, POST /api/v1/internal/imports/users): a batch of generic records
// written in one transaction. Idempotent by the source's id (kept as `server_metadata.imported_from`, found through
// users_imported_from_idx): a record imported before is `existing` and left alone. A record that cannot be written
// (a hash sign-in could not verify, an address or OAuth account another user signs in with, a repeat in the same
// batch) is `skipped` with its reason; the others are created through the user service, as POST /users would.
import type { ImportBatchAnswer, ImportOutcome, ImportUserRecord } from "@gatehouse/contract";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { parsePasswordHash } from "../crypto/imported-hash.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { contactChannels, oauthAccounts, teams, users } from "../db/schema.ts";
import type { Project } from "../services/projects.ts";
import type { TeamService } from "../services/teams.ts";
import type { UserService } from "../services/users.ts";
import { providerId } from "./record.ts";

/** Where the source id lives: Gatehouse users have no external-id column, so it is server metadata. */
export function withOrigin(metadata: unknown, provider: string, id: string): Record<string, unknown> {
  const base =
    metadata && typeof metadata === "object" && !Array.isArray(metadata)
      ? metadata
      : metadata === undefined || metadata === null
        ? {}
        : { value: metadata };
  return { ...(base as Record<string, unknown>), imported_from: { provider, id } };
}

const origin = (column: typeof users.serverMetadata | typeof teams.serverMetadata, key: "provider" | "id") =>
  key === "provider"
    ? sql<string>`(${column} #>> '{imported_from,provider}')`
    : sql<string>`(${column} #>> '{imported_from,id}')`;

export function createBulkImport(deps: { db: Db; users: UserService; teams: TeamService }) {
  /** Source id → the user imported before from this provider. */
  async function importedBefore(tx: Db, projectId: string, provider: string, ids: string[]) {
    const rows = await tx
      .select({ sourceId: origin(users.serverMetadata, "id"), userId: users.id })
      .from(users)
      .where(
        and(
          eq(users.projectId, projectId),
          sql`(${users.serverMetadata} -> 'imported_from') is not null`,
          eq(origin(users.serverMetadata, "provider"), provider),
          inArray(origin(users.serverMetadata, "id"), ids),
        ),
      );
    return new Map(rows.map((row) => [row.sourceId, row.userId]));
  }

  /** Addresses (lower-cased) some user already signs in with. */
  async function addressesInUse(tx: Db, projectId: string, addresses: string[]): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const rows = await tx
      .select({ normalized: contactChannels.normalized })
      .from(contactChannels)
      .where(
        and(
          eq(contactChannels.projectId, projectId),
          eq(contactChannels.type, "email"),
          eq(contactChannels.usedForAuth, true),
          inArray(contactChannels.normalized, addresses),
        ),
      );
    return new Set(rows.map((row) => row.normalized));
  }

  /** `provider\naccount` of the OAuth accounts already linked to a user. */
  async function accountsInUse(tx: Db, projectId: string, accountIds: string[]): Promise<Set<string>> {
    if (accountIds.length === 0) return new Set();
    const rows = await tx
      .select({ providerId: oauthAccounts.providerId, accountId: oauthAccounts.accountId })
      .from(oauthAccounts)
      .where(and(eq(oauthAccounts.projectId, projectId), inArray(oauthAccounts.accountId, accountIds)));
    return new Set(rows.map((row) => `${row.providerId}\n${row.accountId}`));
  }

  /** Source team id → Gatehouse team, made on first sight (found again by its `imported_from`). */
  async function teamFinder(tx: Db, project: Project, provider: string, records: ImportUserRecord[]) {
    const wanted = [...new Set(records.flatMap((user) => (user.teams ?? []).map((team) => team.id)))];
    const known = new Map<string, string>();
    if (wanted.length > 0) {
      const rows = await tx
        .select({ sourceId: origin(teams.serverMetadata, "id"), teamId: teams.id })
        .from(teams)
        .where(
          and(
            eq(teams.projectId, project.id),
            isNotNull(teams.serverMetadata),
            eq(origin(teams.serverMetadata, "provider"), provider),
            inArray(origin(teams.serverMetadata, "id"), wanted),
          ),
        );
      for (const row of rows) known.set(row.sourceId, row.teamId);
    }
    return async (team: NonNullable<ImportUserRecord["teams"]>[number]): Promise<string> => {
      const found = known.get(team.id);
      if (found) return found;
      const made = await deps.teams.create(tx, project, {
        displayName: team.display_name,
        serverMetadata: { imported_from: { provider, id: team.id } },
      });
      known.set(team.id, made.id);
      return made.id;
    };
  }

  /** Writes one batch in one transaction; answers each record's outcome in the request's order. */
  function writeBatch(
    project: Project,
    provider: string,
    records: ImportUserRecord[],
  ): Promise<ImportBatchAnswer> {
    return inTransaction(deps.db, async (tx) => {
      const before = await importedBefore(
        tx,
        project.id,
        provider,
        records.map((user) => user.id),
      );
      const addresses = await addressesInUse(
        tx,
        project.id,
        records.flatMap((user) => (user.email ? [user.email.toLowerCase()] : [])),
      );
      const accounts = await accountsInUse(
        tx,
        project.id,
        records.flatMap((user) => (user.oauth_accounts ?? []).map((account) => account.account_id)),
      );
      const teamOf = await teamFinder(tx, project, provider, records);
      const seen = new Set<string>();
      const items: ImportOutcome[] = [];
      const accepted: {
        user: ImportUserRecord;
        links: { providerId: string; accountId: string; email: string | null }[];
        at: number;
      }[] = [];
      const skip = (id: string, reason: string) =>
        items.push({ id, result: "skipped", user_id: null, reason });

      for (const user of records) {
        const previous = before.get(user.id);
        if (previous) {
          items.push({ id: user.id, result: "existing", user_id: previous, reason: "imported before" });
          continue;
        }
        if (seen.has(user.id)) {
          skip(user.id, "the same id appears earlier in this batch");
          continue;
        }
        if (user.password_hash && parsePasswordHash(user.password_hash) === undefined) {
          skip(user.id, "password_hash: unsupported or malformed password hash");
          continue;
        }
        const address = user.email?.toLowerCase();
        if (address && addresses.has(address)) {
          skip(user.id, "email: another user already signs in with this address");
          continue;
        }
        const links = (user.oauth_accounts ?? []).map((account) => ({
          providerId: providerId(account.provider),
          accountId: account.account_id,
          email: account.email ?? null,
        }));
        const linkKeys = links.map((link) => `${link.providerId}\n${link.accountId}`);
        if (linkKeys.some((key) => accounts.has(key)) || new Set(linkKeys).size < linkKeys.length) {
          skip(user.id, "oauth_accounts: an account is already linked to another user");
          continue;
        }
        seen.add(user.id);
        if (address) addresses.add(address);
        for (const key of linkKeys) accounts.add(key);
        accepted.push({ user, links, at: items.length });
        items.push({ id: user.id, result: "created", user_id: null, reason: null });
      }

      const made = await deps.users.createMany(
        tx,
        project,
        accepted.map(({ user, links }) => ({
          ...(user.email
            ? { email: { value: user.email, verified: user.email_verified ?? false, usedForAuth: true } }
            : {}),
          passwordHash: user.password_hash ?? null,
          displayName: user.display_name ?? null,
          mayBecomeFirstOperator: false,
          columns: {
            profileImageUrl: user.profile_image_url ?? null,
            clientMetadata: user.client_metadata ?? null,
            clientReadOnlyMetadata: user.client_read_only_metadata ?? null,
            serverMetadata: withOrigin(user.server_metadata, provider, user.id),
          },
          oauthProviders: links,
        })),
      );
      for (const [i, { user, at }] of accepted.entries()) {
        const userId = made[i]?.id ?? null;
        const item = items[at];
        if (item) item.user_id = userId;
        if (!userId) continue;
        for (const team of user.teams ?? []) {
          const teamId = await teamOf(team);
          await deps.teams.addMember(tx, project, teamId, userId, "member");
          if (team.role === "admin") {
            await deps.teams.grant(tx, project.id, { teamId, userId, permissionId: "team_admin" });
          }
        }
      }
      const count = (result: ImportOutcome["result"]) =>
        items.filter((item) => item.result === result).length;
      return { created: count("created"), existing: count("existing"), skipped: count("skipped"), items };
    });
  }

  return {
    /**
     * One batch in one transaction. A sign-up (or another import) that took an address or account between the
     * checks and the commit rolls the batch back with a unique violation: it is written once more, when the checks
     * see the other user and skip that record.
     */
    async importBatch(
      project: Project,
      provider: string,
      records: ImportUserRecord[],
    ): Promise<ImportBatchAnswer> {
      try {
        return await writeBatch(project, provider, records);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        return writeBatch(project, provider, records);
      }
    },
  };
}

export type BulkImport = ReturnType<typeof createBulkImport>;
