// createApp(deps): the HTTP application. Middleware order: request id and timing, CORS preflight, routes, then on
// the way out the common headers, status masking and one log line. All errors are rendered by one handler.
import { randomUUID } from "node:crypto";
import { allRoutes, bothSpellings } from "@gatehouse/contract";
import { Hono } from "hono";
import type { Deps } from "./deps.ts";
import type { AppEnv } from "./http/bind.ts";
import { CORS_HEADERS, isCorsPath, PREFLIGHT_HEADERS } from "./http/cors.ts";
import { registerDashboard } from "./http/dashboard.ts";
import { wantsMaskedStatus } from "./http/headers.ts";
import { finishResponse, renderError, textResponse } from "./http/respond.ts";
import { registerAnalyticsRoutes } from "./routes/analytics.ts";
import { registerApiKeyRoutes } from "./routes/api-keys.ts";
import { registerAuditRoutes } from "./routes/audit.ts";
import { registerAuthRoutes } from "./routes/auth.ts";
import { registerBackupRoutes } from "./routes/backup.ts";
import { registerCliAuthRoutes } from "./routes/cli-auth.ts";
import { registerCodeRoutes } from "./routes/codes.ts";
import { registerConfigRoutes } from "./routes/config.ts";
import { registerContactChannelRoutes } from "./routes/contact-channels.ts";
import { registerCrossDomainRoutes } from "./routes/cross-domain.ts";
import { registerEmailTemplateRoutes } from "./routes/email-templates.ts";
import { registerEmailTsxRoutes } from "./routes/email-tsx.ts";
import { registerEmailRoutes } from "./routes/emails.ts";
import { registerImportRoutes } from "./routes/imports.ts";
import { registerMetaRoutes } from "./routes/meta.ts";
import { registerMetricsRoutes } from "./routes/metrics.ts";
import { registerMfaRoutes } from "./routes/mfa.ts";
import { registerOAuthRoutes } from "./routes/oauth.ts";
import { registerOAuthProviderRoutes } from "./routes/oauth-providers.ts";
import { registerOidcProviderRoutes } from "./routes/oidc-provider.ts";
import { registerOperationsRoutes } from "./routes/operations.ts";
import { registerPageLoadRoutes } from "./routes/page-load.ts";
import { registerPasskeyRoutes } from "./routes/passkeys.ts";
import { registerPermissionDefinitionRoutes } from "./routes/permission-definitions.ts";
import { registerProjectPermissionRoutes } from "./routes/project-permissions.ts";
import { registerProjectRoutes } from "./routes/projects.ts";
import { registerScimRoutes } from "./routes/scim.ts";
import { registerSessionRoutes } from "./routes/sessions.ts";
import { registerSigningKeyRoutes } from "./routes/signing-keys.ts";
import { registerSsoRoutes } from "./routes/sso.ts";
import { registerTeamInvitationRoutes } from "./routes/team-invitations.ts";
import { registerTeamRoutes } from "./routes/teams.ts";
import { registerTokenRoutes } from "./routes/tokens.ts";
import { registerOwnedApiKeyRoutes } from "./routes/user-api-keys.ts";
import { registerUserMetricsRoutes } from "./routes/user-metrics.ts";
import { registerUserRoutes } from "./routes/users.ts";
import { registerWebhookRoutes } from "./routes/webhooks.ts";
import { registerPaymentRoutes } from "./unconfigured/payments.ts";
import { registerOutsideServiceRoutes } from "./unconfigured/routes.ts";

export type { Deps } from "./deps.ts";

/** For 405 answers: which methods exist for a path that matched no route. */
const routePatterns = allRoutes.map((route) => ({
  method: route.method,
  pattern: new RegExp(`^${route.path.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "[^/]+")}$`),
}));

const REQUEST_ID = bothSpellings("request-id");
const ACTUAL_STATUS = bothSpellings("actual-status");
const NO_STORE = { "cache-control": "no-store, max-age=0" };

/** The common headers, and status masking (WIRE.md §1.8): 4xx become 200 with the real status in a header. */
function finish(res: Response, request: Request, path: string, requestId: string): Response {
  const headers: Record<string, string> = { "x-content-type-options": "nosniff" };
  for (const name of REQUEST_ID) headers[name] = requestId;
  if (isCorsPath(path)) Object.assign(headers, CORS_HEADERS);
  // 2xx, 3xx and 5xx never change.
  if (res.status >= 400 && res.status < 500 && wantsMaskedStatus(request.headers)) {
    for (const name of ACTUAL_STATUS) headers[name] = String(res.status);
    return finishResponse(res, headers, NO_STORE, 200);
  }
  return finishResponse(res, headers, NO_STORE);
}

