// The calls Stack's ServerUser has beside its fields: its teams one at a time, leaving a team, the member profile
// and invitations of the user, the selected team, the password and the verification e-mail, made with the server
// key for any user of the project (the current user's own versions are in users.ts).
import { defined, del, type ObjectContext, patch } from "./context.ts";
import {
  contactChannel,
  type ReceivedTeamInvitation,
  receivedInvitation,
  type ServerTeam,
  serverTeam,
} from "./teams.ts";
import type {
  ContactChannelJson,
  List,
  MemberProfileJson,
  TeamInvitationJson,
  TeamJson,
  UserJson,
} from "./wire.ts";

type TeamRef = { id: string };

export function serverUserTeamCalls(ctx: ObjectContext, json: UserJson) {
  const userId = json.id;
  const profilePath = (team: TeamRef) => `/team-member-profiles/${team.id}/${userId}`;
  const updateUser = async (body: Record<string, unknown>) => {
    await ctx.request(`/users/${userId}`, patch(body));
    ctx.invalidate();
  };
  return {
    /** Stack reports these from its sign-up risk checks; Gatehouse makes none, so no country and no risk. */
    countryCode: null as string | null,
    riskScores: { signUp: { bot: 0, freeTrialAbuse: 0 } },
    async getTeam(teamId: string): Promise<ServerTeam | null> {
      const list = await ctx.request<List<TeamJson>>("/teams", { query: { user_id: userId } });
      const found = list.items.find((team) => team.id === teamId);
      return found ? serverTeam(ctx, found) : null;
    },
    async leaveTeam(team: TeamRef): Promise<void> {
      await ctx.request(`/team-memberships/${team.id}/${userId}`, del);
      ctx.invalidate();
    },
    async setSelectedTeam(team: TeamRef | string | null): Promise<void> {
      await updateUser({ selected_team_id: typeof team === "string" ? team : (team?.id ?? null) });
    },
    /** Sets (or with null removes) the password without the old one, as only a server may. */
    async setPassword(options: { password: string | null }): Promise<void> {
      await updateUser({ password: options.password });
    },
    async getTeamProfile(team: TeamRef) {
      const profile = await ctx.request<MemberProfileJson>(profilePath(team));
      return {
        userId: profile.user_id,
        displayName: profile.display_name,
        profileImageUrl: profile.profile_image_url,
        async update(u: { displayName?: string | null; profileImageUrl?: string | null }) {
          await ctx.request(
            profilePath(team),
            patch(defined({ display_name: u.displayName, profile_image_url: u.profileImageUrl })),
          );
          ctx.invalidate();
        },
      };
    },
    async listTeamInvitations(): Promise<ReceivedTeamInvitation[]> {
      const list = await ctx.request<List<TeamInvitationJson>>("/team-invitations", {
        query: { user_id: userId },
      });
      return list.items.map((i) => receivedInvitation(ctx, i));
    },
    /** Sends the verification e-mail to the user's primary address (nothing when it has none). */
    async sendVerificationEmail(options: { callbackUrl?: string } = {}): Promise<void> {
      const list = await ctx.request<List<ContactChannelJson>>("/contact-channels", {
        query: { user_id: userId },
      });
      const primary = list.items.find((c) => c.is_primary && c.type === "email");
      if (primary) await contactChannel(ctx, userId, primary).sendVerificationEmail(options);
    },
  };
}
