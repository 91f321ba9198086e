// Teams, their members and invitations, and contact channels, as a signed-in user sees them (client access) and as a
// back end sees them (server access). Each object carries its data and the calls that act on it (WIRE.md §4.9–§4.11).
import { apiKeyCalls } from "./api-keys.ts";
import { defined, del, jsonBody, type ObjectContext, patch } from "./context.ts";
import { customerCalls, serverCustomerCalls } from "./payments.ts";
import { type ServerUser, serverUser } from "./server-users.ts";
import { teamData } from "./team-data.ts";
import type {
  ContactChannelJson,
  List,
  MemberProfileJson,
  TeamInvitationJson,
  TeamJson,
  UserJson,
} from "./wire.ts";

export type TeamUpdateOptions = {
  displayName?: string;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
};

export type ServerTeamUpdateOptions = TeamUpdateOptions & {
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
};

export const teamUpdateJson = (u: ServerTeamUpdateOptions) =>
  defined({
    display_name: u.displayName,
    profile_image_url: u.profileImageUrl,
    client_metadata: u.clientMetadata,
    client_read_only_metadata: u.clientReadOnlyMetadata,
    server_metadata: u.serverMetadata,
  });

export type TeamMemberProfile = {
  userId: string;
  displayName: string | null;
  profileImageUrl: string | null;
};

/** A member as Stack's `Team.listUsers()` answers it: the user's id and their profile in this team. */
export type TeamUser = {
  id: string;
  teamProfile: { displayName: string | null; profileImageUrl: string | null };
};

const teamUserOf = (json: MemberProfileJson): TeamUser => ({
  id: json.user_id,
  teamProfile: { displayName: json.display_name, profileImageUrl: json.profile_image_url },
});

export type SentTeamInvitation = {
  id: string;
  recipientEmail: string | null;
  expiresAt: Date;
  revoke(): Promise<void>;
};

function sentInvitation(ctx: ObjectContext, json: TeamInvitationJson): SentTeamInvitation {
  return {
    id: json.id,
    recipientEmail: json.recipient_email,
    expiresAt: new Date(json.expires_at_millis),
    revoke: async () => {
      await ctx.request(`/team-invitations/${json.id}`, { ...del, query: { team_id: json.team_id } });
    },
  };
}

export type ReceivedTeamInvitation = {
  id: string;
  teamId: string;
  teamDisplayName: string;
  recipientEmail: string | null;
  expiresAt: Date;
  accept(): Promise<void>;
};

export function receivedInvitation(ctx: ObjectContext, json: TeamInvitationJson): ReceivedTeamInvitation {
  return {
    id: json.id,
    teamId: json.team_id,
    teamDisplayName: json.team_display_name,
    recipientEmail: json.recipient_email,
    expiresAt: new Date(json.expires_at_millis),
    accept: async () => {
      await ctx.request(`/team-invitations/${json.id}/accept`, { ...jsonBody({}), query: { user_id: "me" } });
      ctx.invalidate();
    },
  };
}

export type Team = ReturnType<typeof teamData> &
  ReturnType<typeof customerCalls> &
  ReturnType<typeof apiKeyCalls<"team">> & {
    inviteUser(options: { email: string; callbackUrl?: string }): Promise<void>;
    listUsers(): Promise<TeamUser[]>;
    listInvitations(): Promise<SentTeamInvitation[]>;
    update(update: TeamUpdateOptions): Promise<void>;
    delete(): Promise<void>;
    removeUser(userId: string): Promise<void>;
  };

