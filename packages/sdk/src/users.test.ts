// The signed-in user object as a page first gets it: its data at once, and stubs for its calls (and its selected
// team's) that load the real calls on first use. The stub lists must name every call the loaded objects have, and the
// stubs must hand each call on with its arguments.
import { describe, expect, it } from "vitest";
import type { ObjectContext } from "./context.ts";
import { currentUserCalls } from "./current-user-calls.ts";
import { teamData } from "./team-data.ts";
import { clientTeam } from "./teams.ts";
import type { RequestOptions } from "./transport.ts";
import { CURRENT_USER_CALLS, currentUser, TEAM_CALLS } from "./users.ts";
import type { TeamJson, UserJson } from "./wire.ts";

const TEAM: TeamJson = {
  id: "team-1",
  display_name: "Team one",
  profile_image_url: null,
  client_metadata: null,
  client_read_only_metadata: null,
} as TeamJson;

const USER = {
  id: "user-1",
  display_name: "Ada",
  primary_email: "ada@example.com",
  primary_email_verified: true,
  profile_image_url: null,
  signed_up_at_millis: 0,
  client_metadata: null,
  client_read_only_metadata: null,
  has_password: true,
  auth_with_email: true,
  otp_auth_enabled: false,
  passkey_auth_enabled: false,
  requires_totp_mfa: false,
  is_anonymous: false,
  is_restricted: false,
  restricted_reason: null,
  oauth_providers: [],
  selected_team: TEAM,
} as unknown as UserJson;

function recording() {
  const calls: string[] = [];
  const ctx: ObjectContext = {
    async request<T>(path: string, options: RequestOptions = {}) {
      calls.push(
        `${options.method ?? "GET"} ${path}${options.body ? ` ${JSON.stringify(options.body)}` : ""}`,
      );
      return { items: [] } as T;
    },
    callbackUrl: () => "",
    invalidate: () => {},
  };
  return { ctx, calls };
}

const session = { signOut: async () => {}, link: async () => {} };
const functionsOf = (object: object) =>
  Object.entries(object)
    .filter(([, value]) => typeof value === "function")
    .map(([name]) => name)
    .sort();

describe("the signed-in user's lazily loaded calls", () => {
  it("names every call of currentUserCalls but signOut, and every call of a client team", () => {
    const { ctx } = recording();
    const calls = functionsOf(currentUserCalls(ctx, USER.id, session)).filter((name) => name !== "signOut");
    expect([...CURRENT_USER_CALLS].sort()).toEqual(calls);
    const teamCalls = functionsOf(clientTeam(ctx, TEAM)).filter((name) => !(name in teamData(TEAM)));
    expect([...TEAM_CALLS].sort()).toEqual(teamCalls);
  });

  it("answers the data at once and loads the calls once, on the first call, with their arguments", async () => {
    const { ctx, calls } = recording();
    let loads = 0;
    const load = async () => {
      loads++;
      return { currentUserCalls, clientTeam };
    };
    const user = currentUser(
      ctx,
      USER,
      { ...session, getTokens: async () => ({ accessToken: null, refreshToken: null }) },
      load,
    );
    expect(user.displayName).toBe("Ada");
    expect(user.selectedTeam?.displayName).toBe("Team one");
    expect(loads).toBe(0);
    await user.setDisplayName("Grace");
    await user.selectedTeam?.inviteUser({ email: "b@example.com", callbackUrl: "https://app/invite" });
    await user.listTeams();
    expect(loads).toBe(2);
    expect(calls).toEqual([
      'PATCH /users/me {"display_name":"Grace"}',
      'POST /team-invitations/send-code {"team_id":"team-1","email":"b@example.com","callback_url":"https://app/invite"}',
      "GET /teams",
    ]);
  });

  it("tries the load again after it failed", async () => {
    const { ctx } = recording();
    let loads = 0;
    const load = async () => {
      if (++loads === 1) throw new Error("chunk failed to load");
      return { currentUserCalls, clientTeam };
    };
    const user = currentUser(
      ctx,
      USER,
      { ...session, getTokens: async () => ({ accessToken: null, refreshToken: null }) },
      load,
    );
    await expect(user.leaveTeam({ id: "team-1" })).rejects.toThrow("chunk failed to load");
    await user.leaveTeam({ id: "team-1" });
    expect(loads).toBe(2);
  });
});
