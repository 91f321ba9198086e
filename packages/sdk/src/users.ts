// Users as the SDK hands them out: the signed-in user (CurrentUser, client access, its own session) and the fields
// every user view shares (the server's users, server-users.ts, build on them). Each carries the wire object's data in
// camelCase and the calls that act on it (WIRE.md §4.6, §4.8–§4.12, §4.17). The signed-in user's calls and its
// selected team's load on first use (current-user-calls.ts, teams.ts): the object itself is built without them.
import type { ObjectContext } from "./context.ts";
import type { currentUserCalls } from "./current-user-calls.ts";
import { isImpersonationSession } from "./impersonation.ts";
import { withLazyCalls } from "./lazy-calls.ts";
import { teamData } from "./team-data.ts";
import type { clientTeam, Team } from "./teams.ts";
import type { UserJson } from "./wire.ts";

/** The fields every user view has (PRODUCT.md §3 "User"). */
export function userData(json: UserJson) {
  return {
    id: json.id,
    displayName: json.display_name,
    primaryEmail: json.primary_email,
    primaryEmailVerified: json.primary_email_verified,
    profileImageUrl: json.profile_image_url,
    signedUpAt: new Date(json.signed_up_at_millis),
    clientMetadata: json.client_metadata,
    clientReadOnlyMetadata: json.client_read_only_metadata,
    hasPassword: json.has_password,
    emailAuthEnabled: json.auth_with_email,
    otpAuthEnabled: json.otp_auth_enabled,
    passkeyAuthEnabled: json.passkey_auth_enabled,
    isMultiFactorRequired: json.requires_totp_mfa,
    isAnonymous: json.is_anonymous,
    isRestricted: json.is_restricted,
    restrictedReason: json.restricted_reason,
    oauthProviders: json.oauth_providers.map((p) => ({ id: p.id })),
    /** The wire object, as the server sent it. */
    toClientJson: () => json,
  };
}

export type { TeamPermission } from "./user-permissions.ts";

type TokenPair = { accessToken: string | null; refreshToken: string | null };

/**
 * Stack's "AuthLike" calls over a way to get the session's tokens: for a back end to forward them (`x-stack-auth`
 * header, or `Authorization: Bearer stackauth_…`).
 */
export function authCalls(getTokens: () => Promise<TokenPair>) {
  return {
    getAccessToken: async () => (await getTokens()).accessToken,
    getRefreshToken: async () => (await getTokens()).refreshToken,
    getAuthJson: getTokens,
    getAuthHeaders: async () => ({ "x-stack-auth": JSON.stringify(await getTokens()) }),
    getAuthorizationHeader: async () => {
      const tokens = await getTokens();
      return tokens.refreshToken || tokens.accessToken
        ? `Bearer stackauth_${btoa(JSON.stringify(tokens))}`
        : null;
    },
  };
}

type CurrentUserCalls = ReturnType<typeof currentUserCalls>;

export type CurrentUser = ReturnType<typeof userData> &
  CurrentUserCalls &
  ReturnType<typeof authCalls> & {
    selectedTeam: Team | null;
    currentSession: {
      getTokens(): Promise<TokenPair>;
      /** [GO] Whether an administrator opened this session to act as the user (asks the server each time). */
      isImpersonation(): Promise<boolean>;
    };
  };

/**
 * The names of the calls `currentUserCalls` builds, but `signOut` (the session's own): the user object answers each
 * with a stub that loads them on its first call (users.test.ts checks the list against what it answers).
 */
export const CURRENT_USER_CALLS: readonly Exclude<keyof CurrentUserCalls, "signOut">[] = [
  "update",
  "setDisplayName",
  "setClientMetadata",
  "setSelectedTeam",
  "updatePassword",
  "setPassword",
  "listContactChannels",
  "createContactChannel",
  "listTeams",
  "getTeam",
  "createTeam",
  "leaveTeam",
  "getTeamProfile",
  "listTeamInvitations",
  "listPermissions",
  "getPermission",
  "hasPermission",
  "listNotificationCategories",
  "listApiKeys",
  "createApiKey",
  "listOAuthProviders",
  "getOAuthProvider",
  "getActiveSessions",
  "revokeSession",
  "listConnectedAccounts",
  "getConnectedAccount",
  "registerPasskey",
  "generateRecoveryCodes",
  "sendVerificationEmail",
  "delete",
  "linkConnectedAccount",
  "getOrLinkConnectedAccount",
  "getBilling",
  "listProducts",
  "listInvoices",
  "getItem",
  "createCheckoutUrl",
  "createPaymentMethodSetupIntent",
  "setDefaultPaymentMethodFromSetupIntent",
  "switchSubscription",
];

/**
 * The calls of `clientTeam` beyond the team's data: the user's selected team answers them with stubs that load the
 * team on first call (users.test.ts checks the list against what `clientTeam` answers).
 */
export const TEAM_CALLS: readonly Exclude<keyof Team, keyof ReturnType<typeof teamData>>[] = [
  "listApiKeys",
  "createApiKey",
  "inviteUser",
  "listInvitations",
  "update",
  "delete",
  "removeUser",
  "getBilling",
  "listProducts",
  "listInvoices",
  "getItem",
  "createCheckoutUrl",
  "createPaymentMethodSetupIntent",
  "setDefaultPaymentMethodFromSetupIntent",
  "switchSubscription",
  "listUsers",
];

/** Where the signed-in user's calls come from: the lazily loaded module (flows.ts) that builds them. */
export type UserCallsModule = { currentUserCalls: typeof currentUserCalls; clientTeam: typeof clientTeam };

export function currentUser(
  ctx: ObjectContext,
  json: UserJson,
  session: Parameters<typeof currentUserCalls>[2] & { getTokens(): Promise<TokenPair> },
  load: () => Promise<UserCallsModule>,
): CurrentUser {
  const team = json.selected_team;
  return {
    ...userData(json),
    ...withLazyCalls(CURRENT_USER_CALLS, async () => (await load()).currentUserCalls(ctx, json.id, session)),
    signOut: session.signOut,
    ...authCalls(session.getTokens),
    selectedTeam:
      team &&
      Object.assign(
        teamData(team),
        withLazyCalls(TEAM_CALLS, async () => (await load()).clientTeam(ctx, team)),
      ),
    currentSession: { getTokens: session.getTokens, isImpersonation: () => isImpersonationSession(ctx) },
  };
}
