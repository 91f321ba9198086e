// A user's connected accounts (provider accounts whose tokens an app may use) with Stack's names: the list, one by
// provider (the older form: a token covering the scopes, or null) or by provider account, and the access token of one
// account. The same calls serve the signed-in user ("me") and, with the server key, any user of the project.

import { OAUTH_ACCESS_TOKEN_NOT_AVAILABLE } from "@gatehouse/contract/client-errors";
import { defined, jsonBody, type ObjectContext } from "./context.ts";
import { type KnownError, knownErrorIs, Result, StackAssertionError } from "./errors.ts";
import type { List } from "./wire.ts";

/** Stack's OAuthConnection: one account of the user at a provider. */
export type OAuthConnection = {
  id: string;
  provider: string;
  providerAccountId: string;
  getAccessToken(options?: { scopes?: string[] }): Promise<Result<{ accessToken: string }, KnownError>>;
};
/** Stack's older connection, found by provider alone: its token covers the scopes asked for. */
export type ProviderConnection = { provider: string; getAccessToken(): Promise<{ accessToken: string }> };

// The answers that mean "no usable token" rather than a failure (Stack's SDK reads them the same way).
const NO_TOKEN = [
  "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE",
  "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
  "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
];

async function tokenOrNull(ctx: ObjectContext, path: string, scopes?: string[]): Promise<string | null> {
  try {
    const body = defined({ scope: scopes?.join(" ") });
    return (await ctx.request<{ access_token: string }>(path, jsonBody(body))).access_token;
  } catch (error) {
    if (NO_TOKEN.some((code) => knownErrorIs(error, code))) return null;
    throw error;
  }
}

export function connectedAccountCalls(ctx: ObjectContext, userId: string) {
  const base = `/connected-accounts/${encodeURIComponent(userId)}`;
  const connection = (provider: string, providerAccountId: string): OAuthConnection => ({
    id: provider,
    provider,
    providerAccountId,
    async getAccessToken(options = {}) {
      const path = `${base}/${encodeURIComponent(provider)}/${encodeURIComponent(providerAccountId)}/access-token`;
      const accessToken = await tokenOrNull(ctx, path, options.scopes);
      if (accessToken !== null) return Result.ok({ accessToken });
      const details = options.scopes?.length
        ? `The requested scopes [${options.scopes.join(" ")}] are not available on the existing token.`
        : "The OAuth refresh token has likely been revoked or expired.";
      return Result.error(
        OAUTH_ACCESS_TOKEN_NOT_AVAILABLE({
          provider,
          details: `${details} The user needs to re-authorize by calling \`linkConnectedAccount\` or using \`getOrLinkConnectedAccount\`.`,
        }),
      );
    },
  });

  async function listConnectedAccounts(): Promise<OAuthConnection[]> {
    const list = await ctx.request<List<{ provider: string; provider_account_id: string }>>(base);
    return list.items.map((a) => connection(a.provider, a.provider_account_id));
  }

  /** By provider and account: that account or null. By provider alone: a token covering `scopes`, or null. */
  async function getConnectedAccount(account: {
    provider: string;
    providerAccountId: string;
  }): Promise<OAuthConnection | null>;
  async function getConnectedAccount(
    provider: string,
    options?: { scopes?: string[] },
  ): Promise<ProviderConnection | null>;
  async function getConnectedAccount(
    which: string | { provider: string; providerAccountId: string },
    options: { scopes?: string[] } = {},
  ): Promise<OAuthConnection | ProviderConnection | null> {
    if (typeof which === "object") {
      const all = await listConnectedAccounts();
      return (
        all.find((a) => a.provider === which.provider && a.providerAccountId === which.providerAccountId) ??
        null
      );
    }
    const token = await tokenOrNull(ctx, `${base}/${encodeURIComponent(which)}/access-token`, options.scopes);
    return token === null ? null : { provider: which, getAccessToken: async () => ({ accessToken: token }) };
  }

  return { listConnectedAccounts, getConnectedAccount };
}

/** Linking goes through the user's browser; Stack's server users refuse it with this error. */
export function serverLinkingCalls() {
  const refuse = (name: string) => async (): Promise<never> => {
    throw new StackAssertionError(
      `${name} is not available for server users. OAuth flows must be initiated on the client side.`,
    );
  };
  return {
    linkConnectedAccount: refuse("linkConnectedAccount") as (
      provider: string,
      options?: { scopes?: string[] },
    ) => Promise<void>,
    getOrLinkConnectedAccount: refuse("getOrLinkConnectedAccount") as (
      provider: string,
      options?: { scopes?: string[] },
    ) => Promise<OAuthConnection>,
  };
}

/** Linking for the signed-in user: `link` sends the browser to the provider (the client app's OAuth flow). */
export function currentUserLinkingCalls(
  accounts: { listConnectedAccounts(): Promise<OAuthConnection[]> },
  link: (provider: string, options: { scopes?: string[]; returnTo?: string }) => Promise<void>,
) {
  return {
    /** Sends the browser to the provider to link an account (with extra scopes) to this user. */
    linkConnectedAccount: (provider: string, options: { scopes?: string[]; returnTo?: string } = {}) =>
      link(provider, options),
    /** An account at `provider` whose token covers the scopes, or (navigating away) the link flow that grants them. */
    async getOrLinkConnectedAccount(
      provider: string,
      options: { scopes?: string[]; returnTo?: string } = {},
    ): Promise<OAuthConnection> {
      // The first account at the provider whose token covers the scopes (Stack's order: as listed).
      for (const account of await accounts.listConnectedAccounts()) {
        if (account.provider !== provider) continue;
        if ((await account.getAccessToken({ scopes: options.scopes })).status === "ok") return account;
      }
      await link(provider, options);
      throw new Error("Redirecting to the OAuth provider to link the account.");
    },
  };
}
