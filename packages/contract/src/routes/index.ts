// The route table: every route of the wire, in the order the API reference lists them.

import { analyticsRoutes } from "./analytics.ts";
import { apiKeyRoutes } from "./api-keys.ts";
import { auditRoutes } from "./audit.ts";
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
import { backupRoutes } from "./backup.ts";
import { cliAuthRoutes } from "./cli-auth.ts";
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
import { configRoutes } from "./config.ts";
import { contactChannelRoutes } from "./contact-channels.ts";
import { crossDomainRoutes } from "./cross-domain.ts";
import { emailTemplateRoutes } from "./email-templates.ts";
import { emailTsxRoutes } from "./email-tsx.ts";
import { emailRoutes } from "./emails.ts";
import { importRoutes } from "./imports.ts";
import { apiRootRoute, checkFeatureSupportRoute, docsRoute, healthRoute, openApiRoute } from "./meta.ts";
import { getMetricsRoute } from "./metrics.ts";
import { oauthRoutes } from "./oauth.ts";
import { oauthProviderRoutes } from "./oauth-providers.ts";
import { oidcProviderRoutes } from "./oidc-provider.ts";
import { outsideServiceRoutes } from "./outside-services.ts";
import { pageLoadRoutes } from "./page-load.ts";
import { passkeyRoutes } from "./passkeys.ts";
import { paymentRoutes } from "./payments.ts";
import { paymentAdminRoutes } from "./payments-admin.ts";
import { permissionDefinitionRoutes } from "./permission-definitions.ts";
import { projectPermissionRoutes } from "./project-permissions.ts";
import { projectRoutes } from "./projects.ts";
import { scimRoutes } from "./scim.ts";
import { signingKeyRoutes } from "./signing-keys.ts";
import { ssoRoutes } from "./sso.ts";
import { teamInvitationRoutes } from "./team-invitations.ts";
import { teamRoutes } from "./teams.ts";
import { ownedApiKeyRouteTable } from "./user-api-keys.ts";
import { userMetricsRoutes } from "./user-metrics.ts";
import { userRoutes } from "./users.ts";
import { webhookRoutes } from "./webhooks.ts";

export * from "./analytics.ts";
export * from "./api-keys.ts";
export * from "./audit.ts";
export * from "./auth.ts";
export * from "./backup.ts";
export * from "./cli-auth.ts";
export * from "./codes.ts";
export * from "./config.ts";
export * from "./contact-channels.ts";
export * from "./cross-domain.ts";
export * from "./email-templates.ts";
export * from "./email-tsx.ts";
export * from "./emails.ts";
export * from "./imports.ts";
export * from "./meta.ts";
export * from "./metrics.ts";
export * from "./oauth.ts";
export * from "./oauth-providers.ts";
export * from "./oidc-provider.ts";
export * from "./outside-services.ts";
export * from "./page-load.ts";
export * from "./passkeys.ts";
export * from "./payments.ts";
export * from "./payments-admin.ts";
export * from "./permission-definitions.ts";
export * from "./project-permissions.ts";
export * from "./projects.ts";
export * from "./scim.ts";
export * from "./signing-keys.ts";
export * from "./sso.ts";
export * from "./team-invitations.ts";
export * from "./teams.ts";
export * from "./user-api-keys.ts";
export * from "./user-metrics.ts";
export * from "./users.ts";
export * from "./webhooks.ts";

export const allRoutes = [
  healthRoute,
  apiRootRoute,
  checkFeatureSupportRoute,
  openApiRoute,
  docsRoute,
  ...pageLoadRoutes,
  ...projectRoutes,
  getMetricsRoute,
  ...analyticsRoutes,
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
  ...cliAuthRoutes,
  ...crossDomainRoutes,
  ...oauthRoutes,
  ...oauthProviderRoutes,
  verifyEmailRoute,
  checkVerifyEmailCodeRoute,
  sendPrimaryVerificationCodeRoute,
  listEmailsRoute,
  ...contactChannelRoutes,
  ...teamRoutes,
  ...teamInvitationRoutes,
  ...ssoRoutes,
  ...scimRoutes,
  ...oidcProviderRoutes,
  ...permissionDefinitionRoutes,
  ...projectPermissionRoutes,
  ...apiKeyRoutes,
  ...ownedApiKeyRouteTable,
  ...emailTemplateRoutes,
  ...emailRoutes,
  ...emailTsxRoutes,
  ...webhookRoutes,
  ...paymentRoutes,
  ...paymentAdminRoutes,
  ...outsideServiceRoutes,
  ...userMetricsRoutes,
  ...configRoutes,
  ...auditRoutes,
  ...signingKeyRoutes,
  ...backupRoutes,
  ...importRoutes,
] as const;