/** The calls a team offers at both access levels; `ctx` decides which keys (and session) they run with. */
function teamCalls(ctx: ObjectContext, id: string) {
  return {
    ...apiKeyCalls(ctx, "team", id),
    async inviteUser(options: { email: string; callbackUrl?: string }) {
      await ctx.request(
        "/team-invitations/send-code",
        jsonBody({
          team_id: id,
          email: options.email,
          callback_url: options.callbackUrl ?? ctx.callbackUrl("teamInvitation"),
        }),
      );
    },
    async listInvitations() {
      const list = await ctx.request<List<TeamInvitationJson>>("/team-invitations", {
        query: { team_id: id },
      });
      return list.items.map((item) => sentInvitation(ctx, item));
    },
    async update(update: ServerTeamUpdateOptions) {
      await ctx.request(`/teams/${id}`, patch(teamUpdateJson(update)));
      ctx.invalidate();
    },
    async delete() {
      await ctx.request(`/teams/${id}`, del);
      ctx.invalidate();
    },
    /** Removes a member (a client needs `$remove_members` in the team, or to be that member). */
    async removeUser(userId: string) {
      await ctx.request(`/team-memberships/${id}/${userId}`, del);
      ctx.invalidate();
    },
  };
}

export function clientTeam(ctx: ObjectContext, json: TeamJson): Team {
  return {
    ...teamData(json),
    ...teamCalls(ctx, json.id),
    ...customerCalls(ctx, "team", json.id),
    async listUsers() {
      const list = await ctx.request<List<MemberProfileJson>>("/team-member-profiles", {
        query: { team_id: json.id },
      });
      return list.items.map(teamUserOf);
    },
  };
}

export type ServerTeam = Omit<Team, "update" | "listUsers"> &
  ReturnType<typeof serverCustomerCalls> & {
    createdAt: Date;
    serverMetadata: unknown;
    update(update: ServerTeamUpdateOptions): Promise<void>;
    listUsers(): Promise<(ServerUser & Pick<TeamUser, "teamProfile">)[]>;
    addUser(userId: string): Promise<void>;
  };

export function serverTeam(ctx: ObjectContext, json: TeamJson): ServerTeam {
  return {
    ...teamData(json),
    ...teamCalls(ctx, json.id),
    ...serverCustomerCalls(ctx, "team", json.id),
    createdAt: new Date(json.created_at_millis ?? 0),
    serverMetadata: json.server_metadata ?? null,
    async listUsers() {
      const list = await ctx.request<List<MemberProfileJson>>("/team-member-profiles", {
        query: { team_id: json.id },
      });
      // Server callers get each member's user object beside the profile.
      return list.items.map((item) => ({
        ...serverUser(ctx, item.user as UserJson),
        teamProfile: teamUserOf(item).teamProfile,
      }));
    },
    async addUser(userId: string) {
      await ctx.request(`/team-memberships/${json.id}/${userId}`, jsonBody({}));
      ctx.invalidate();
    },
  };
}

export type ContactChannelUpdateOptions = { value?: string; usedForAuth?: boolean; isPrimary?: boolean };

export type ContactChannel = {
  id: string;
  value: string;
  type: "email";
  isPrimary: boolean;
  isVerified: boolean;
  usedForAuth: boolean;
  sendVerificationEmail(options?: { callbackUrl?: string }): Promise<void>;
  update(data: ContactChannelUpdateOptions & { isVerified?: boolean }): Promise<void>;
  delete(): Promise<void>;
};

/** A contact channel; `userId` is `me` for client objects and the user's id for server ones. */
export function contactChannel(ctx: ObjectContext, userId: string, json: ContactChannelJson): ContactChannel {
  const path = `/contact-channels/${userId}/${json.id}`;
  return {
    id: json.id,
    value: json.value,
    type: json.type,
    isPrimary: json.is_primary,
    isVerified: json.is_verified,
    usedForAuth: json.used_for_auth,
    async sendVerificationEmail(options = {}) {
      await ctx.request(
        `${path}/send-verification-code`,
        jsonBody({ callback_url: options.callbackUrl ?? ctx.callbackUrl("emailVerification") }),
      );
    },
    async update(data) {
      await ctx.request(
        path,
        patch(
          defined({
            value: data.value,
            used_for_auth: data.usedForAuth,
            is_primary: data.isPrimary,
            is_verified: data.isVerified,
          }),
        ),
      );
      ctx.invalidate();
    },
    async delete() {
      await ctx.request(path, del);
      ctx.invalidate();
    },
  };
}
