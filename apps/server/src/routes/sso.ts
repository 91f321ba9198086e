// [GO] SSO routes: a team's connections and SCIM tokens (server and admin access), starting an SSO sign-in, and the identity
// providers' return addresses. Thin handlers over sso/connections.ts and sso/flow.ts.
import {
  createScimTokenRoute,
  createSsoConnectionRoute,
  createSsoDomainRoute,
  deleteScimTokenRoute,
  deleteSsoConnectionRoute,
  deleteSsoDomainRoute,
  getSsoConnectionRoute,
  getSsoConnectionTestRoute,
  KnownErrors,
  listScimTokensRoute,
  listSsoConnectionsRoute,
  listSsoDomainsRoute,
  ssoAuthorizeRoute,
  ssoOidcCallbackRoute,
  ssoSamlAcsRoute,
  ssoSamlMetadataRoute,
  startSsoConnectionTestRoute,
  updateSsoConnectionRoute,
  updateSsoDomainRoute,
  verifySsoDomainRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import { inTransaction } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller } from "../http/caller.ts";
import { projectOf, userOf } from "./auth.ts";

const redirect = (location: string) => new Response(null, { status: 303, headers: { location } });

export function registerSsoRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { connections, domains, flow, scim } = deps.sso;

  /** A client manages a team's SSO only as a member holding `$manage_sso`; servers and admins always may. */
  const authorize = async (caller: Caller, teamId: string) => {
    if (caller.accessType !== "client") return;
    await deps.permissions.require(projectOf(caller).id, teamId, userOf(caller).id, ["$manage_sso"]);
  };

  bindRoute(app, deps, listSsoConnectionsRoute, async ({ params }, { caller }) => {
    await authorize(caller, params.team_id);
    const items = await connections.list(deps.db, projectOf(caller).id, params.team_id);
    return { items, is_paginated: false as const };
  });

  bindRoute(app, deps, createSsoConnectionRoute, async ({ params, body }, { caller }) => {
    await authorize(caller, params.team_id);
    return inTransaction(deps.db, (tx) => connections.create(tx, projectOf(caller).id, params.team_id, body));
  });

  bindRoute(app, deps, getSsoConnectionRoute, async ({ params }, { caller }) => {
    await authorize(caller, params.team_id);
    return connections.get(deps.db, projectOf(caller).id, params.team_id, params.connection_id);
  });

  bindRoute(app, deps, updateSsoConnectionRoute, async ({ params, body }, { caller }) => {
    await authorize(caller, params.team_id);
    return inTransaction(deps.db, (tx) =>
      connections.update(tx, projectOf(caller).id, params.team_id, params.connection_id, body),
    );
  });

  bindRoute(app, deps, deleteSsoConnectionRoute, async ({ params }, { caller }) => {
    await authorize(caller, params.team_id);
    await inTransaction(deps.db, (tx) =>
      connections.delete(tx, projectOf(caller).id, params.team_id, params.connection_id),
    );
    return { success: true as const };
  });

  bindRoute(app, deps, startSsoConnectionTestRoute, async ({ params, body }, { caller }) => {
    await authorize(caller, params.team_id);
    const project = projectOf(caller);
    await connections.get(deps.db, project.id, params.team_id, params.connection_id);
    const row = await deps.sso.repo.findConnection(deps.db, project.id, params.connection_id);
    if (!row) throw KnownErrors.SSO_CONNECTION_NOT_FOUND({ connection_id: params.connection_id });
    const started = await flow.startTest(project, row, body.return_url);
    return {
      id: started.id,
      connection_id: row.id,
      status: "pending" as const,
      subject: null,
      attributes: null,
      error: null,
      location: started.location,
    };
  });

  bindRoute(app, deps, getSsoConnectionTestRoute, async ({ params }, { caller }) => {
    await authorize(caller, params.team_id);
    const project = projectOf(caller);
    await connections.get(deps.db, project.id, params.team_id, params.connection_id);
    return flow.testResult(project.id, params.connection_id, params.test_id);
  });

  bindRoute(app, deps, listSsoDomainsRoute, async ({ params }, { caller }) => {
    await authorize(caller, params.team_id);
    const items = await domains.list(deps.db, projectOf(caller).id, params.team_id);
    return { items, is_paginated: false as const };
  });

  bindRoute(app, deps, createSsoDomainRoute, async ({ params, body }, { caller }) => {
    await authorize(caller, params.team_id);
    return domains.create(deps.db, projectOf(caller).id, params.team_id, body);
  });

  // The DNS lookup runs outside any transaction: a slow resolver must not hold a database connection.
  bindRoute(app, deps, verifySsoDomainRoute, async ({ params }, { caller }) => {
    await authorize(caller, params.team_id);
    return domains.verify(deps.db, projectOf(caller).id, params.team_id, params.domain_id);
  });

  bindRoute(app, deps, updateSsoDomainRoute, async ({ params, body }, { caller }) => {
    await authorize(caller, params.team_id);
    return domains.update(deps.db, projectOf(caller).id, params.team_id, params.domain_id, body);
  });

  bindRoute(app, deps, deleteSsoDomainRoute, async ({ params }, { caller }) => {
    await authorize(caller, params.team_id);
    await domains.delete(deps.db, projectOf(caller).id, params.team_id, params.domain_id);
    return { success: true as const };
  });

  bindRoute(app, deps, listScimTokensRoute, async ({ params }, { caller }) => {
    await authorize(caller, params.team_id);
    const items = await scim.tokens.list(deps.db, projectOf(caller).id, params.team_id);
    return { items, is_paginated: false as const };
  });

  bindRoute(app, deps, createScimTokenRoute, async ({ params, body }, { caller }) => {
    await authorize(caller, params.team_id);
    return scim.tokens.create(deps.db, projectOf(caller).id, params.team_id, body.description);
  });

  bindRoute(app, deps, deleteScimTokenRoute, async ({ params }, { caller }) => {
    await authorize(caller, params.team_id);
    await scim.tokens.revoke(deps.db, projectOf(caller).id, params.team_id, params.token_id);
    return { success: true as const };
  });

  bindRoute(app, deps, ssoAuthorizeRoute, async ({ body }, { caller }) => {
    const { location, connectionId } = await flow.authorize(projectOf(caller), body);
    return { location, connection_id: connectionId };
  });

  bindRoute(app, deps, ssoOidcCallbackRoute, async ({ params }, { request }) =>
    redirect(await flow.oidcCallback(params.connection_id, new URL(request.url))),
  );

  bindRoute(
    app,
    deps,
    ssoSamlMetadataRoute,
    async ({ params }) =>
      new Response(await flow.samlMetadata(params.connection_id), {
        headers: { "content-type": "application/samlmetadata+xml; charset=utf-8" },
      }),
  );

  bindRoute(app, deps, ssoSamlAcsRoute, async ({ params, body }) =>
    redirect(await flow.samlAcs(params.connection_id, body)),
  );
}
