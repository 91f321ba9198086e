// Routes about the server itself: health, the API root, feature support and the API reference.
import { z } from "zod";
import { defineRoute } from "../route.ts";

export const healthRoute = defineRoute({
  method: "GET",
  path: "/health",
  access: "none",
  summary: "Liveness; with `db=1` the database is pinged too",
  tag: "Meta",
  query: z.strictObject({ db: z.enum(["0", "1"]).optional() }),
  response: { status: 200, kind: "json", schema: z.object({ status: z.enum(["ok", "error"]) }) },
});

export const apiRootRoute = defineRoute({
  method: "GET",
  path: "/api/v1",
  access: "any",
  summary: "Says who the caller is",
  tag: "Meta",
  response: { status: 200, kind: "text", description: "A welcome text naming the resolved caller" },
});

export const checkFeatureSupportRoute = defineRoute({
  method: "POST",
  path: "/api/v1/check-feature-support",
  access: "none",
  summary: "Reports a feature the SDK asked about as not yet supported",
  tag: "Meta",
  body: z.unknown(),
  tolerateUnknownFields: true,
  response: { status: 200, kind: "text", description: "`{feature} is not yet supported. …`" },
});

export const openApiRoute = defineRoute({
  method: "GET",
  path: "/api/v1/openapi.json",
  access: "none",
  summary: "This API's OpenAPI 3.1 document",
  tag: "Meta",
  response: { status: 200, kind: "json", schema: z.record(z.string(), z.unknown()) },
});

export const docsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/docs",
  access: "none",
  summary: "A readable API reference rendered from the OpenAPI document",
  tag: "Meta",
  response: { status: 200, kind: "html", description: "HTML page" },
});
