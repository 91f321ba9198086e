// Connected accounts (WIRE.md §4.17): a user's linked provider accounts, and provider access tokens for them, so an
// app can call the provider's API on the user's behalf. A stored token that is still valid and covers the scope is
// returned as it is; otherwise the stored refresh token gets a new one, which is stored (sealed) for next time.
import { KnownErrors } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import type { OAuthAccountRow, OAuthAccountsRepo } from "../db/oauth-accounts-repo.ts";
import type { Project } from "../services/projects.ts";
import { ProviderRefused } from "./backends.ts";
import type { ProviderDirectory } from "./directory.ts";

/** A token this close to its expiry is refreshed rather than handed out. */
const EXPIRY_MARGIN_MS = 60_000;

/** Providers separate scopes with spaces, GitHub with commas. */
const scopesOf = (value: string | null | undefined) => new Set((value ?? "").split(/[\s,]+/).filter(Boolean));

/** Records with `allow_connected_accounts` off are not connected accounts at all (as in Stack). */
const connectable = (account: OAuthAccountRow) => account.allowConnectedAccounts;

export function createConnectedAccounts(deps: {
  clock: Clock;
  accounts: OAuthAccountsRepo;
  directory: ProviderDirectory;
  tokenBox: SecretBox;
}) {
  /** Refreshes of one account take turns in this process, so a rotating refresh token is never spent twice. */
  const refreshing = new Map<string, Promise<string>>();

  async function refresh(project: Project, account: OAuthAccountRow): Promise<string> {
    const unavailable = (details: string) =>
      KnownErrors.OAUTH_ACCESS_TOKEN_NOT_AVAILABLE({ provider: account.providerId, details });
    if (!account.sealedRefreshToken) {
      throw unavailable("The provider gave no refresh token, so the expired access token cannot be renewed.");
    }
    try {
      const { backend } = await deps.directory.resolve(project, account.providerId);
      const tokens = await backend.refresh(deps.tokenBox.open(account.sealedRefreshToken));
      await deps.accounts.updateTokens(account.id, {
        sealedAccessToken: deps.tokenBox.seal(tokens.accessToken),
        accessTokenExpiresAt: tokens.expiresAt,
        sealedRefreshToken: tokens.refreshToken ? deps.tokenBox.seal(tokens.refreshToken) : null,
        grantedScopes: tokens.scope ?? account.grantedScopes,
      });
      return tokens.accessToken;
    } catch (error) {
      throw unavailable(
        error instanceof ProviderRefused
          ? "The provider refused the refresh token; the user must sign in with the provider again."
          : "The provider could not be reached.",
      );
    }
  }

  return {
    async list(userId: string) {
      const accounts = (await deps.accounts.listForUser(userId)).filter(connectable);
      return accounts.map((a) => ({
        user_id: a.userId,
        provider: a.providerId,
        provider_account_id: a.accountId,
      }));
    },

    async accessToken(
      project: Project,
      input: { userId: string; providerId: string; accountId?: string; scope?: string },
    ): Promise<string> {
      // Read from the settings only: a stored token that is still valid works while the provider is down.
      if (deps.directory.entry(project, input.providerId).type === "shared") {
        throw KnownErrors.OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS();
      }
      const accounts = (await deps.accounts.listForUser(input.userId, input.providerId)).filter(connectable);
      const account =
        input.accountId === undefined ? accounts[0] : accounts.find((a) => a.accountId === input.accountId);
      if (!account) throw KnownErrors.OAUTH_CONNECTION_NOT_CONNECTED_TO_USER();
      const granted = scopesOf(account.grantedScopes);
      if ([...scopesOf(input.scope)].some((scope) => !granted.has(scope))) {
        throw KnownErrors.OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE();
      }
      const expiresAt = account.accessTokenExpiresAt?.getTime();
      const fresh = expiresAt === undefined || expiresAt > deps.clock.now().getTime() + EXPIRY_MARGIN_MS;
      if (account.sealedAccessToken && fresh) return deps.tokenBox.open(account.sealedAccessToken);

      const pending = refreshing.get(account.id);
      if (pending) return pending;
      const started = refresh(project, account).finally(() => refreshing.delete(account.id));
      refreshing.set(account.id, started);
      return started;
    },
  };
}

export type ConnectedAccounts = ReturnType<typeof createConnectedAccounts>;
