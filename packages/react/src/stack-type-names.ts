// Stack's names for types our SDK has under other names or only as parts of its objects, so code written for
// @stackframe/react that names them (`GetCurrentUserOptions`, `TeamMemberProfile`…) compiles unchanged.
import type {
  AdminAppOptions,
  ClientAppOptions,
  CurrentUser,
  GetUserOptions,
  HandlerUrls,
  ListUsersOptions,
  ServerAppOptions,
  ServerTeam,
  Team,
  TeamUser,
} from "@gatehouse/sdk";

export type GetCurrentUserOptions = GetUserOptions;
export type StackClientAppConstructorOptions = ClientAppOptions;
export type StackServerAppConstructorOptions = ServerAppOptions;
export type StackAdminAppConstructorOptions = AdminAppOptions;
export type ServerListUsersOptions = ListUsersOptions;
export type ResolvedHandlerUrls = HandlerUrls;
export type TeamCreateOptions = Parameters<CurrentUser["createTeam"]>[0];
export type TeamUpdateOptions = Parameters<Team["update"]>[0];
export type TeamMemberProfile = TeamUser["teamProfile"];
export type EditableTeamMemberProfile = Awaited<ReturnType<CurrentUser["getTeamProfile"]>>;
export type ReceivedTeamInvitation = Awaited<ReturnType<CurrentUser["listTeamInvitations"]>>[number];
export type SentTeamInvitation = Awaited<ReturnType<Team["listInvitations"]>>[number];
export type ServerTeamUser = Awaited<ReturnType<ServerTeam["listUsers"]>>[number];
// Ported by the SDK under Stack's own names.
export type { CurrentServerUser, OAuthConnection } from "@gatehouse/sdk";
