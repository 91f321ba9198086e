// The OpenAPI 3.1 document, generated from the route table: every route is documented by being in the contract.
import { z } from "zod";
import { ACCESS_TYPES, bothSpellings } from "./headers.ts";
import type { RouteDefinition } from "./route.ts";
import { knownErrorBodySchema } from "./schemas/common.ts";

type JsonObject = Record<string, unknown>;

const jsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonObject;

/** The key each access type is proven with (WIRE.md §1.2), as the security scheme that names its header. */
const CREDENTIALS = {
  client: {
    scheme: "publishableClientKey",
    header: "publishable-client-key",
    about: "The publishable client key",
  },
  server: { scheme: "secretServerKey", header: "secret-server-key", about: "The secret server key" },
  admin: {
    scheme: "superSecretAdminKey",
    header: "super-secret-admin-key",
    about: "The super secret admin key",
  },
} as const;

function parameters(route: RouteDefinition): JsonObject[] {
  const from = (location: "path" | "query", schema: z.ZodObject | undefined) =>
    Object.entries(schema?.shape ?? {}).map(([name, field]) => {
      const s = jsonSchema(field as z.ZodType, "input");
      return { name, in: location, required: !(field as z.ZodType).safeParse(undefined).success, schema: s };
    });
  return [...from("path", route.params), ...from("query", route.query), ...accessTypeHeader(route)];
}

/**
 * The access type header of a route that needs one, as a header parameter naming the types it takes: its value
 * picks which key (security scheme) goes with it, so it is not a credential itself.
 */
function accessTypeHeader(route: RouteDefinition): JsonObject[] {
  if (typeof route.access === "string") return [];
  const [name, other] = bothSpellings("access-type");
  const keys = route.access.map((type) => `\`${type}\` with the ${CREDENTIALS[type].about.toLowerCase()}`);
  return [
    {
      name,
      in: "header",
      required: true,
      description: `The access type: ${keys.join(", ")} (also spelled ${other}).`,
      schema: { type: "string", enum: [...route.access] },
      example: route.access[0],
    },
  ];
}

function successResponse(route: RouteDefinition): JsonObject {
  const r = route.response;
  if (r.kind === "json") {
    return {
      description: "Success",
      content: { "application/json": { schema: jsonSchema(r.schema, "output") } },
    };
  }
  if (r.kind === "redirect") return { description: r.description };
  if (r.media) {
    const file = { type: "string", format: "binary" };
    return { description: r.description, content: { [r.media]: { schema: file } } };
  }
  const media = r.kind === "html" ? "text/html" : "text/plain";
  return { description: r.description, content: { [media]: { schema: { type: "string" } } } };
}

/**
 * `node` with the named schemas zod wrote into each JSON Schema's own `$defs` moved to `components.schemas`, and
 * their references made to point there: in OpenAPI 3.1 a `#/$defs/…` reference is read from the document's root,
 * where there is no `$defs`. Each schema's `$schema` goes too (the document's dialect says it once).
 */
function hoistDefinitions<T>(node: T, schemas: Record<string, unknown>): T {
  if (Array.isArray(node)) return node.map((item) => hoistDefinitions(item, schemas)) as T;
  if (typeof node !== "object" || node === null) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema") continue;
    if (key === "$defs") {
      for (const [name, schema] of Object.entries(value as JsonObject)) {
        const hoisted = hoistDefinitions(schema, schemas);
        // One name, one schema: an id whose input and output shapes differ would otherwise lose one of them.
        if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(hoisted)) {
          throw new Error(`OpenAPI: two different schemas are named ${name}`);
        }
        schemas[name] = hoisted;
      }
    } else if (key === "$ref" && typeof value === "string") {
      out.$ref = value.replace(/^#\/\$defs\//, "#/components/schemas/");
    } else {
      out[key] = hoistDefinitions(value, schemas);
    }
  }
  return out as T;
}

