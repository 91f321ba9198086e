// Binds a contract route to its handler: body, caller, access type, validation, `me`, user requirement (WIRE.md
// §1.3 steps 0-13 in order), then the handler, whose JSON answer is shaped by the route's response schema.
import { KnownErrors, type RouteDefinition, type RouteInput, type RouteOutput } from "@gatehouse/contract";
import type { Context, Hono } from "hono";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { parseBody } from "./body.ts";
import { actorOf, type Caller, resolveCaller, UNAUTHENTICATED } from "./caller.ts";
import { readGatehouseHeaders } from "./headers.ts";
import { jsonResponse } from "./respond.ts";
import { schemaError, unstorableTextProblem, type ValidationProblem, validatePart } from "./validate.ts";

export type AppEnv = { Variables: { requestId: string; clientIp: string } };

export type HandlerContext = {
  deps: Deps;
  caller: Caller;
  request: Request;
  requestId: string;
  clientIp: string;
};

export type Handler<R extends RouteDefinition> = (
  input: RouteInput<R>,
  ctx: HandlerContext,
) => Promise<RouteOutput<R> | Response>;

const noFields = z.strictObject({});

const isEmptyObject = (value: unknown) =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

function checkAccess(route: RouteDefinition, caller: Caller): void {
  if (typeof route.access === "string") return;
  if (caller.accessType === null) throw KnownErrors.ACCESS_TYPE_REQUIRED();
  if (!route.access.includes(caller.accessType)) {
    throw KnownErrors.INSUFFICIENT_ACCESS_TYPE({
      actual_access_type: caller.accessType,
      allowed_access_types: [...route.access],
    });
  }
}

/**
 * The body schema for this caller: the client body for client callers where the route has one. A route without a
 * body schema accepts none, or `{}` (the SDK sends `{}` on DELETE).
 */
function bodySchema(route: RouteDefinition, caller: Caller): z.ZodType | undefined {
  if (route.upload) return undefined;
  if (route.clientBody && caller.accessType === "client") return route.clientBody;
  if (route.body) return route.body;
  if (route.method === "GET" || route.tolerateUnknownFields) return undefined;
  return noFields.optional();
}

function validateInput(c: Context<AppEnv>, route: RouteDefinition, caller: Caller, body: unknown) {
  // Most requests carry no query string: no URL is parsed for them.
  const hasQuery = c.req.url.includes("?");
  const query = hasQuery ? Object.fromEntries(new URL(c.req.url).searchParams) : {};
  const parts = {
    params: route.params ?? noFields,
    query:
      (caller.accessType === "client" ? route.clientQuery : undefined) ??
      route.query ??
      (route.tolerateUnknownFields ? undefined : noFields),
    body: bodySchema(route, caller),
  };
  const raw = { params: c.req.param(), query, body };
  const input: Record<string, unknown> = { params: {}, query: {}, body: undefined };
  const problems: ValidationProblem[] = [];
  for (const part of ["params", "query", "body"] as const) {
    const schema = parts[part];
    // Most parts of most requests are empty where nothing is declared (`GET /users/me`): nothing to parse or scan.
    if (schema === noFields && isEmptyObject(raw[part])) {
      input[part] = {};
      continue;
    }
    if (!schema) {
      // Parts no schema declares (OAuth parameters) still reach handlers and queries: their text is checked too.
      const unstorable = unstorableTextProblem(part, raw[part]);
      if (unstorable) problems.push(unstorable);
      continue;
    }
    const result = validatePart(schema, part, raw[part]);
    if (result.ok) input[part] = result.value;
    else problems.push(result.problem);
  }
  if (problems.length > 0) throw schemaError(c.req.method, new URL(c.req.url).pathname, problems);
  return input;
}

/** Step 12: `me` as a `user_id` anywhere in the input names the user of the access token. */
export function resolveMe(input: Record<string, unknown>, caller: Caller): void {
  for (const part of ["params", "query", "body"]) {
    const fields = input[part];
    if (typeof fields !== "object" || fields === null || !("user_id" in fields)) continue;
    const record = fields as Record<string, unknown>;
    if (record.user_id !== "me") continue;
    if (!caller.user) throw KnownErrors.CANNOT_GET_OWN_USER_WITHOUT_USER();
    record.user_id = caller.user.id;
  }
}

/** Contract paths use `{param}`; Hono uses `:param`. */
export const toHonoPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

export function bindRoute<R extends RouteDefinition>(
  app: Hono<AppEnv>,
  deps: Deps,
  route: R,
  handler: Handler<R>,
) {
  app.on(route.method, toHonoPath(route.path), async (c) => {
    // An upload's body is the handler's to stream, after the caller is known to be allowed.
    const body = route.upload ? undefined : await parseBody(c.req.raw);
    const caller =
      route.access === "none"
        ? UNAUTHENTICATED
        : await resolveCaller(deps, readGatehouseHeaders(c.req.raw.headers));
    deps.auditScope.setActor(actorOf(caller));
    checkAccess(route, caller);
    const input = validateInput(c, route, caller, body);
    resolveMe(input, caller);
    if (route.user === "required" && !caller.user) throw KnownErrors.USER_AUTHENTICATION_REQUIRED();
    const ctx = {
      deps,
      caller,
      request: c.req.raw,
      requestId: c.get("requestId"),
      clientIp: c.get("clientIp"),
    };
    const output = await handler(input as RouteInput<R>, ctx);
    if (output instanceof Response) return output;
    if (route.response.kind !== "json")
      throw new Error(`Route ${route.path} returned data but is not a JSON route`);
    // Parsing the answer with the response schema strips fields the caller must not see.
    const { clientSchema, schema } = route.response;
    const shape = clientSchema && caller.accessType === "client" ? clientSchema : schema;
    return jsonResponse(route.response.status, shape.parse(output));
  });
}
