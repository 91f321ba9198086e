// The OpenAPI 3.1 document, generated from the route table: every route is documented by being in the contract.
import { z } from "zod";
import { ACCESS_TYPES, bothSpellings } from "./headers.ts";
import type { RouteDefinition } from "./route.ts";
import { knownErrorBodySchema } from "./schemas/common.ts";

type JsonObject = Record<string, unknown>;

const jsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonObject;

function parameters(route: RouteDefinition): JsonObject[] {
  const from = (location: "path" | "query", schema: z.ZodObject | undefined) =>
    Object.entries(schema?.shape ?? {}).map(([name, field]) => {
      const s = jsonSchema(field as z.ZodType, "input");
      return { name, in: location, required: !(field as z.ZodType).safeParse(undefined).success, schema: s };
    });
  return [...from("path", route.params), ...from("query", route.query)];
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
  const media = r.kind === "html" ? "text/html" : "text/plain";
  return { description: r.description, content: { [media]: { schema: { type: "string" } } } };
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
      },
    };
    if (typeof route.access !== "string") {
      operation.security = route.access.map((type) => ({ [`${type}Access`]: [] }));
    }
    if (route.body) {
      operation.requestBody = {
        required: !route.body.safeParse(undefined).success,
        content: { "application/json": { schema: jsonSchema(route.body, "input") } },
      };
    }
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  const [accessType] = bothSpellings("access-type");
  const securitySchemes = Object.fromEntries(
    ACCESS_TYPES.map((type) => [
      `${type}Access`,
      {
        type: "apiKey",
        in: "header",
        name: accessType,
        description: `Send ${accessType}: ${type}, x-stack-project-id and the ${type} credentials (x-stack-* or x-hexclave-*).`,
      },
    ]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "Gatehouse API",
      version: "1.0.0",
      description: "Self-hosted authentication and user management, speaking Stack Auth's wire protocol.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: { schemas: { KnownError: jsonSchema(knownErrorBodySchema, "output") }, securitySchemes },
  };
}
