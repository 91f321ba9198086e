// @gatehouse/sdk: client, server and admin apps for Gatehouse (and any server speaking Stack Auth's wire protocol),
// named and shaped like Stack Auth's published SDK. Framework-agnostic: browsers and Node.

export type { OidcClientCreateOptions } from "./admin-app.ts";
export {
  type AdminAppOptions,
  type AdminProject,
  type ApiKeySet,
  type ProjectMetrics,
  type SentEmail,
  StackAdminApp,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookEndpointOptions,
} from "./admin-app.ts";
export type {
  ApiKey,
  ApiKeyCreationOptions,
  ApiKeyType,
  ApiKeyUpdateOptions,
  TeamApiKey,
  TeamApiKeyFirstView,
  UserApiKey,
  UserApiKeyFirstView,
} from "./api-keys.ts";
export { DEFAULT_BASE_URL, SDK_VERSION } from "./app-options.ts";
export type { PromptCliLoginOptions } from "./cli-login.ts";
export {
  type BotChallengeAnswer,
  type ClientAppOptions,
  type CurrentInternalUser,
  type GetUserOptions,
  type OwnedProject,
  type Project,
  StackClientApp,
} from "./client-app.ts";
export type { ConfigOverrideLevel, PushedConfigSource } from "./config-calls.ts";
export type { OAuthConnection, ProviderConnection } from "./connected-accounts.ts";
export type { ActiveSession, UserUpdateOptions } from "./current-user-calls.ts";
export { customClaimsOf } from "./custom-claims.ts";
export type { NotificationCategory, OutboxEmail, OutboxUpdateOptions, SendEmailOptions } from "./emails.ts";
export {
  isKnownError,
  KnownError,
  type KnownErrorCode,
  KnownErrors,
  knownErrorIs,
  Result,
  StackAssertionError,
} from "./errors.ts";
export {
  impersonationLink,
  isImpersonationSession,
  readImpersonationLink,
  type SessionTokens,
} from "./impersonation.ts";
export type { OidcConsentRequest, OidcGrantedApp } from "./oidc-consent.ts";
export type { GetPartialUserOptions, RestrictedReason, TokenPartialUser } from "./partial-user.ts";
export type {
  PermissionDefinition,
  PermissionDefinitionCreateOptions,
  PermissionDefinitionUpdateOptions,
} from "./permission-definitions.ts";
export {
  type CurrentServerUser,
  type ListUsersOptions,
  type ServerAppOptions,
  StackServerApp,
  type UserPage,
} from "./server-app.ts";
export type { ServerUser, ServerUserCreateOptions, ServerUserUpdateOptions } from "./server-users.ts";
export type {
  AdminSessionReplay,
  AdminSessionReplayChunk,
  ListSessionReplaysOptions,
} from "./session-replays.ts";
export type {
  CreatedScimToken,
  ScimToken,
  SsoConnection,
  SsoConnectionTest,
  SsoDomain,
  TeamSso,
} from "./team-sso.ts";
export type { ContactChannel, ServerTeam, Team, TeamUser } from "./teams.ts";
export {
  cookieTokenStore,
  memoryTokenStore,
  requestTokenStore,
  type TokenStore,
  type TokenStoreInit,
} from "./token-store.ts";
export { StatusError } from "./transport.ts";
export {
  cliAuthConfirmUrl,
  type HandlerName,
  type HandlerUrls,
  handlerUrl,
  isTrustedRedirect,
  RETURN_TO_PARAM,
  RedirectNotTrustedError,
  SIGNED_UP_PARAM,
  withReturnTo,
} from "./urls.ts";
export type {
  OAuthProvider,
  OAuthProviderCreateOptions,
  OAuthProviderUpdate,
} from "./user-oauth-providers.ts";
export type { CurrentUser, TeamPermission } from "./users.ts";
