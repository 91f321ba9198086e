// The binding of contract routes: access-type refusal, strict bodies, `me`, and the user requirement, exercised
// through a route declared here the way contract routes are declared.
import { defineRoute } from "@gatehouse/contract";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";
import { type AppEnv, bindRoute } from "./bind.ts";
import { renderError } from "./respond.ts";

const userRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/things/{user_id}",
  access: ["server", "admin"],
  user: "required",
  summary: "test route",
  tag: "Test",
  params: z.strictObject({ user_id: z.string() }),
  body: z.strictObject({ email: z.string(), nested: z.strictObject({ a: z.number() }).optional() }),
  response: { status: 200, kind: "json", schema: z.object({ user_id: z.string(), email: z.string() }) },
});

const deleteRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/things",
  access: ["server"],
  summary: "test delete",
  tag: "Test",
  response: { status: 200, kind: "json", schema: z.object({ success: z.literal(true) }) },
});

let server: TestServer;
let keys: ProjectKeys;
let app: Hono<AppEnv>;

beforeAll(async () => {
  server = await createTestServer();
  keys = (await server.createProject()).keys;
  app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set("requestId", "test");
    await next();
  });
  bindRoute(app, server.deps, userRoute, async ({ params, body }) => ({
    ...body,
    user_id: params.user_id,
    extra: 1,
  }));
  bindRoute(app, server.deps, deleteRoute, async () => ({ success: true as const }));
  app.onError((error) =>
    renderError(error, {
      requestId: "test",
      development: false,
      logger: server.deps.logger,
      method: "",
      path: "",
    }),
  );
});
afterAll(() => server.close());

const patch = (headers: Record<string, string>, body: unknown, userId = "me") =>
  app.request(`/api/v1/things/${userId}`, {
    method: "PATCH",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("bindRoute", () => {
  it("names the allowed access types when the caller's is not one", async () => {
    const body = await expectKnownError(
      await patch(accessHeaders("client", keys), { email: "a@b.c" }),
      "INSUFFICIENT_ACCESS_TYPE",
      { actual_access_type: "client", allowed_access_types: ["server", "admin"] },
    );
    expect(body.message).toBe(
      "The x-stack-access-type header must be 'server' or 'admin', but was 'client'.",
    );
  });

  it("lists every validation problem, in the wire's wording", async () => {
    const res = await patch(accessHeaders("server", keys), { nested: { a: "x", b: 1 }, color: "red" });
    const body = await expectKnownError(res, "SCHEMA_ERROR");
    expect(body.message.split("\n")).toEqual([
      "Request validation failed on PATCH /api/v1/things/me:",
      "  - body.email must be defined",
      "  - body.nested.a: Invalid input: expected number, received string",
      "  - body.nested contains unknown properties: b",
      "  - body contains unknown properties: color",
    ]);
  });

  it("refuses `me` without a user, and requires a user", async () => {
    await expectKnownError(
      await patch(accessHeaders("server", keys), { email: "a@b.c" }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await expectKnownError(
      await patch(accessHeaders("server", keys), { email: "a@b.c" }, "someone"),
      "USER_AUTHENTICATION_REQUIRED",
    );
  });

  it("replaces `me` with the token's user and strips fields the response schema does not name", async () => {
    const { accessToken: token, userId } = await server.signIn(keys.projectId);
    const res = await patch(
      { ...accessHeaders("server", keys), "x-stack-access-token": token },
      { email: "a@b.c" },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user_id: userId, email: "a@b.c" });
  });

  it("accepts an empty body or {} on DELETE, and nothing else", async () => {
    const del = (body?: string) =>
      app.request("/api/v1/things", {
        method: "DELETE",
        headers: { "content-type": "application/json", ...accessHeaders("server", keys) },
        ...(body === undefined ? {} : { body }),
      });
    expect((await del()).status).toBe(200);
    expect((await del("{}")).status).toBe(200);
    const body = await expectKnownError(await del('{"force":true}'), "SCHEMA_ERROR");
    expect(body.message).toContain("body contains unknown properties: force");
  });
});