/**
 * The caller's IP: the socket's address, or behind a trusted reverse proxy the first X-Forwarded-For entry. The
 * header is ignored otherwise, since any client can send it to dodge per-IP limits.
 */
function clientIp(request: Request, env: unknown, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? "unknown";
}

export function createApp(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const requestId = randomUUID();
    c.set("requestId", requestId);
    const started = performance.now();
    if (c.req.method === "OPTIONS" && isCorsPath(c.req.path)) {
      c.res = new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
    } else {
      await next();
    }
    const status = c.res.status;
    const finished = finish(c.res, c.req.raw, c.req.path, requestId);
    if (finished !== c.res) {
      // Assigning over a response makes Hono copy the old one's headers into the new through undici Headers (the
      // adapter's light response made a full one on every request): cleared first, the new one is taken as it is.
      c.res = undefined;
      c.res = finished;
    }
    deps.logger.info("request", {
      method: c.req.method,
      path: c.req.path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      request_id: requestId,
    });
  });

  // Inside the request-id middleware, so it sees the real status before status masking turns a 4xx into a 200.
  app.use(deps.observability.middleware);

  app.use(async (c, next) => {
    c.set("clientIp", clientIp(c.req.raw, c.env, deps.trustProxy));
    if (c.req.path.startsWith("/api/v1")) await deps.rateLimits.request(c.get("clientIp"));
    // The audit log's request details; bindRoute adds the actor once the caller is resolved.
    const scope = {
      ip: c.get("clientIp"),
      userAgent: c.req.header("user-agent")?.slice(0, 512) ?? null,
      requestId: c.get("requestId"),
    };
    await deps.auditScope.run(scope, next);
  });

  registerMetaRoutes(app, deps);
  registerOperationsRoutes(app, deps);
  registerProjectRoutes(app, deps);
  registerMetricsRoutes(app, deps);
  registerPageLoadRoutes(app, deps);
  registerAnalyticsRoutes(app, deps);
  registerTokenRoutes(app, deps);
  registerAuthRoutes(app, deps);
  registerMfaRoutes(app, deps);
  registerPasskeyRoutes(app, deps);
  registerCliAuthRoutes(app, deps);
  registerCrossDomainRoutes(app, deps);
  registerOAuthRoutes(app, deps);
  registerOAuthProviderRoutes(app, deps);
  registerSessionRoutes(app, deps);
  registerUserRoutes(app, deps);
  registerCodeRoutes(app, deps);
  registerContactChannelRoutes(app, deps);
  registerTeamRoutes(app, deps);
  registerTeamInvitationRoutes(app, deps);
  registerSsoRoutes(app, deps);
  registerScimRoutes(app, deps);
  registerOidcProviderRoutes(app, deps);
  registerPermissionDefinitionRoutes(app, deps);
  registerProjectPermissionRoutes(app, deps);
  registerApiKeyRoutes(app, deps);
  registerOwnedApiKeyRoutes(app, deps);
  registerEmailTemplateRoutes(app, deps);
  registerEmailRoutes(app, deps);
  registerEmailTsxRoutes(app, deps);
  registerWebhookRoutes(app, deps);
  registerPaymentRoutes(app, deps);
  registerOutsideServiceRoutes(app, deps);
  registerUserMetricsRoutes(app, deps);
  registerConfigRoutes(app, deps);
  registerAuditRoutes(app, deps);
  registerSigningKeyRoutes(app, deps);
  registerBackupRoutes(app, deps);
  registerImportRoutes(app, deps);
  registerDashboard(app, deps.dashboardDir);

  app.notFound((c) => {
    const allowed = routePatterns.filter((r) => r.pattern.test(c.req.path)).map((r) => r.method);
    if (allowed.length === 0) return textResponse(404, "Not found.");
    return textResponse(405, "Method not allowed.", { allow: [...new Set(allowed)].join(", ") });
  });

  app.onError((error, c) =>
    renderError(error, {
      requestId: c.get("requestId"),
      development: deps.development,
      logger: deps.logger,
      method: c.req.method,
      path: c.req.path,
    }),
  );

  return app;
}
