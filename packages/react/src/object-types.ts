// The SDK's object types as this package hands them out: carrying Stack's object hooks (`user.useTeams()`,
// `team.useUsers()`), so a component typed with Stack's names (`{ team: Team }`) can call them. ServerUser and
// ServerTeam keep the SDK's types: the admin SDK hands them out outside any hook (the dashboard passes them around).
import type * as Sdk from "@gatehouse/sdk";
import type { WithHooks } from "./object-hooks.ts";

export type CurrentUser = WithHooks<Sdk.CurrentUser>;
export type Team = WithHooks<Sdk.Team>;
export type TeamUser = WithHooks<Sdk.TeamUser>;
