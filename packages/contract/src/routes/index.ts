// The route table: every route of the wire, in the order the API reference lists them.
import {
  anonymousSignUpRoute,
  createSessionRoute,
  endCurrentSessionRoute,
  endSessionRoute,
  listSessionsRoute,
  passwordSignInRoute,
  passwordSignUpRoute,
  refreshCurrentSessionRoute,
  setPasswordRoute,
  tokenRoute,
  updatePasswordRoute,
} from "./auth.ts";
import {
  checkResetCodeRoute,
  checkSignInCodeRoute,
  checkVerifyEmailCodeRoute,
  listEmailsRoute,
  otpSignInRoute,
  resetPasswordRoute,
  sendPrimaryVerificationCodeRoute,
  sendResetCodeRoute,
  sendSignInCodeRoute,
  verifyEmailRoute,
} from "./codes.ts";
import { contactChannelRoutes } from "./contact-channels.ts";
import { apiRootRoute, checkFeatureSupportRoute, docsRoute, healthRoute, openApiRoute } from "./meta.ts";
import { anonymousJwksRoute, getCurrentProjectRoute, jwksRoute, restrictedJwksRoute } from "./projects.ts";
import { teamInvitationRoutes } from "./team-invitations.ts";
import { teamRoutes } from "./teams.ts";
import { userRoutes } from "./users.ts";

export * from "./auth.ts";
export * from "./codes.ts";
export * from "./contact-channels.ts";
export * from "./meta.ts";
export * from "./projects.ts";
export * from "./team-invitations.ts";
export * from "./teams.ts";
export * from "./users.ts";

export const allRoutes = [
  healthRoute,
  apiRootRoute,
  checkFeatureSupportRoute,
  openApiRoute,
  docsRoute,
  getCurrentProjectRoute,
  jwksRoute,
  anonymousJwksRoute,
  restrictedJwksRoute,
  tokenRoute,
  passwordSignUpRoute,
  passwordSignInRoute,
  anonymousSignUpRoute,
  createSessionRoute,
  listSessionsRoute,
  endCurrentSessionRoute,
  endSessionRoute,
  refreshCurrentSessionRoute,
  ...userRoutes,
  updatePasswordRoute,
  setPasswordRoute,
  sendResetCodeRoute,
  checkResetCodeRoute,
  resetPasswordRoute,
  sendSignInCodeRoute,
  otpSignInRoute,
  checkSignInCodeRoute,
  verifyEmailRoute,
  checkVerifyEmailCodeRoute,
  sendPrimaryVerificationCodeRoute,
  listEmailsRoute,
  ...contactChannelRoutes,
  ...teamRoutes,
  ...teamInvitationRoutes,
] as const;
