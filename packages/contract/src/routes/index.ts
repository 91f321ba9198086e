// The route table: every route of the wire, in the order the API reference lists them.

import { apiKeyRoutes } from "./api-keys.ts";
import {
  anonymousSignUpRoute,
  createSessionRoute,
  endCurrentSessionRoute,
  endSessionRoute,
  listSessionsRoute,
  mfaRecoveryCodesRoute,
  mfaSignInRoute,
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
import { emailTemplateRoutes } from "./email-templates.ts";
import { apiRootRoute, checkFeatureSupportRoute, docsRoute, healthRoute, openApiRoute } from "./meta.ts";
import { getMetricsRoute } from "./metrics.ts";
import { oauthRoutes } from "./oauth.ts";
import { passkeyRoutes } from "./passkeys.ts";
import { permissionDefinitionRoutes } from "./permission-definitions.ts";
import { projectRoutes } from "./projects.ts";
import { teamInvitationRoutes } from "./team-invitations.ts";
import { teamRoutes } from "./teams.ts";
import { userRoutes } from "./users.ts";
import { webhookRoutes } from "./webhooks.ts";

export * from "./api-keys.ts";
export * from "./auth.ts";
export * from "./codes.ts";
export * from "./contact-channels.ts";
export * from "./email-templates.ts";
export * from "./meta.ts";
export * from "./metrics.ts";
export * from "./oauth.ts";
export * from "./passkeys.ts";
export * from "./permission-definitions.ts";
export * from "./projects.ts";
export * from "./team-invitations.ts";
export * from "./teams.ts";
export * from "./users.ts";
export * from "./webhooks.ts";

export const allRoutes = [
  healthRoute,
  apiRootRoute,
  checkFeatureSupportRoute,
  openApiRoute,
  docsRoute,
  ...projectRoutes,
  getMetricsRoute,
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
  mfaSignInRoute,
  mfaRecoveryCodesRoute,
  ...passkeyRoutes,
  ...oauthRoutes,
  verifyEmailRoute,
  checkVerifyEmailCodeRoute,
  sendPrimaryVerificationCodeRoute,
  listEmailsRoute,
  ...contactChannelRoutes,
  ...teamRoutes,
  ...teamInvitationRoutes,
  ...permissionDefinitionRoutes,
  ...apiKeyRoutes,
  ...emailTemplateRoutes,
  ...webhookRoutes,
] as const;
