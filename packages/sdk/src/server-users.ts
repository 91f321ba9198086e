// Users as a back end manages them with the secret server key (WIRE.md §4.8): every field, any user of the project,
// and the calls only servers may make (metadata, permissions, sessions for a user).
import { apiKeyCalls } from "./api-keys.ts";
import { connectedAccountCalls, serverLinkingCalls } from "./connected-accounts.ts";
import { defined, del, jsonBody, type ObjectContext, patch } from "./context.ts";
import { sessionOf, type UserUpdateOptions, userUpdateJson } from "./current-user-calls.ts";
import { notificationCategoryCalls } from "./emails.ts";
import { serverCustomerCalls } from "./payments.ts";
import { serverUserTeamCalls } from "./server-user-teams.ts";
import { contactChannel, type ServerTeam, serverTeam } from "./teams.ts";
import { oauthProviderCalls } from "./user-oauth-providers.ts";
import { permissionReads, permissionWrites } from "./user-permissions.ts";
import { userData } from "./users.ts";
import type { ContactChannelJson, List, SessionJson, TeamJson, UserJson } from "./wire.ts";

export type ServerUserUpdateOptions = UserUpdateOptions & {
  primaryEmail?: string | null;
  primaryEmailVerified?: boolean;
  primaryEmailAuthEnabled?: boolean;
  password?: string | null;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
  isAnonymous?: boolean;
  restrictedByAdmin?: boolean;
  restrictedByAdminReason?: string | null;
  restrictedByAdminPrivateDetails?: string | null;
};

export type ServerUserCreateOptions = Omit<
  ServerUserUpdateOptions,
  "selectedTeamId" | "totpMultiFactorSecret"
> & {
  oauthProviders?: { providerId: string; accountId: string; email: string | null }[];
};

export function serverUserJson(u: ServerUserUpdateOptions | ServerUserCreateOptions) {
  return {
    ...userUpdateJson(u),
    ...defined({
      primary_email: u.primaryEmail,
      primary_email_verified: u.primaryEmailVerified,
      primary_email_auth_enabled: u.primaryEmailAuthEnabled,
      password: u.password,
      client_read_only_metadata: u.clientReadOnlyMetadata,
      server_metadata: u.serverMetadata,
      is_anonymous: u.isAnonymous,
      restricted_by_admin: u.restrictedByAdmin,
      restricted_by_admin_reason: u.restrictedByAdminReason,
      restricted_by_admin_private_details: u.restrictedByAdminPrivateDetails,
      oauth_providers:
        "oauthProviders" in u
          ? u.oauthProviders?.map((p) => ({ id: p.providerId, account_id: p.accountId, email: p.email }))
          : undefined,
    }),
  };
}

export type ServerUser = ReturnType<typeof serverUser>;

export function serverUser(ctx: ObjectContext, json: UserJson) {
  const path = `/users/${json.id}`;
  return {
    ...userData(json),
    lastActiveAt: new Date(json.last_active_at_millis ?? 0),
    serverMetadata: json.server_metadata ?? null,
    primaryEmailAuthEnabled: json.primary_email_auth_enabled ?? false,
    restrictedByAdmin: json.restricted_by_admin ?? false,
    restrictedByAdminReason: json.restricted_by_admin_reason ?? null,
    restrictedByAdminPrivateDetails: json.restricted_by_admin_private_details ?? null,
    selectedTeam: json.selected_team && serverTeam(ctx, json.selected_team),
    async update(update: ServerUserUpdateOptions) {
      await ctx.request(path, patch(serverUserJson(update)));
      ctx.invalidate();
    },
    setDisplayName(displayName: string | null) {
      return this.update({ displayName });
    },
    setPrimaryEmail(primaryEmail: string | null, options: { verified?: boolean } = {}) {
      return this.update({ primaryEmail, primaryEmailVerified: options.verified });
    },
    setClientMetadata(clientMetadata: unknown) {
      return this.update({ clientMetadata });
    },
    setClientReadOnlyMetadata(clientReadOnlyMetadata: unknown) {
      return this.update({ clientReadOnlyMetadata });
    },
    setServerMetadata(serverMetadata: unknown) {
      return this.update({ serverMetadata });
    },
    async delete() {
      await ctx.request(path, del);
      ctx.invalidate();
    },
    async listTeams(): Promise<ServerTeam[]> {
      const list = await ctx.request<List<TeamJson>>("/teams", { query: { user_id: json.id } });
      return list.items.map((t) => serverTeam(ctx, t));
    },
    ...serverUserTeamCalls(ctx, json),
    async createTeam(data: { displayName: string; profileImageUrl?: string | null }): Promise<ServerTeam> {
      const team = await ctx.request<TeamJson>(
        "/teams",
        jsonBody(
          defined({
            display_name: data.displayName,
            profile_image_url: data.profileImageUrl,
            creator_user_id: json.id,
          }),
        ),
      );
      return serverTeam(ctx, team);
    },
    async listContactChannels() {
      const list = await ctx.request<List<ContactChannelJson>>("/contact-channels", {
        query: { user_id: json.id },
      });
      return list.items.map((c) => contactChannel(ctx, json.id, c));
    },
    async createContactChannel(data: {
      value: string;
      usedForAuth: boolean;
      isPrimary?: boolean;
      isVerified?: boolean;
    }) {
      const created = await ctx.request<ContactChannelJson>(
        "/contact-channels",
        jsonBody({
          user_id: json.id,
          type: "email",
          value: data.value,
          used_for_auth: data.usedForAuth,
          ...defined({ is_primary: data.isPrimary, is_verified: data.isVerified }),
        }),
      );
      return contactChannel(ctx, json.id, created);
    },
    // Team permissions with a team first argument, project permissions without (Stack's overloads).
    ...permissionReads(ctx, json.id),
    ...notificationCategoryCalls(ctx, json.id),
    ...apiKeyCalls(ctx, "user", json.id),
    ...serverCustomerCalls(ctx, "user", json.id),
    ...permissionWrites(ctx, json.id),
    ...oauthProviderCalls(ctx, json.id),
    ...connectedAccountCalls(ctx, json.id),
    ...serverLinkingCalls(),
    async getActiveSessions() {
      const list = await ctx.request<List<SessionJson>>("/auth/sessions", { query: { user_id: json.id } });
      return list.items.map(sessionOf);
    },
    /** Ends one of the user's sessions (its refresh token stops working at once). */
    async revokeSession(sessionId: string) {
      await ctx.request(`/auth/sessions/${encodeURIComponent(sessionId)}`, {
        ...del,
        query: { user_id: json.id },
      });
    },
    /** A new session for this user (impersonation, tests, server-side sign-in); 1 year unless told otherwise. */
    async createSession(options: { expiresInMillis?: number; isImpersonation?: boolean } = {}) {
      const tokens = await ctx.request<{ access_token: string; refresh_token: string }>(
        "/auth/sessions",
        jsonBody(
          defined({
            user_id: json.id,
            expires_in_millis: options.expiresInMillis,
            is_impersonation: options.isImpersonation,
          }),
        ),
      );
      return {
        getTokens: async () => ({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token }),
      };
    },
  };
}
