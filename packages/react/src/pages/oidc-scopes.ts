// [GO] The sentence that names each OpenID Provider scope, on the consent page and in account settings' connected apps.
import type { MessageKey } from "../messages/en.ts";

export const OIDC_SCOPE_TEXTS: Record<string, MessageKey> = {
  openid: "oidcConsent.scope.openid",
  profile: "oidcConsent.scope.profile",
  email: "oidcConsent.scope.email",
  offline_access: "oidcConsent.scope.offline_access",
  team: "oidcConsent.scope.team",
};
