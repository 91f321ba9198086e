// Health, the API root, feature support, the API reference, and the server's own pages (`/`, favicon).
import {
  allRoutes,
  apiRootRoute,
  buildOpenApiDocument,
  checkFeatureSupportRoute,
  docsRoute,
  healthRoute,
  openApiRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller } from "../http/caller.ts";
import { htmlResponse } from "../http/html.ts";
import { jsonResponse, textResponse } from "../http/respond.ts";
import { registerServerAssets } from "../http/server-assets.ts";
import { apiReferenceInitScript, renderDocsPage } from "./docs-page.tsx";
import { renderLandingPage } from "./landing-page.tsx";

function describeCaller(caller: Caller): string {
  if (caller.accessType === null) return "None";
  const user = caller.user ? `user ${caller.user.id}` : "no user";
  return `${caller.accessType} access to project ${caller.project.id}, ${user}`;
}

export function registerMetaRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, healthRoute, async ({ query }) => {
    if (query.db !== "1") return { status: "ok" as const };
    try {
      await deps.database.ping();
      return { status: "ok" as const };
    } catch (error) {
      deps.logger.error("health check: database unreachable", {}, error);
      return jsonResponse(503, { status: "error" });
    }
  });

  bindRoute(app, deps, apiRootRoute, async (_input, { caller }) =>
    textResponse(200, `Welcome to the Gatehouse API endpoint!\n\nAuthentication: ${describeCaller(caller)}`),
  );

  bindRoute(app, deps, checkFeatureSupportRoute, async ({ body }) => {
    const featureName =
      typeof body === "object" && body !== null
        ? (body as { feature_name?: unknown }).feature_name
        : undefined;
    const name = typeof featureName === "string" ? featureName : "This feature";
    return textResponse(
      200,
      `${name} is not yet supported. Please reach out to Stack support for more information.`,
    );
  });

  // Built once, at its first request: the route table does not change while the server runs, and building it (JSON
  // Schema of every route) would otherwise be a good part of the time a restarted server takes to answer.
  let openApi: ReturnType<typeof buildOpenApiDocument> | undefined;
  bindRoute(app, deps, openApiRoute, async () => (openApi ??= buildOpenApiDocument(allRoutes, deps.baseUrl)));

  // The two pages are rendered once, at their first request (html.ts: React's server renderer loads then).
  const docs = firstTime(() => renderDocsPage(openApiRoute.path));
  bindRoute(app, deps, docsRoute, async () => {
    const { html, csp } = await docs();
    return htmlResponse(html, { csp });
  });
  registerServerAssets(app, apiReferenceInitScript());

  const landing = firstTime(() => renderLandingPage(deps.baseUrl));
  app.get("/", async () => {
    const { html, csp } = await landing();
    return htmlResponse(html, { csp });
  });
}

/** `make`'s answer, made at the first call and kept. */
function firstTime<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
