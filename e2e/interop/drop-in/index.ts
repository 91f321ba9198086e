// The drop-in scenarios (issue 16): calls that Stack's published packages make beyond the product specification,
// one file per group of Stack endpoints, run by sdk-interop.test.ts after the core scenarios.
import type { Scenario } from "../scenarios.ts";
import { appMemberScenarios } from "./app-members.ts";
import { emailScenarios } from "./emails.ts";
import { flowScenarios } from "./flows.ts";
import { outsideServiceScenarios } from "./outside-services.ts";
import { pageLoadAnalyticsScenarios } from "./page-load-analytics.ts";
import { projectPermissionOAuthProviderScenarios } from "./project-permissions-oauth-providers.ts";
import { userApiKeyScenarios } from "./user-api-keys.ts";

export const dropInScenarios: Scenario[] = [
  ...appMemberScenarios,
  ...emailScenarios,
  ...flowScenarios,
  ...outsideServiceScenarios,
  ...pageLoadAnalyticsScenarios,
  ...projectPermissionOAuthProviderScenarios,
  ...userApiKeyScenarios,
];
