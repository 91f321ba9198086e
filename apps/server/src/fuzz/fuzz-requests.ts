// Generated requests for one contract route: its path with fuzzed ids, its query and body from its schemas, sent
// as JSON, form, broken JSON, nested too deep, oversized or of the wrong type, by every kind of caller.
import type { RouteDefinition } from "@gatehouse/contract";
import fc from "fast-check";
import type { z } from "zod";
import { accessHeaders } from "../testing/test-server.ts";
import type { FuzzWorld } from "./fuzz-world.ts";
import { type FuzzContext, fuzzArbitrary, hostileValue } from "./zod-arbitrary.ts";

export type FuzzRequest = { method: string; path: string; headers: Record<string, string>; body?: string };

const CALLERS = [
  "none",
  "client",
  "server",
  "admin",
  "client-wrong-key",
  "server-wrong-key",
  "admin-wrong-key",
  "other-project",
  "unknown-project",
  "bad-access-type",
  "key-without-type",
  "hexclave-spelling",
  "conflicting-spellings",
] as const;
type CallerKind = (typeof CALLERS)[number];

function callerHeaders(kind: CallerKind, world: FuzzWorld): Record<string, string> {
  switch (kind) {
    case "none":
      return {};
    case "client":
    case "server":
    case "admin":
      return accessHeaders(kind, world.keys);
    case "client-wrong-key":
    case "server-wrong-key":
    case "admin-wrong-key": {
      const type = kind.split("-")[0] as "client" | "server" | "admin";
      return accessHeaders(type, { ...world.keys, pck: "pck_x", ssk: "ssk_\u00e9", sak: "" });
    }
    case "other-project":
      return { ...accessHeaders("admin", world.otherKeys), "x-stack-project-id": world.keys.projectId };
    case "unknown-project":
      return { ...accessHeaders("server", world.keys), "x-stack-project-id": "no-such-project" };
    case "bad-access-type":
      return { ...accessHeaders("server", world.keys), "x-stack-access-type": "root" };
    case "key-without-type":
      return { "x-stack-publishable-client-key": world.keys.pck, "x-stack-project-id": world.keys.projectId };
    case "hexclave-spelling":
      return accessHeaders("server", world.keys, "x-hexclave-");
    case "conflicting-spellings":
      return { ...accessHeaders("server", world.keys), "x-hexclave-project-id": world.otherKeys.projectId };
  }
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * Unsigned tokens whose claims name unstorable or foreign ids: the server reads `kid` and `aud` before it can check
 * the signature, so these values reach its lookups straight from the header.
 */
function forgedTokens(world: FuzzWorld): string[] {
  const claims = [
    { kid: "\u0000", aud: world.keys.projectId, sub: "x" },
    { kid: "x", aud: "\u0000", project_id: "\ud800", sub: "\u0000" },
    { kid: "x", aud: `${world.keys.projectId}:anon`, sub: "not-a-uuid", refresh_token_id: "x" },
    { kid: "x".repeat(5000), aud: ["a", "b"], sub: 1 },
  ];
  return claims.map(({ kid, ...payload }) => {
    const header = base64url({ alg: "ES256", typ: "JWT", kid });
    return `${header}.${base64url({ exp: 9_999_999_999, iat: 0, ...payload })}.${"A".repeat(86)}`;
  });
}

/** The callers a route admits: its access types, or for `none` and `any` no headers and admin ones. */
const admitted = (route: RouteDefinition): CallerKind[] =>
  typeof route.access === "string" ? ["none", "admin"] : [...route.access];

/** A path segment, percent-encoded; lone surrogates (which encodeURIComponent refuses) as invalid UTF-8 bytes. */
function encodeSegment(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  try {
    return encodeURIComponent(text);
  } catch {
    return text.replace(/[\ud800-\udfff]/g, "%ED%A0%80").replace(/[^%A-Za-z0-9_-]/g, (c) => {
      try {
        return encodeURIComponent(c);
      } catch {
        return "%FF";
      }
    });
  }
}

/** Query values are strings: anything else is sent as its JSON text. */
const queryText = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? ""));

const flatFields = (value: unknown): [string, string][] =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.entries(value).flatMap(([k, v]) =>
        v === undefined ? [] : [[k, queryText(v)] as [string, string]],
      )
    : [["value", queryText(value)]];

function formText(fields: [string, string][]): string {
  try {
    return new URLSearchParams(fields).toString();
  } catch {
    return "a=%FF";
  }
}

/** Bodies that are not what the route declares: broken, too deep, too large, of another type. */
const BROKEN_BODIES: { contentType: string; body: string }[] = [
  { contentType: "application/json", body: "{" },
  { contentType: "application/json", body: '{"a":1,}' },
  { contentType: "application/json", body: '"\\ud800"' },
  { contentType: "application/json", body: '{"\\u0000":"\\u0000"}' },
  { contentType: "application/json", body: `${"[".repeat(100_000)}${"]".repeat(100_000)}` },
  { contentType: "application/json", body: `${"[".repeat(1001)}${"]".repeat(1001)}` },
  { contentType: "application/json", body: `{"a":${'{"b":'.repeat(2000)}1${"}".repeat(2001)}` },
  { contentType: "application/json", body: `"${"x".repeat(1024 * 1024 + 10)}"` },
  { contentType: "application/json", body: "null" },
  { contentType: "application/json; charset=latin1", body: "[]" },
  { contentType: "text/plain", body: "hello" },
  { contentType: "application/x-www-form-urlencoded", body: "a=%00&b=%ED%A0%80&c=%FF" },
  { contentType: "multipart/form-data; boundary=x", body: "--x--" },
];

