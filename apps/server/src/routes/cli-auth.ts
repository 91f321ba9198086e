// CLI login routes (Stack's `/auth/cli`, `/auth/cli/poll`, `/auth/cli/complete`): thin handlers over
// services/cli-auth.ts. The poll answers 201 only for its one success, as Stack's SDK expects.
import { cliAuthCompleteRoute, cliAuthPollRoute, cliAuthStartRoute } from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { jsonResponse } from "../http/respond.ts";
import { projectOf } from "./auth.ts";

export function registerCliAuthRoutes(app: Hono<AppEnv>, deps: Deps): void {
  // Starting and confirming count against the caller's IP like every code endpoint; the poll's code is a 225-bit
  // secret the CLI already holds, polled every 2 s for up to hours, so it is left to the per-IP request limit.
  bindRoute(app, deps, cliAuthStartRoute, async ({ body }, { caller, clientIp }) => {
    await deps.rateLimits.hit("code_ip", clientIp);
    return deps.cliAuth.start(projectOf(caller), {
      expiresInMs: body.expires_in_millis,
      anonRefreshToken: body.anon_refresh_token,
    });
  });

  bindRoute(app, deps, cliAuthPollRoute, async ({ body }, { caller }) => {
    const polled = await deps.cliAuth.poll(projectOf(caller), body.polling_code);
    if (polled.status === "success")
      return jsonResponse(201, { status: "success", refresh_token: polled.refreshToken });
    return { status: polled.status };
  });

  bindRoute(app, deps, cliAuthCompleteRoute, async ({ body }, { caller, clientIp }) => {
    await deps.rateLimits.hit("code_ip", clientIp);
    const project = projectOf(caller);
    if (body.mode === "check") return deps.cliAuth.check(project, body.login_code);
    if (body.mode === "claim-anon-session") return deps.cliAuth.claimAnonymous(project, body.login_code);
    return deps.cliAuth.complete(project, body.login_code, body.refresh_token);
  });
}
