// The OAuth token endpoint (WIRE.md §3.5): refresh, and the exchange of the OAuth callback's authorization code.
// Client authentication is client_secret_post: the project id and a publishable key (or the public-client sentinel
// where the project allows keyless clients).
import { KnownErrors, PUBLIC_CLIENT_SECRET, tokenRoute } from "@gatehouse/contract";
import type { Hono } from "hono";
import { sha256Hex } from "../crypto/hash.ts";
import { KEY_HASH_COLUMNS } from "../db/api-keys-repo.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { jsonResponse } from "../http/respond.ts";

/** OAuth protocol errors are plain JSON, not known errors (the SDK does not know their codes). */
const oauthError = (error: string, description: string) =>
  jsonResponse(400, { error, error_description: description });

const field = (body: Record<string, unknown> | undefined, name: string) => {
  const value = body?.[name];
  return typeof value === "string" && value !== "" ? value : undefined;
};

export function registerTokenRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, tokenRoute, async ({ body }) => {
    const grantType = field(body, "grant_type");
    if (!grantType) return oauthError("invalid_request", "The grant_type parameter is missing.");
    if (grantType !== "refresh_token" && grantType !== "authorization_code") {
      return oauthError("unsupported_grant_type", `The grant type "${grantType}" is not supported.`);
    }
    const clientId = field(body, "client_id");
    const projectId = clientId?.replace(/#main$/, "");
    const secret = field(body, "client_secret");
    const keyed = secret !== undefined && secret !== PUBLIC_CLIENT_SECRET;
    // Project, key and (for a refresh) the session come back from one query.
    const refreshToken = grantType === "refresh_token" ? field(body, "refresh_token") : undefined;
    const found = projectId
      ? await deps.requestRepo.lookupForRefresh({
          projectId,
          key: keyed ? { column: KEY_HASH_COLUMNS.pck, hash: sha256Hex(secret) } : undefined,
          refreshHash: refreshToken && sha256Hex(refreshToken),
          now: deps.clock.now(),
        })
      : undefined;
    const invalidClient = () =>
      KnownErrors.INVALID_OAUTH_CLIENT_ID_OR_SECRET({ client_id: clientId ?? null });
    if (!found || found.keyValid === false) throw invalidClient();
    const { project } = found;
    if (!keyed && project.config.require_publishable_client_key) {
      throw KnownErrors.PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT({ project_id: project.id });
    }
    const scope = field(body, "scope");
    if (scope !== undefined && scope !== "legacy") throw KnownErrors.INVALID_SCOPE({ scope });

    const tokenAnswer = (accessToken: string, refreshToken: string, extra: Record<string, unknown> = {}) =>
      jsonResponse(
        200,
        {
          access_token: accessToken,
          token_type: "Bearer",
          expires_in: Math.floor(deps.accessTokenLifetimeMs / 1000),
          scope: "legacy",
          refresh_token: refreshToken,
          ...extra,
        },
        { pragma: "no-cache" },
      );

    if (grantType === "authorization_code") {
      const code = field(body, "code");
      if (!code) return oauthError("invalid_request", "The code parameter is missing.");
      const signedIn = await deps.oauth.exchange(project, {
        code,
        redirectUri: field(body, "redirect_uri"),
        codeVerifier: field(body, "code_verifier"),
      });
      const after = signedIn.afterCallbackRedirectUrl;
      return tokenAnswer(signedIn.accessToken, signedIn.refreshToken, {
        is_new_user: signedIn.isNewUser,
        newUser: signedIn.isNewUser,
        after_callback_redirect_url: after,
        afterCallbackRedirectUrl: after,
      });
    }
    if (!refreshToken) return oauthError("invalid_request", "The refresh_token parameter is missing.");
    const refreshed = await deps.sessions.refreshSession(project, refreshToken, found.session);
    return tokenAnswer(refreshed.accessToken, refreshed.refreshToken);
  });
}
