// Provider accounts linked to users (`oauth_accounts`): who owns a provider account, a user's accounts at a
// provider, and the sealed provider tokens kept for connected accounts.
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { oauthAccounts } from "./schema.ts";

export type OAuthAccountRow = typeof oauthAccounts.$inferSelect;

export type SealedTokens = Pick<
  OAuthAccountRow,
  "sealedAccessToken" | "accessTokenExpiresAt" | "sealedRefreshToken" | "grantedScopes"
>;

export function createOAuthAccountsRepo(db: Db) {
  return {
    /**
     * The account that signs in as this id at this provider, whoever owns it. Accounts with `allow_sign_in` off
     * never sign anyone in (as in Stack), so they are not found here.
     */
    async find(
      executor: Db,
      projectId: string,
      providerId: string,
      accountId: string,
    ): Promise<OAuthAccountRow | undefined> {
      const [row] = await executor
        .select()
        .from(oauthAccounts)
        .where(
          and(
            eq(oauthAccounts.projectId, projectId),
            eq(oauthAccounts.providerId, providerId),
            eq(oauthAccounts.accountId, accountId),
            eq(oauthAccounts.allowSignIn, true),
          ),
        );
      return row;
    },

    /** One record by its id, within a project (and of one user, when given). */
    async findById(
      executor: Db,
      projectId: string,
      id: string,
      userId?: string,
    ): Promise<OAuthAccountRow | undefined> {
      const [row] = await executor
        .select()
        .from(oauthAccounts)
        .where(
          and(
            eq(oauthAccounts.projectId, projectId),
            eq(oauthAccounts.id, id),
            userId === undefined ? undefined : eq(oauthAccounts.userId, userId),
          ),
        );
      return row;
    },

    /** The project's records, or one user's, oldest first. */
    async listForProject(projectId: string, userId?: string, executor: Db = db): Promise<OAuthAccountRow[]> {
      return executor
        .select()
        .from(oauthAccounts)
        .where(
          and(
            eq(oauthAccounts.projectId, projectId),
            userId === undefined ? undefined : eq(oauthAccounts.userId, userId),
          ),
        )
        .orderBy(asc(oauthAccounts.createdAt), asc(oauthAccounts.id));
    },

    /** Records at a provider matching every given field (the uniqueness checks of `/oauth-providers`). */
    async listMatching(
      executor: Db,
      projectId: string,
      match: { providerId: string; userId?: string; accountId?: string; allowSignIn?: boolean },
    ): Promise<OAuthAccountRow[]> {
      return executor
        .select()
        .from(oauthAccounts)
        .where(
          and(
            eq(oauthAccounts.projectId, projectId),
            eq(oauthAccounts.providerId, match.providerId),
            match.userId === undefined ? undefined : eq(oauthAccounts.userId, match.userId),
            match.accountId === undefined ? undefined : eq(oauthAccounts.accountId, match.accountId),
            match.allowSignIn === undefined ? undefined : eq(oauthAccounts.allowSignIn, match.allowSignIn),
          ),
        );
    },

    async update(
      tx: Db,
      id: string,
      changes: Partial<
        Pick<OAuthAccountRow, "allowSignIn" | "allowConnectedAccounts" | "email" | "accountId">
      >,
    ): Promise<OAuthAccountRow | undefined> {
      const [row] = await tx.update(oauthAccounts).set(changes).where(eq(oauthAccounts.id, id)).returning();
      return row;
    },

    async delete(tx: Db, id: string): Promise<void> {
      await tx.delete(oauthAccounts).where(eq(oauthAccounts.id, id));
    },

    /** A user's accounts, oldest first; only those at `providerId` when given. */
    async listForUser(userId: string, providerId?: string, executor: Db = db): Promise<OAuthAccountRow[]> {
      return executor
        .select()
        .from(oauthAccounts)
        .where(
          and(
            eq(oauthAccounts.userId, userId),
            providerId === undefined ? undefined : eq(oauthAccounts.providerId, providerId),
          ),
        )
        .orderBy(asc(oauthAccounts.createdAt), asc(oauthAccounts.id));
    },

    /** One or many linked accounts in one statement. */
    async insert(
      tx: Db,
      rows: typeof oauthAccounts.$inferInsert | (typeof oauthAccounts.$inferInsert)[],
    ): Promise<void> {
      if (Array.isArray(rows) && rows.length === 0) return;
      await tx.insert(oauthAccounts).values(rows as (typeof oauthAccounts.$inferInsert)[]);
    },

    /** New tokens after a sign-in or a refresh; the e-mail the provider reports now, when given. */
    async updateTokens(
      id: string,
      tokens: SealedTokens,
      options: { email?: string | null; executor?: Db } = {},
    ): Promise<void> {
      const { email, executor = db } = options;
      await executor
        .update(oauthAccounts)
        .set({ ...tokens, ...(email === undefined ? {} : { email }) })
        .where(eq(oauthAccounts.id, id));
    },
  };
}

export type OAuthAccountsRepo = ReturnType<typeof createOAuthAccountsRepo>;
