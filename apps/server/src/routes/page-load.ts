// What Stack's SDK fetches on a page load besides the user: backend URLs, handler page versions (its dev tool) and
// the version check.
import {
  backendUrlsRoute,
  checkVersionRoute,
  componentVersionsLatestRoute,
  componentVersionsRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { checkClientVersion } from "../services/client-version.ts";

/** The pages Stack's handler renders; each is at version 1 in the SDK versions Gatehouse serves (2.8.x). */
const HANDLER_PAGES = [
  "signIn",
  "signUp",
  "signOut",
  "emailVerification",
  "passwordReset",
  "forgotPassword",
  "oauthCallback",
  "magicLinkCallback",
  "accountSettings",
  "teamInvitation",
  "cliAuthConfirm",
  "mfa",
  "error",
  "onboarding",
] as const;

const componentVersions = {
  versions: Object.fromEntries(
    HANDLER_PAGES.map((page) => [page, { version: 1, changelogs: { "1": "Initial version." } }]),
  ),
};

export function registerPageLoadRoutes(app: Hono<AppEnv>, deps: Deps): void {
  // Stack's SDK, when its base URL comes from the environment, sends its later requests to these URLs (failing over
  // in order). This server has one: its public base URL (GATEHOUSE_BASE_URL), which must be the one browsers use.
  const backendUrls = { urls: [deps.baseUrl] };
  bindRoute(app, deps, backendUrlsRoute, async () => backendUrls);

  bindRoute(app, deps, componentVersionsRoute, async () => componentVersions);
  bindRoute(app, deps, componentVersionsLatestRoute, async () => componentVersions);

  bindRoute(app, deps, checkVersionRoute, async ({ body }) => checkClientVersion(body.clientVersion));
}
