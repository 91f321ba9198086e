// OAuth provider records (Stack's `/oauth-providers`): a user's linked provider accounts, each with whether it signs
// the user in (`allow_sign_in`) and whether apps may get its tokens (`allow_connected_accounts`). Stack's rules: at
// most one sign-in record per provider and user, and one per provider account across the project.
import { KnownErrors, type ServerOAuthProvider } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { OAuthAccountRow, OAuthAccountsRepo } from "../db/oauth-accounts-repo.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import { TextError } from "../text-error.ts";
import type { Project } from "./projects.ts";

export type NewOAuthProvider = {
  userId: string;
  providerConfigId: string;
  accountId: string;
  email?: string;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
};

export type OAuthProviderChanges = {
  allowSignIn?: boolean;
  allowConnectedAccounts?: boolean;
  email?: string;
  accountId?: string;
};

/** A record as server callers see it; the route's client parse strips `account_id`. */
export const toWireOAuthProvider = (row: OAuthAccountRow): ServerOAuthProvider => ({
  user_id: row.userId,
  id: row.id,
  ...(row.email === null ? {} : { email: row.email }),
  provider_config_id: row.providerId,
  // Our provider configuration ids are the provider kinds (`github`, `google`, …), as Stack's default ones are.
  type: row.providerId,
  allow_sign_in: row.allowSignIn,
  allow_connected_accounts: row.allowConnectedAccounts,
  account_id: row.accountId,
});

export function createOAuthProviderService(deps: {
  accounts: OAuthAccountsRepo;
  usersRepo: UsersRepo;
  clock: Clock;
}) {
  const { accounts } = deps;

  async function ensureUser(executor: Db, projectId: string, userId: string): Promise<void> {
    if (!(await deps.usersRepo.find(projectId, userId, executor))) throw KnownErrors.USER_NOT_FOUND();
  }

  async function ensureRecord(executor: Db, projectId: string, userId: string, id: string) {
    await ensureUser(executor, projectId, userId);
    const row = await accounts.findById(executor, projectId, id, userId);
    if (!row) throw new TextError(404, `OAuth provider ${id} for user ${userId} not found`);
    return row;
  }

  /** Stack's checks, against the record as it would be (`self` is the record being changed, if any). */
  async function checkValidity(
    tx: Db,
    projectId: string,
    next: { providerId: string; userId: string; accountId: string; allowSignIn: boolean },
    self?: string,
  ): Promise<void> {
    const others = (rows: OAuthAccountRow[]) => rows.filter((r) => r.id !== self);
    const { providerId, userId, accountId } = next;
    if (next.allowSignIn) {
      const signIn = others(
        await accounts.listMatching(tx, projectId, { providerId, userId, allowSignIn: true }),
      );
      if (signIn.length > 0) {
        throw new TextError(400, "The same provider type with sign-in enabled already exists for this user.");
      }
    }
    if (others(await accounts.listMatching(tx, projectId, { providerId, userId, accountId })).length > 0) {
      throw new TextError(
        400,
        "The same provider type with the same account ID already exists for this user.",
      );
    }
    if (next.allowSignIn) {
      const used = others(
        await accounts.listMatching(tx, projectId, { providerId, accountId, allowSignIn: true }),
      );
      if (used.length > 0) throw KnownErrors.OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN();
    }
  }

  /** A concurrent write that won the race for the sign-in index is the same refusal the checks give. */
  async function guarded<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw KnownErrors.OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN();
      throw error;
    }
  }

  return {
    /** A user's records (the user must exist), or the whole project's, oldest first. */
    async list(executor: Db, projectId: string, userId?: string): Promise<ServerOAuthProvider[]> {
      if (userId !== undefined) await ensureUser(executor, projectId, userId);
      return (await accounts.listForProject(projectId, userId, executor)).map(toWireOAuthProvider);
    },

    async get(executor: Db, projectId: string, userId: string, id: string): Promise<ServerOAuthProvider> {
      return toWireOAuthProvider(await ensureRecord(executor, projectId, userId, id));
    },

    async create(tx: Db, project: Project, input: NewOAuthProvider): Promise<ServerOAuthProvider> {
      if (!project.config.oauth_providers.some((p) => p.id === input.providerConfigId)) {
        throw new TextError(404, `OAuth provider ${input.providerConfigId} not found or not configured`);
      }
      await ensureUser(tx, project.id, input.userId);
      await checkValidity(tx, project.id, { ...input, providerId: input.providerConfigId });
      const row = {
        id: crypto.randomUUID(),
        projectId: project.id,
        userId: input.userId,
        providerId: input.providerConfigId,
        accountId: input.accountId,
        email: input.email ?? null,
        allowSignIn: input.allowSignIn,
        allowConnectedAccounts: input.allowConnectedAccounts,
        createdAt: deps.clock.now(),
      };
      await guarded(() => accounts.insert(tx, row));
      return toWireOAuthProvider({
        ...row,
        sealedAccessToken: null,
        accessTokenExpiresAt: null,
        sealedRefreshToken: null,
        grantedScopes: null,
      });
    },

    async update(
      tx: Db,
      projectId: string,
      userId: string,
      id: string,
      changes: OAuthProviderChanges,
    ): Promise<ServerOAuthProvider> {
      const current = await ensureRecord(tx, projectId, userId, id);
      const next = {
        providerId: current.providerId,
        userId,
        accountId: changes.accountId ?? current.accountId,
        allowSignIn: changes.allowSignIn ?? current.allowSignIn,
      };
      await checkValidity(tx, projectId, next, id);
      const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      // An empty change is a read (drizzle refuses an UPDATE without columns).
      if (Object.keys(set).length === 0) return toWireOAuthProvider(current);
      const updated = await guarded(() => accounts.update(tx, id, set));
      if (!updated) throw new TextError(404, `OAuth provider ${id} for user ${userId} not found`);
      return toWireOAuthProvider(updated);
    },

    async delete(tx: Db, projectId: string, userId: string, id: string): Promise<void> {
      await ensureRecord(tx, projectId, userId, id);
      await accounts.delete(tx, id);
    },
  };
}

export type OAuthProviderService = ReturnType<typeof createOAuthProviderService>;
