// @gatehouse/react: React bindings for Gatehouse, named like Stack Auth's (`StackProvider`, `useUser`…). The SDK's
// apps and types are re-exported, so an app imports everything from here.
export * from "@gatehouse/sdk";
// Stack's apps and objects as @stackframe/react has them: carrying their hooks (these names shadow the SDK's above).
export { type AppHooks, StackClientApp, StackServerApp, type WithAppHooks } from "./app-hooks.ts";
export {
  AuthPage,
  type AuthPageProps,
  CredentialSignIn,
  CredentialSignUp,
  MagicLinkSignIn,
} from "./components/auth-components.tsx";
export { ImpersonationBanner } from "./components/impersonation-banner.tsx";
export {
  MessageCard,
  type MessageCardProps,
  UserAvatar,
  type UserAvatarProps,
} from "./components/message-card.tsx";
export { OAuthButton, OAuthButtonGroup } from "./components/oauth-button.tsx";
export { StackTheme, type ThemeConfig } from "./components/stack-theme.tsx";
export {
  SelectedTeamSwitcher,
  type SelectedTeamSwitcherProps,
  TeamSwitcher,
  type TeamSwitcherProps,
} from "./components/team-switcher.tsx";
export { UserButton, type UserButtonProps } from "./components/user-button.tsx";
export { StackHandler, type StackHandlerProps } from "./handler.tsx";
export {
  useApiKeys,
  useContactChannels,
  useIsImpersonation,
  useOAuthProviders,
  usePermission,
  usePermissions,
  useProject,
  useTeam,
  useTeams,
  useUser,
} from "./hooks.ts";
export { HOOK_READS, type ObjectHooks, type WithHooks } from "./object-hooks.ts";
export type { CurrentUser, Team, TeamUser } from "./object-types.ts";
export { AccountSettings } from "./pages/account-settings/index.tsx";
export {
  EmailVerification,
  ErrorPage,
  ForgotPassword,
  MagicLinkCallback,
  MfaPage,
  MfaStep,
  OAuthCallback,
  PasswordReset,
  SignIn,
  SignOut,
  SignUp,
} from "./pages/auth/index.ts";
export { CliAuthConfirm, CliAuthConfirm as CliAuthConfirmation } from "./pages/cli-auth-confirm.tsx";
export { ImpersonationPage } from "./pages/impersonation.tsx";
export { Onboarding } from "./pages/onboarding.tsx";
export { TeamCreation } from "./pages/team-creation.tsx";
export { TeamInvitation } from "./pages/team-invitation.tsx";
export {
  StackProvider,
  type StackProviderProps,
  type ThemeMode,
  useStackApp,
  useStackSettings,
} from "./provider.tsx";
export type * from "./stack-type-names.ts";