/**
 * Requests for a route: half well-formed (a caller the route admits, the user's token, values that aim to pass the
 * schemas) so that they reach handlers and queries, half hostile in every part.
 */
export function requestArbitrary(route: RouteDefinition, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(wellFormedRequest(route, world), hostileRequest(route, world));
}

function wellFormedRequest(route: RouteDefinition, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const ctx: FuzzContext = { ids: world.ids, fixed: { host: "127.0.0.1", port: 9 } };
  const paramNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const params = paramNames.map((name) => {
    const schema = (route.params?.shape as Record<string, z.ZodType> | undefined)?.[name];
    return schema ? fuzzArbitrary(schema, ctx, 0).map(encodeSegment) : fc.constant("x");
  });
  const clean = (schema: z.ZodType | undefined) =>
    schema ? fuzzArbitrary(schema, ctx, 0) : fc.constant(undefined);
  return fc
    .record({
      params: fc.tuple(...params),
      query: clean(route.query),
      body: clean(route.body),
      caller: fc.constantFrom(...admitted(route)),
      withToken: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
    })
    .map((r): FuzzRequest => {
      let path = route.path;
      paramNames.forEach((name, i) => {
        path = path.replace(`{${name}}`, r.params[i] as string);
      });
      if (r.query !== undefined) {
        const search = formText(flatFields(r.query));
        if (search) path += `?${search}`;
      }
      const headers = callerHeaders(r.caller, world);
      if (r.withToken) headers["x-stack-access-token"] = world.accessToken;
      if (route.method === "GET" || r.body === undefined) return { method: route.method, path, headers };
      headers["content-type"] = "application/json";
      return { method: route.method, path, headers, body: JSON.stringify(r.body) };
    });
}

function hostileRequest(route: RouteDefinition, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const ctx: FuzzContext = { ids: world.ids, fixed: { host: "127.0.0.1", port: 9 } };
  const shape = (schema: z.ZodObject | undefined) => (schema?.shape ?? {}) as Record<string, z.ZodType>;
  const paramNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const paramArbitraries = paramNames.map((name) => {
    const schema = shape(route.params)[name];
    const generated = schema ? fuzzArbitrary(schema, ctx, 0.3) : hostileValue();
    return fc.oneof(
      { weight: 6, arbitrary: generated.map(encodeSegment) },
      {
        weight: 1,
        arbitrary: fc.constantFrom("%00", "%ED%A0%80", "%FF", "%2F", "a%2Fb", "..", "x".repeat(5000)),
      },
    );
  });
  const querySchema = route.query;
  const query = querySchema ? fuzzArbitrary(querySchema, ctx) : fc.constant(undefined);
  const bodySchema = route.body ?? route.clientBody;
  const body = bodySchema ? fuzzArbitrary(bodySchema, ctx) : fc.constantFrom(undefined, {}, { x: 1 });
  const token = fc.constantFrom(
    world.accessToken,
    world.accessToken,
    "",
    "not-a-jwt",
    world.otherAccessToken,
    ...forgedTokens(world),
  );

  return fc
    .record({
      params: fc.tuple(...paramArbitraries),
      query,
      extraQuery: fc.option(fc.constantFrom("unknown=1", "%00=%00", "a=%ED%A0%80"), { freq: 8 }),
      body,
      encoding: fc.constantFrom("json", "json", "json", "json", "json", "json", "form", "broken", "none"),
      broken: fc.constantFrom(...BROKEN_BODIES),
      // Most requests come from a caller the route admits, so that they get past the access check.
      caller: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...admitted(route)) },
        { weight: 2, arbitrary: fc.constantFrom(...CALLERS) },
      ),
      token: fc.option(token, { freq: 4 }),
      masked: fc.boolean(),
      asAdminToken: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    })
    .map((r): FuzzRequest => {
      let path = route.path;
      paramNames.forEach((name, i) => {
        path = path.replace(`{${name}}`, r.params[i] as string);
      });
      const search = [r.query === undefined ? "" : formText(flatFields(r.query)), r.extraQuery ?? ""]
        .filter(Boolean)
        .join("&");
      if (search) path += `?${search}`;
      const headers: Record<string, string> = callerHeaders(r.caller, world);
      if (r.token !== null)
        headers[r.asAdminToken ? "x-stack-admin-access-token" : "x-stack-access-token"] = r.token;
      if (r.masked) headers["x-stack-override-error-status"] = "true";
      if (route.method === "GET" || r.encoding === "none") return { method: route.method, path, headers };
      if (r.encoding === "broken") {
        return {
          method: route.method,
          path,
          headers: { ...headers, "content-type": r.broken.contentType },
          body: r.broken.body,
        };
      }
      if (r.encoding === "form") {
        headers["content-type"] = "application/x-www-form-urlencoded";
        return { method: route.method, path, headers, body: formText(flatFields(r.body)) };
      }
      headers["content-type"] = "application/json";
      return {
        method: route.method,
        path,
        headers,
        body: r.body === undefined ? undefined : JSON.stringify(r.body),
      };
    });
}