function accessNote(route: RouteDefinition): string {
  if (route.access === "none") return "Access: none (no Gatehouse headers are read).";
  if (route.access === "any") return "Access: any (headers optional).";
  const user = route.user === "required" ? " A signed-in user is required." : "";
  return `Access: ${route.access.join(", ")}.${user}`;
}

export function buildOpenApiDocument(routes: readonly RouteDefinition[], serverUrl: string): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const operation: JsonObject = {
      summary: route.summary,
      description: accessNote(route),
      tags: [route.tag],
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_, ch: string) => (ch ?? "").toUpperCase())}`,
      parameters: parameters(route),
      responses: {
        [String(route.response.status)]: successResponse(route),
        "4XX": {
          description: "A known error (JSON) or a plain-text error",
          content: { "application/json": { schema: { $ref: "#/components/schemas/KnownError" } } },
        },
        // Any route that reads the database may meet it down (a restart, a failover): DATABASE_UNAVAILABLE; and every
        // route counts its caller's requests, in Redis when REDIS_URL is set: REDIS_UNAVAILABLE.
        "503": {
          description:
            "DATABASE_UNAVAILABLE or REDIS_UNAVAILABLE: the database, or the Redis the rate limits are counted in, is unreachable for now; retry later (Retry-After)",
          content: { "application/json": { schema: { $ref: "#/components/schemas/KnownError" } } },
        },
      },
    };
    if (typeof route.access !== "string") {
      const user = route.user === "required" ? { accessToken: [] } : {};
      operation.security = route.access.flatMap((type) => [
        { projectId: [], [CREDENTIALS[type].scheme]: [], ...user },
        // An operator's dashboard session stands in for the admin key (WIRE.md §8).
        ...(type === "admin" ? [{ projectId: [], adminAccessToken: [], ...user }] : []),
      ]);
    }
    if (route.upload) {
      const file = { type: "string", format: "binary" };
      operation.requestBody = {
        required: true,
        description: route.upload.description,
        content: Object.fromEntries(route.upload.media.map((media) => [media, { schema: file }])),
      };
    } else if (route.body) {
      operation.requestBody = {
        required: !route.body.safeParse(undefined).success,
        content: { "application/json": { schema: jsonSchema(route.body, "input") } },
      };
    }
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  const header = (suffix: string, description: string) => ({
    type: "apiKey",
    in: "header",
    name: bothSpellings(suffix)[0],
    description: `${description} (also spelled ${bothSpellings(suffix)[1]}).`,
  });
  // One scheme per header, so a reader (and a try-it client) sees every header a request of an access type needs
  // besides the access type itself (a parameter, accessTypeHeader).
  const securitySchemes = {
    projectId: header("project-id", "The project's id"),
    ...Object.fromEntries(
      ACCESS_TYPES.map((type) => [
        CREDENTIALS[type].scheme,
        header(CREDENTIALS[type].header, CREDENTIALS[type].about),
      ]),
    ),
    adminAccessToken: header(
      "admin-access-token",
      "Admin access without the admin key: the access token of an internal-project user on the project's owner team",
    ),
    accessToken: header("access-token", "A signed-in user's access token, for routes that act as that user"),
  };
  const schemas: Record<string, unknown> = {};
  // The error body is a named schema (its id is KnownError): hoisting files it under that name, as the 4XX answers
  // reference it. Without an id it would come back whole, and is filed here.
  const knownError = hoistDefinitions(jsonSchema(knownErrorBodySchema, "output"), schemas);
  schemas.KnownError ??= knownError;
  return {
    openapi: "3.1.0",
    info: {
      title: "Gatehouse API",
      version: "1.0.0",
      description: "Self-hosted authentication and user management, speaking Stack Auth's wire protocol.",
    },
    servers: [{ url: serverUrl }],
    paths: hoistDefinitions(paths, schemas),
    components: { schemas, securitySchemes },
  };
}
