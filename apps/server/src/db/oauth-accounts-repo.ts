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
    /** The account with this id at this provider, whoever owns it. */
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
          ),
        );
      return row;
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

    async insert(tx: Db, row: typeof oauthAccounts.$inferInsert): Promise<void> {
      await tx.insert(oauthAccounts).values(row);
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
