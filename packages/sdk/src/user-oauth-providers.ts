// A user's OAuth provider records (Stack's `/oauth-providers`): the provider accounts linked to the user, each of
// which can stop signing in or serving connected accounts, or be unlinked. Clients see their own (no account id);
// servers anyone's, with the account id, and may change its e-mail and account id.
import { defined, del, jsonBody, type ObjectContext, patch } from "./context.ts";
import { expectingErrors, type Result } from "./errors.ts";
import type { List } from "./wire.ts";

export type OAuthProviderJson = {
  id: string;
  user_id: string;
  email?: string;
  provider_config_id: string;
  type: string;
  allow_sign_in: boolean;
  allow_connected_accounts: boolean;
  account_id?: string;
};

export type OAuthProviderUpdate = {
  allowSignIn?: boolean;
  allowConnectedAccounts?: boolean;
  /** Servers only. */
  accountId?: string;
  /** Servers only. */
  email?: string;
};

export type OAuthProvider = {
  readonly id: string;
  readonly type: string;
  readonly userId: string;
  readonly accountId?: string;
  readonly email?: string;
  readonly allowSignIn: boolean;
  readonly allowConnectedAccounts: boolean;
  /** The one expected failure, Stack's OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN, is returned. */
  update(data: OAuthProviderUpdate): Promise<Result<undefined>>;
  delete(): Promise<void>;
};

const ALREADY_USED = ["OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN"];

export function oauthProviderOf(
  ctx: ObjectContext,
  json: OAuthProviderJson,
  userPath: string,
): OAuthProvider {
  const path = `/oauth-providers/${encodeURIComponent(userPath)}/${encodeURIComponent(json.id)}`;
  return {
    id: json.id,
    type: json.type,
    userId: json.user_id,
    ...(json.account_id === undefined ? {} : { accountId: json.account_id }),
    ...(json.email === undefined ? {} : { email: json.email }),
    allowSignIn: json.allow_sign_in,
    allowConnectedAccounts: json.allow_connected_accounts,
    update: (data) =>
      expectingErrors(ALREADY_USED, async () => {
        const body = defined({
          allow_sign_in: data.allowSignIn,
          allow_connected_accounts: data.allowConnectedAccounts,
          account_id: data.accountId,
          email: data.email,
        });
        await ctx.request(path, patch(body));
        ctx.invalidate();
        return undefined;
      }),
    async delete() {
      await ctx.request(path, del);
      ctx.invalidate();
    },
  };
}

/** The records of `userId` (`me` for the signed-in user). */
export function oauthProviderCalls(ctx: ObjectContext, userId: string) {
  return {
    async listOAuthProviders(): Promise<OAuthProvider[]> {
      const list = await ctx.request<List<OAuthProviderJson>>("/oauth-providers", {
        query: { user_id: userId },
      });
      return list.items.map((p) => oauthProviderOf(ctx, p, userId));
    },
    async getOAuthProvider(id: string): Promise<OAuthProvider | null> {
      return (await this.listOAuthProviders()).find((p) => p.id === id) ?? null;
    },
  };
}

export type OAuthProviderCreateOptions = {
  userId: string;
  providerConfigId: string;
  accountId: string;
  email?: string;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
};

/** `StackServerApp.createOAuthProvider`: links a provider account to a user. */
export function createOAuthProvider(
  ctx: ObjectContext,
  options: OAuthProviderCreateOptions,
): Promise<Result<OAuthProvider>> {
  return expectingErrors(ALREADY_USED, async () => {
    const json = await ctx.request<OAuthProviderJson>(
      "/oauth-providers",
      jsonBody(
        defined({
          user_id: options.userId,
          provider_config_id: options.providerConfigId,
          account_id: options.accountId,
          email: options.email,
          allow_sign_in: options.allowSignIn,
          allow_connected_accounts: options.allowConnectedAccounts,
        }),
      ),
    );
    ctx.invalidate();
    return oauthProviderOf(ctx, json, json.user_id);
  });
}
