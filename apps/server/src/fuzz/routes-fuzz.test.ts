// The standing fuzz suite (issue 15): every route of the contract's table gets requests generated from its schemas,
// seeded and bounded, by every kind of caller. No answer may be a 5xx, and every 4xx must be a catalogue error with
// `x-stack-known-error` (or a plain-text answer WIRE.md documents). Runs in-process on PGlite and on PostgreSQL.
import { allRoutes, type RouteDefinition, tokenRoute } from "@gatehouse/contract";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";
import { type Finding, judgeAnswer } from "./fuzz-answers.ts";
import { type FuzzRequest, requestArbitrary } from "./fuzz-requests.ts";
import { createFuzzWorld } from "./fuzz-world.ts";

/** Requests per route; with ~110 routes a few thousand in all, in seconds on either database. */
const PER_ROUTE = 40;
const SEED = 15_2024;

/**
 * Routes whose parameters are tolerated rather than declared (WIRE.md §1.6): fuzzed with the fields they read, so
 * that requests reach their checks instead of stopping at a missing `grant_type`.
 */
const text = z.string();
const TOLERATED_FIELDS: Partial<Record<string, z.ZodObject>> = {
  [`POST ${tokenRoute.path}`]: z.object({
    grant_type: z.enum(["refresh_token", "authorization_code", "password"]),
    client_id: text,
    client_secret: text,
    refresh_token: text.optional(),
    code: text.optional(),
    redirect_uri: text.optional(),
    code_verifier: text.optional(),
    scope: text.optional(),
  }),
  "GET /api/v1/auth/oauth/callback/{provider_id}": z.object({
    code: text.optional(),
    state: text.optional(),
    error: text.optional(),
  }),
};

const routeName = (route: RouteDefinition) => `${route.method} ${route.path}`;

/** The route as fuzzed: tolerated parameters declared, in the query for GET and in the body otherwise. */
function fuzzedRoute(route: RouteDefinition): RouteDefinition {
  const fields = TOLERATED_FIELDS[routeName(route)];
  if (!fields) return route;
  return route.method === "GET" ? { ...route, query: fields } : { ...route, body: fields };
}

let server: TestServer;
let other: { keys: ProjectKeys; token: string };
let sent = 0;
/** Answers the wire does not allow, by kind: printed beside the count, so a run shows what it found. */
const found = { serverErrors: 0, other: 0 };

beforeAll(async () => {
  // Rate limits off: a 429 would hide the path behind it (the limits have suites of their own).
  server = await createTestServer({ rateLimits: { enabled: false } });
  const { keys } = await server.createProject({ displayName: "Other" });
  other = { keys, token: await server.mintAccessToken(keys.projectId) };
});

afterAll(async () => {
  console.log(
    `fuzz: ${sent} requests sent to ${allRoutes.length} routes; ${found.serverErrors} 5xx, ${found.other} other findings`,
  );
  await server.close();
});

async function send(request: FuzzRequest): Promise<Response> {
  sent++;
  return server.request(request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
}

describe("every route answers generated requests without a 5xx, and 4xx only as the wire allows", () => {
  it.each(allRoutes.map((route, index) => ({ name: routeName(route), route, index })))(
    "$name",
    async ({ route, index }) => {
      const world = await createFuzzWorld(server, other.keys, other.token);
      const requests = fc.sample(requestArbitrary(fuzzedRoute(route), world), {
        seed: SEED + index,
        numRuns: PER_ROUTE,
      });
      const findings: (Finding & { request: string })[] = [];
      for (const request of requests) {
        const res = await send(request);
        const finding = await judgeAnswer(res, { oauthErrors: route === tokenRoute });
        if (finding) {
          if (finding.status >= 500) found.serverErrors++;
          else found.other++;
          const body = request.body === undefined ? "" : ` ${request.body.slice(0, 300)}`;
          findings.push({ ...finding, request: `${request.method} ${request.path.slice(0, 300)}${body}` });
        }
      }
      expect(findings).toEqual([]);
    },
  );
});

/** Values no field may hold: NUL and unpaired surrogates, as a value, inside metadata, and as a key. */
const UNSTORABLE_VALUES: unknown[] = ["a\u0000b", "\ud800", "x\udc00", { k: ["\u0000"] }, { "a\u0000": 1 }];

/** Headers of a caller the route admits: the strongest of its access types. */
function admittedHeaders(route: RouteDefinition, keys: ProjectKeys): Record<string, string> {
  if (route.access === "none") return {};
  const type = route.access === "any" || route.access.includes("admin") ? "admin" : route.access.at(-1);
  return accessHeaders(type ?? "admin", keys);
}

describe("every declared field of every route refuses NUL and unpaired surrogates with SCHEMA_ERROR", () => {
  const fieldsOf = (schema: unknown) =>
    schema instanceof z.ZodObject ? Object.keys(schema.shape as Record<string, unknown>) : [];
  const cases = (allRoutes as readonly RouteDefinition[]).flatMap((route) =>
    (
      [
        ["params", route.params],
        ["query", route.query],
        ["body", unwrapObject(route.body)],
      ] as const
    ).flatMap(([part, schema]) =>
      fieldsOf(schema).map((field) => ({ name: routeName(route), route, part, field })),
    ),
  );

  it.each(cases)("$name $part.$field", async ({ route, part, field }) => {
    const { keys } = await server.createProject({ displayName: "Unstorable" });
    const headers = admittedHeaders(route, keys);
    // Paths and queries carry NUL (percent-encoded); unpaired surrogates only exist in JSON bodies.
    const values = part === "body" ? UNSTORABLE_VALUES : ["a\u0000b"];
    for (const value of values) {
      let path = route.path.replace(/\{(\w+)\}/g, (_m, name) =>
        name === field ? encodeURIComponent(value as string) : "00000000-0000-4000-8000-000000000000",
      );
      if (part === "query") path += `?${new URLSearchParams({ [field]: value as string })}`;
      const body = part === "body" ? JSON.stringify({ [field]: value }) : undefined;
      const res = await send({
        method: route.method,
        path,
        headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
        body,
      });
      const answer = (await res.json()) as { code?: string; message?: string };
      expect({ status: res.status, code: answer.code }).toEqual({ status: 400, code: "SCHEMA_ERROR" });
      expect(answer.message).toContain(`${part}.${field}`);
    }
  });
});

/** The object inside `.default()`, `.optional()` and the like, for the body's field list. */
function unwrapObject(schema: unknown): unknown {
  let current = schema as { _zod?: { def: { innerType?: unknown } } } | undefined;
  while (current?._zod?.def.innerType) current = current._zod.def.innerType as typeof current;
  return current;
}
