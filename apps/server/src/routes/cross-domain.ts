// The cross-domain hand-off route (Stack's `POST /auth/oauth/cross-domain/authorize`): a thin handler over
// oauth/cross-domain.ts; the code it mints is exchanged at `POST /auth/oauth/token`.
import { crossDomainAuthorizeRoute } from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { readGatehouseHeaders } from "../http/headers.ts";
import { projectOf, userOf } from "./auth.ts";

export function registerCrossDomainRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, crossDomainAuthorizeRoute, async ({ body }, { caller, request }) => {
    const user = userOf(caller);
    const redirectUrl = await deps.crossDomain.authorize(
      projectOf(caller),
      { userId: user.id, sessionId: user.sessionId },
      readGatehouseHeaders(request.headers).get("refresh-token"),
      {
        redirectUri: body.redirect_uri,
        state: body.state,
        codeChallenge: body.code_challenge,
        afterCallbackRedirectUrl: body.after_callback_redirect_url,
      },
    );
    return { redirect_url: redirectUrl };
  });
}
