// How a route of the wire is declared: method, path, who may call it, its input schemas and its answer.
// The server binds handlers to these declarations; the OpenAPI document and the SDK read the same table.
import type { z } from "zod";
import type { AccessType } from "./headers.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call a route:
 * - `none`: Gatehouse headers are not read at all (token, OAuth, JWKS, health, feature support);
 * - `any`: the caller is resolved when headers are present, but none are needed;
 * - a list of access types: one of them is required (`ACCESS_TYPE_REQUIRED` / `INSUFFICIENT_ACCESS_TYPE`).
 */
export type RouteAccess = "none" | "any" | readonly AccessType[];

export type RouteResponse =
  | {
      status: number;
      kind: "json";
      /** Every answer the route gives; where clients get a narrower shape, a union of both. */
      schema: z.ZodType;
      /**
       * The shape client callers get, when narrower: their answers are parsed with it instead of `schema`, which
       * strips the server-only fields without first failing a parse of the server shape.
       */
      clientSchema?: z.ZodType;
    }
  | {
      status: number;
      kind: "text" | "html" | "redirect";
      description: string;
      /** The media type of a body that is not text (a file to download); the OpenAPI document says so. */
      media?: string;
    };

export type RouteDefinition = {
  method: HttpMethod;
  /** Path from the server's origin with `{param}` placeholders, e.g. `/api/v1/projects/current`. */
  path: string;
  access: RouteAccess;
  /** `required`: answers `USER_AUTHENTICATION_REQUIRED` without a user. */
  user?: "required";
  summary: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body client callers may send, when it is narrower than `body` (server-only fields → SCHEMA_ERROR). */
  clientBody?: z.ZodType;
  /** The query client callers must send, when stricter than `query`. */
  clientQuery?: z.ZodObject;
  /**
   * The body is a file, not JSON: the binder leaves it unread for the handler to stream (past the usual 1 MB cap),
   * and the OpenAPI document lists it as binary of these media types.
   */
  upload?: { media: readonly string[]; description: string };
  /** Unknown body and query fields are a SCHEMA_ERROR unless the route tolerates them (OAuth parameters). */
  tolerateUnknownFields?: boolean;
  response: RouteResponse;
};

export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

/** Typed input a handler receives for a route. */
export type RouteInput<R extends RouteDefinition> = {
  params: R["params"] extends z.ZodObject ? z.output<R["params"]> : Record<string, never>;
  query: R["query"] extends z.ZodObject ? z.output<R["query"]> : Record<string, never>;
  body: R["body"] extends z.ZodType ? z.output<R["body"]> : undefined;
};

/** What a JSON route's handler returns. */
export type RouteOutput<R extends RouteDefinition> = R["response"] extends { kind: "json"; schema: infer S }
  ? S extends z.ZodType
    ? z.input<S>
    : never
  : never;
