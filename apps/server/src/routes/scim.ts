// [GO] The SCIM 2.0 service provider (RFC 7644) under /api/v1/scim/v2, for a team's identity provider: thin handlers
// over sso/scim/. Its own wire rules, not this API's: a bearer token names the team, bodies and errors are
// application/scim+json, and errors have RFC 7644's shape (schemas, status as a string, scimType, detail).
import { isKnownError, KnownErrors } from "@gatehouse/contract";
import type { Context, Hono } from "hono";
import { inTransaction } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/bind.ts";
import { parseBody } from "../http/body.ts";
import {
  errorBody,
  projectAttributes,
  resourceTypes,
  SCIM_CONTENT_TYPE,
  schemas,
  serviceProviderConfig,
} from "../sso/scim/resources.ts";

const BASE = "/api/v1/scim/v2";
const SCIM_JSON = "application/scim+json";

const scimJson = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": SCIM_CONTENT_TYPE } });

export function registerScimRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { scim } = deps.sso;

  async function handle(c: Context<AppEnv>): Promise<Response> {
    const method = c.req.method;
    const [kind, id, ...rest] = c.req.path
      .slice(BASE.length + 1)
      .split("/")
      .map(decodeURIComponent);
    const query = c.req.query();
    const notFound = () =>
      KnownErrors.SCIM_RESOURCE_NOT_FOUND({ resource: "Endpoint", id: c.req.path.slice(0, 128) });
    if (rest.length > 0) throw notFound();

    // Discovery answers the same to every caller, but only to a caller with a token, as RFC 7644 §4 allows.
    const scope = await scim.authenticate(deps.db, c.req.header("authorization"));
    if (method === "GET" && kind === "ServiceProviderConfig" && !id) return scimJson(serviceProviderConfig());
    if (method === "GET" && (kind === "ResourceTypes" || kind === "Schemas")) {
      const all = kind === "ResourceTypes" ? resourceTypes(scim.baseUrl) : schemas(scim.baseUrl);
      if (!id)
        return scimJson({
          schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
          totalResults: all.length,
          startIndex: 1,
          itemsPerPage: all.length,
          Resources: all,
        });
      const one = all.find((item) => item.id === id);
      if (!one) throw notFound();
      return scimJson(one);
    }
    if (kind !== "Users" && kind !== "Groups") throw notFound();
    const service = kind === "Users" ? scim.users : scim.groups;
    const body = method === "GET" || method === "DELETE" ? undefined : await parseBody(c.req.raw, SCIM_JSON);

    if (!id) {
      if (method === "GET") {
        const list = await inTransaction(deps.db, (tx) => service.list(tx, scope, query));
        const page = list.Resources as Record<string, unknown>[];
        return scimJson({ ...list, Resources: page.map((resource) => projectAttributes(resource, query)) });
      }
      if (method === "POST")
        return scimJson(
          projectAttributes(await inTransaction(deps.db, (tx) => service.create(tx, scope, body)), query),
          201,
        );
      throw notFound();
    }
    switch (method) {
      case "GET":
        return scimJson(
          projectAttributes(await inTransaction(deps.db, (tx) => service.get(tx, scope, id)), query),
        );
      case "PUT":
        return scimJson(await inTransaction(deps.db, (tx) => service.replace(tx, scope, id, body)));
      case "PATCH":
        return scimJson(await inTransaction(deps.db, (tx) => service.patch(tx, scope, id, body)));
      case "DELETE":
        await inTransaction(deps.db, (tx) => service.delete(tx, scope, id));
        return new Response(null, { status: 204 });
      default:
        throw notFound();
    }
  }

  app.on(["GET", "POST", "PUT", "PATCH", "DELETE"], [BASE, `${BASE}/*`], async (c) => {
    try {
      return await handle(c);
    } catch (error) {
      if (!isKnownError(error)) throw error;
      const response = scimJson(errorBody(error), error.status);
      if (error.code === "SCIM_TOKEN_INVALID")
        response.headers.set("www-authenticate", 'Bearer realm="SCIM"');
      return response;
    }
  });
}
