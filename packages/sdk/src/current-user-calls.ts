// The signed-in user's own calls (client access, on its session: `me`), loaded on first use with flows.ts: the user
// object a page reads first carries its data and stubs that load these (users.ts), so a page that only reads the user
// does not load the code of teams, contact channels, API keys, connected accounts, passkeys or payments.
// The update and session shapes live here too, for the server's users (server-users.ts) that share them.
import { apiKeyCalls } from "./api-keys.ts";
import { connectedAccountCalls, currentUserLinkingCalls } from "./connected-accounts.ts";
import { defined, del, jsonBody, type ObjectContext, patch } from "./context.ts";
import { notificationCategoryCalls } from "./emails.ts";
import { expectingErrors, type KnownError, knownErrorIs, type Result } from "./errors.ts";
import { customerCalls } from "./payments.ts";
import {
  type ContactChannel,
  clientTeam,
  contactChannel,
  type ReceivedTeamInvitation,
  receivedInvitation,
  type Team,
  type TeamMemberProfile,
} from "./teams.ts";
import { oauthProviderCalls } from "./user-oauth-providers.ts";
import { permissionReads } from "./user-permissions.ts";
import type {
  ContactChannelJson,
  List,
  MemberProfileJson,
  SessionJson,
  TeamInvitationJson,
  TeamJson,
} from "./wire.ts";

const bytesToBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** Runs `action`; one of the expected known errors is returned instead of thrown (Stack's shape for a few calls). */
async function returnedError(codes: string[], action: () => Promise<void>): Promise<KnownError | undefined> {
  try {
    await action();
    return undefined;
  } catch (error) {
    if (codes.some((code) => knownErrorIs(error, code))) return error as KnownError;
    throw error;
  }
}

export type UserUpdateOptions = {
  displayName?: string | null;
  clientMetadata?: unknown;
  selectedTeamId?: string | null;
  profileImageUrl?: string | null;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
  /** The TOTP secret's bytes (10–64), or null to turn the second factor off. */
  totpMultiFactorSecret?: Uint8Array | null;
};

export function userUpdateJson(u: UserUpdateOptions) {
  return defined({
    display_name: u.displayName,
    client_metadata: u.clientMetadata,
    selected_team_id: u.selectedTeamId,
    profile_image_url: u.profileImageUrl,
    otp_auth_enabled: u.otpAuthEnabled,
    passkey_auth_enabled: u.passkeyAuthEnabled,
    totp_secret_base64:
      u.totpMultiFactorSecret === undefined
        ? undefined
        : u.totpMultiFactorSecret && bytesToBase64(u.totpMultiFactorSecret),
  });
}

export type ActiveSession = {
  id: string;
  userId: string;
  createdAt: Date;
  lastUsedAt: Date | undefined;
  isImpersonation: boolean;
  isCurrentSession: boolean;
};

export const sessionOf = (s: SessionJson): ActiveSession => ({
  id: s.id,
  userId: s.user_id,
  createdAt: new Date(s.created_at),
  lastUsedAt: s.last_used_at === null ? undefined : new Date(s.last_used_at),
  isImpersonation: s.is_impersonation,
  isCurrentSession: s.is_current_session,
});

/** What a user can do about themselves, on the session `ctx` carries (client access, `me`). */
function ownCalls(ctx: ObjectContext, signOut: () => Promise<void>) {
  const teamsOf = async () =>
    (await ctx.request<List<TeamJson>>("/teams", { query: { user_id: "me" } })).items.map((t) =>
      clientTeam(ctx, t),
    );
  return {
    async update(update: UserUpdateOptions) {
      await ctx.request("/users/me", patch(userUpdateJson(update)));
      ctx.invalidate();
    },
    setDisplayName(displayName: string | null) {
      return this.update({ displayName });
    },
    setClientMetadata(clientMetadata: unknown) {
      return this.update({ clientMetadata });
    },
    setSelectedTeam(team: string | { id: string } | null) {
      return this.update({ selectedTeamId: typeof team === "string" || team === null ? team : team.id });
    },
    /** Stack's shape: the expected error is returned (not thrown), success is undefined. */
    updatePassword(options: { oldPassword: string; newPassword: string }): Promise<KnownError | undefined> {
      return returnedError(["PASSWORD_CONFIRMATION_MISMATCH", "PASSWORD_REQUIREMENTS_NOT_MET"], async () => {
        await ctx.request("/auth/password/update", {
          ...jsonBody({ old_password: options.oldPassword, new_password: options.newPassword }),
          sendRefreshToken: true,
        });
        ctx.invalidate();
      });
    },
    setPassword(options: { password: string }): Promise<KnownError | undefined> {
      return returnedError(["PASSWORD_REQUIREMENTS_NOT_MET"], async () => {
        await ctx.request("/auth/password/set", jsonBody({ password: options.password }));
        ctx.invalidate();
      });
    },
    async listContactChannels(): Promise<ContactChannel[]> {
      const list = await ctx.request<List<ContactChannelJson>>("/contact-channels", {
        query: { user_id: "me" },
      });
      return list.items.map((c) => contactChannel(ctx, "me", c));
    },
    async createContactChannel(data: {
      value: string;
      type?: "email";
      usedForAuth: boolean;
      isPrimary?: boolean;
    }) {
      const json = await ctx.request<ContactChannelJson>(
        "/contact-channels",
        jsonBody({
          user_id: "me",
          type: data.type ?? "email",
          value: data.value,
          used_for_auth: data.usedForAuth,
          ...defined({ is_primary: data.isPrimary }),
        }),
      );
      ctx.invalidate();
      return contactChannel(ctx, "me", json);
    },
    listTeams: teamsOf,
    async getTeam(teamId: string): Promise<Team | null> {
      return (await teamsOf()).find((t) => t.id === teamId) ?? null;
    },
    async createTeam(data: { displayName: string; profileImageUrl?: string | null }): Promise<Team> {
      const json = await ctx.request<TeamJson>(
        "/teams",
        jsonBody(
          defined({
            display_name: data.displayName,
            profile_image_url: data.profileImageUrl,
            creator_user_id: "me",
          }),
        ),
      );
      // The creator works in the new team straight away, as in Stack Auth's SDK.
      await ctx.request("/users/me", patch({ selected_team_id: json.id }));
      ctx.invalidate();
      return clientTeam(ctx, json);
    },
    async leaveTeam(team: { id: string }) {
      await ctx.request(`/team-memberships/${team.id}/me`, del);
      ctx.invalidate();
    },
    async getTeamProfile(team: { id: string }) {
      const json = await ctx.request<MemberProfileJson>(`/team-member-profiles/${team.id}/me`);
      const profile: TeamMemberProfile = {
        userId: json.user_id,
        displayName: json.display_name,
        profileImageUrl: json.profile_image_url,
      };
      return {
        ...profile,
        async update(u: { displayName?: string | null; profileImageUrl?: string | null }) {
          await ctx.request(
            `/team-member-profiles/${team.id}/me`,
            patch(defined({ display_name: u.displayName, profile_image_url: u.profileImageUrl })),
          );
          ctx.invalidate();
        },
      };
    },
    async listTeamInvitations(): Promise<ReceivedTeamInvitation[]> {
      const list = await ctx.request<List<TeamInvitationJson>>("/team-invitations", {
        query: { user_id: "me" },
      });
      return list.items.map((i) => receivedInvitation(ctx, i));
    },
    // Team permissions with a team first argument, project permissions without (Stack's overloads).
    ...permissionReads(ctx, "me"),
    ...notificationCategoryCalls(ctx, "me"),
    ...apiKeyCalls(ctx, "user", "me"),
    ...oauthProviderCalls(ctx, "me"),
    async getActiveSessions(): Promise<ActiveSession[]> {
      const list = await ctx.request<List<SessionJson>>("/auth/sessions", { query: { user_id: "me" } });
      return list.items.map(sessionOf);
    },
    async revokeSession(sessionId: string) {
      await ctx.request(`/auth/sessions/${sessionId}`, { ...del, query: { user_id: "me" } });
    },
    ...connectedAccountCalls(ctx, "me"),
    /** Registers a passkey of this site for the user (replacing an earlier one). */
    registerPasskey(): Promise<Result<undefined>> {
      return expectingErrors(["PASSKEY_REGISTRATION_FAILED", "PASSKEY_WEBAUTHN_ERROR"], async () => {
        const { browserWebAuthn, createPasskey } = await import("./flows.ts");
        const { credentials, hostname } = browserWebAuthn();
        const { options_json, code } = await ctx.request<{
          options_json: Record<string, unknown>;
          code: string;
        }>("/auth/passkey/initiate-passkey-registration", jsonBody({}));
        const credential = await createPasskey(options_json, hostname, credentials);
        await ctx.request("/auth/passkey/register", jsonBody({ credential, code }));
        ctx.invalidate();
        return undefined;
      });
    },
    /** [GO] New single-use recovery codes for the second factor (replacing earlier ones); shown once. */
    async generateRecoveryCodes(): Promise<string[]> {
      const answer = await ctx.request<{ recovery_codes: string[] }>(
        "/auth/mfa/recovery-codes",
        jsonBody({}),
      );
      return answer.recovery_codes;
    },
    sendVerificationEmail(options: { callbackUrl?: string } = {}): Promise<KnownError | undefined> {
      return returnedError(["EMAIL_ALREADY_VERIFIED"], async () => {
        await ctx.request(
          "/contact-channels/send-verification-code",
          jsonBody({ callback_url: options.callbackUrl ?? ctx.callbackUrl("emailVerification") }),
        );
      });
    },
    async delete() {
      await ctx.request("/users/me", del);
      ctx.invalidate();
      await signOut();
    },
    signOut,
  };
}

/** Every call of the signed-in user beyond its data: its own, linking accounts through `link`, and its billing. */
export function currentUserCalls(
  ctx: ObjectContext,
  userId: string,
  session: {
    signOut(): Promise<void>;
    /** Sends the browser to `provider` to link an account to this user. */
    link(provider: string, options: { scopes?: string[]; returnTo?: string }): Promise<void>;
  },
) {
  const own = ownCalls(ctx, session.signOut);
  return {
    ...own,
    ...currentUserLinkingCalls(own, session.link),
    ...customerCalls(ctx, "user", userId),
  };
}
