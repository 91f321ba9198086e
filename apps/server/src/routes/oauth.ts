// OAuth routes (WIRE.md §4.5, §4.17): authorize, the provider callback, the development provider's page, and
// connected accounts. Thin handlers over oauth/flow.ts, oauth/development-provider.ts and
// oauth/connected-accounts.ts.
import {
  connectedAccountByIdTokenRoute,
  connectedAccountTokenRoute,
  developmentProviderChooseRoute,
  developmentProviderPageRoute,
  isKnownError,
  KnownErrors,
  listConnectedAccountsRoute,
  oauthAuthorizeRoute,
  oauthCallbackGetRoute,
  oauthCallbackPostRoute,
  PUBLIC_CLIENT_SECRET,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { type Caller, resolveCaller } from "../http/caller.ts";
import { readGatehouseHeaders } from "../http/headers.ts";
import { htmlResponse } from "../http/html.ts";
import { jsonResponse } from "../http/respond.ts";
import { renderDevelopmentPage } from "../oauth/development-page.tsx";
import { innerCookieName } from "../oauth/flow.ts";
import { providerName } from "../oauth/providers.ts";
import { TextError } from "../text-error.ts";
import { projectOf } from "./auth.ts";

const INNER_COOKIE_MAX_AGE_S = 600;

/**
 * The authorize request's client, checked as a client request would be (WIRE.md §4.5): an unknown project is
 * INVALID_OAUTH_CLIENT_ID_OR_SECRET, a bad key INVALID_PUBLISHABLE_CLIENT_KEY. With `token`, its user too.
 */
async function authorizeCaller(
  deps: Deps,
  clientId: string,
  secret: string,
  token?: string,
): Promise<Caller> {
  const projectId = clientId.replace(/#main$/, "");
  const headers = new Headers({ "x-stack-access-type": "client", "x-stack-project-id": projectId });
  if (secret !== PUBLIC_CLIENT_SECRET) headers.set("x-stack-publishable-client-key", secret);
  if (token) {
    headers.set("x-stack-access-token", token);
    headers.set("x-stack-allow-anonymous-user", "true");
    headers.set("x-stack-allow-restricted-user", "true");
  }
  try {
    return await resolveCaller(deps, readGatehouseHeaders(headers));
  } catch (error) {
    if (isKnownError(error) && error.code === "CURRENT_PROJECT_NOT_FOUND") {
      throw KnownErrors.INVALID_OAUTH_CLIENT_ID_OR_SECRET({ client_id: clientId });
    }
    throw error;
  }
}

/** The provider's answer: the query, or for form-post providers the body. */
function callbackParams(request: Request, body: unknown): URLSearchParams {
  const params = new URLSearchParams(new URL(request.url).search);
  if (typeof body === "object" && body !== null) {
    for (const [name, value] of Object.entries(body)) if (typeof value === "string") params.set(name, value);
  }
  return params;
}

const redirect = (status: number, location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers: { location, ...headers } });

export function registerOAuthRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, oauthAuthorizeRoute, async ({ params, query }, { clientIp }) => {
    const client = await authorizeCaller(deps, query.client_id, query.client_secret);
    const project = projectOf(client);
    if (query.type === "authenticate")
      await deps.botChallenge.check(project, "oauth_authenticate", query, clientIp);
    // A token that does not check out is USER_AUTHENTICATION_REQUIRED for `link`, and ignored otherwise.
    let user = null;
    if (query.token) {
      try {
        user =
          (await authorizeCaller(deps, query.client_id, query.client_secret, query.token)).user?.record ??
          null;
      } catch (error) {
        if (!isKnownError(error)) throw error;
      }
    }
    const { location, innerState } = await deps.oauth.authorize(project, params.provider_id, query, user);
    if (query.stack_response_mode === "json") return jsonResponse(200, { location });
    const secure = deps.baseUrl.startsWith("https:");
    const cookie = [
      `${innerCookieName(innerState)}=1`,
      "Path=/api/v1/auth/oauth/callback",
      `Max-Age=${INNER_COOKIE_MAX_AGE_S}`,
      "HttpOnly",
      // Form-post providers (Apple) come back cross-site by POST, which Lax cookies do not survive.
      secure ? "SameSite=None; Secure" : "SameSite=Lax",
    ].join("; ");
    return redirect(307, location, { "set-cookie": cookie });
  });

  for (const route of [oauthCallbackGetRoute, oauthCallbackPostRoute]) {
    bindRoute(app, deps, route, async ({ params, body }, { request }) => {
      const cookies = request.headers.get("cookie") ?? "";
      const location = await deps.oauth.callback(params.provider_id, callbackParams(request, body), cookies);
      return redirect(303, location);
    });
  }

  /** The page only ever sends users back to this server's own callback for the same provider. */
  const assertOwnCallback = (providerId: string, redirectUri: string) => {
    if (redirectUri !== deps.oauthDirectory.callbackUrl(providerId)) {
      throw new TextError(400, "The development provider only returns to this server's OAuth callback.");
    }
  };

  /**
   * The page serves only a pending flow of a project whose provider the development provider stands in for (the
   * instance's switch, never production): nobody can show it, or get a code from it, for any other project.
   */
  const developmentFlow = async (providerId: string, state: string) => {
    const { project, appOrigins } = await deps.oauth.pendingFlow(providerId, state);
    const { development } = await deps.oauthDirectory.resolve(project, providerId);
    if (!development) throw KnownErrors.OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED();
    return appOrigins;
  };

  bindRoute(app, deps, developmentProviderPageRoute, async ({ params, query }) => {
    assertOwnCallback(params.provider_id, query.redirect_uri);
    const { html, csp } = await renderDevelopmentPage({
      providerName: providerName(params.provider_id),
      state: query.state,
      codeChallenge: query.code_challenge,
      redirectUri: query.redirect_uri,
      appOrigins: await developmentFlow(params.provider_id, query.state),
    });
    return htmlResponse(html, { csp });
  });

  bindRoute(app, deps, developmentProviderChooseRoute, async ({ params, body }) => {
    assertOwnCallback(params.provider_id, body.redirect_uri);
    await developmentFlow(params.provider_id, body.state);
    const target = new URL(body.redirect_uri);
    target.searchParams.set("state", body.state);
    const email = body.email?.trim() ?? "";
    if (body.action === "deny") {
      target.searchParams.set("error", "access_denied");
    } else if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
      throw new TextError(400, "Enter an e-mail address for the test identity.");
    } else {
      const identity = { email, displayName: body.display_name?.trim() || email.split("@")[0] || email };
      const code = deps.developmentProvider.issueCode({
        providerId: params.provider_id,
        identity,
        codeChallenge: body.code_challenge,
        redirectUri: body.redirect_uri,
      });
      target.searchParams.set("code", code);
    }
    return redirect(303, target.toString());
  });

  /** Clients may only name themselves (WIRE.md §4.17); servers any user of the project. */
  async function connectedUser(caller: Caller, userId: string): Promise<string> {
    const project = projectOf(caller);
    if (caller.accessType === "client" && caller.user?.id !== userId) {
      throw new TextError(403, "Client can only access their own connected accounts.");
    }
    if (!(await deps.usersRepo.find(project.id, userId))) throw KnownErrors.USER_NOT_FOUND();
    return userId;
  }

  bindRoute(app, deps, listConnectedAccountsRoute, async ({ params }, { caller }) => ({
    items: await deps.connectedAccounts.list(await connectedUser(caller, params.user_id)),
    is_paginated: false as const,
  }));

  for (const route of [connectedAccountTokenRoute, connectedAccountByIdTokenRoute]) {
    bindRoute(app, deps, route, async ({ params, body }, { caller }) => ({
      access_token: await deps.connectedAccounts.accessToken(projectOf(caller), {
        userId: await connectedUser(caller, params.user_id),
        providerId: params.provider_id,
        accountId: "provider_account_id" in params ? params.provider_account_id : undefined,
        scope: body.scope,
      }),
    }));
  }
}
