// What a page needs only when a person starts it, loaded on use (`await import("./flows.ts")`) by the client app and
// the user object: the sign-in paths beyond the password (client-flows.ts: magic links, MFA, reset, codes, passkeys,
// OAuth and SSO, sign-up), the CLI login, the owned projects of an internal-project user (a dashboard's), the
// partial user, the app's payments calls, and the signed-in user's and its selected team's calls.
// One module rather than three: esbuild gives each distinct set of importers its own shared chunk, so every lazy
// module adds a file to a page's first load; one keeps it at two files. Nothing here is exported by the package.
export { completeCliLogin, promptCliLogin } from "./cli-login.ts";
export {
  acceptTeamInvitation,
  callOAuthCallback,
  checkCode,
  getSsoSignInUrl,
  getTeamInvitationDetails,
  redirectToOnboarding,
  resetPassword,
  sendForgotPasswordEmail,
  sendMagicLinkEmail,
  signInWithImpersonation,
  signInWithMagicLink,
  signInWithMfa,
  signInWithPasskey,
  signInWithRecoveryCode,
  signUpWithCredential,
  startOAuth,
} from "./client-flows.ts";
export { currentUserCalls } from "./current-user-calls.ts";
export { clientAppPaymentCalls } from "./customer-apps.ts";
export { ownedProjectCalls } from "./owned-projects.ts";
export { partialUserOf } from "./partial-user.ts";
export { clientTeam } from "./teams.ts";
export { browserWebAuthn, createPasskey } from "./webauthn.ts";
