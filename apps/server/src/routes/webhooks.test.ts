// The webhook management API over HTTP (WIRE.md §4.16): the management token and who may use the API (admin
// headers or a live token of the same project), endpoint CRUD with its URL rules, secrets and rotation, the attempts
// log, and test events received by a real HTTP receiver and verified with the standardwebhooks package.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { createWebhooksRepo } from "../db/webhooks-repo.ts";
import { expectKnownError, expectTextError } from "../testing/expect-error.ts";
import { accessHeaders, type ProjectKeys, TEST_BASE_URL, uniqueIp } from "../testing/test-server.ts";
import { HTTPS_REQUIRED } from "../webhooks/service.ts";
import {
  createWebhookTestServer,
  type Receiver,
  startReceiver,
  verifyWebhook,
  type WebhookTestServer,
} from "../webhooks/testing.ts";

const API = "/api/v1/internal/webhooks";
const INVALID_TOKEN = "Invalid or expired webhook management token.";
const NOT_FOUND = "Webhook endpoint not found.";
const NOT_PUBLIC = "Webhook URL must be a public address.";
const HOUR = 60 * 60 * 1000;

type Json = Record<string, unknown>;
type Endpoint = Json & { id: string };
type Headers = Record<string, string>;

let server: WebhookTestServer;
let receiver: Receiver;
beforeAll(async () => {
  server = await createWebhookTestServer();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

function send(method: string, path: string, headers: Headers, body?: unknown) {
  return server.request(path, {
    method,
    headers: {
      "x-forwarded-for": uniqueIp(),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });

async function issueToken(keys: ProjectKeys): Promise<string> {
  const res = await send("POST", "/api/v1/webhooks/svix-token", accessHeaders("admin", keys), {});
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/** A fresh project with calls as its admin (`admin`) or with a management token (`as`). */
async function newProject(input: { isProductionMode?: boolean } = {}) {
  const { keys, project } = await server.createProject({ displayName: "Hooks", ...input });
  const admin = (method: string, path: string, body?: unknown) =>
    send(method, `${API}${path}`, accessHeaders("admin", keys), body);
  const as = (headers: Headers) => (method: string, path: string, body?: unknown) =>
    send(method, `${API}${path}`, headers, body);
  const createEndpoint = async (body: Json = {}): Promise<Endpoint> => {
    const res = await admin("POST", "/endpoints", { url: receiver.url, ...body });
    expect(res.status).toBe(201);
    return (await res.json()) as Endpoint;
  };
  return { keys, project, admin, as, createEndpoint };
}

describe("POST /webhooks/svix-token", () => {
  it("answers 201 with a token and the management API's URL", async () => {
    const { keys } = await newProject();
    const res = await send("POST", "/api/v1/webhooks/svix-token", accessHeaders("admin", keys), {});
    expect(res.status).toBe(201);
    const body = (await res.json()) as { token: string; url: string };
    expect(Object.keys(body).sort()).toEqual(["token", "url"]);
    expect(body.url).toBe(`${TEST_BASE_URL}/api/v1/internal/webhooks`);
    expect(body.token.length).toBeGreaterThan(20);
    // Opaque: the project id is not readable in it.
    expect(body.token).not.toContain(keys.projectId);
  });

  it("accepts an empty body and refuses unknown fields", async () => {
    const { keys } = await newProject();
    const empty = await send("POST", "/api/v1/webhooks/svix-token", accessHeaders("admin", keys));
    expect(empty.status).toBe(201);
    await expectKnownError(
      await send("POST", "/api/v1/webhooks/svix-token", accessHeaders("admin", keys), { x: 1 }),
      "SCHEMA_ERROR",
    );
  });

  it("is for admins only", async () => {
    const { keys } = await newProject();
    for (const type of ["client", "server"] as const) {
      await expectKnownError(
        await send("POST", "/api/v1/webhooks/svix-token", accessHeaders(type, keys), {}),
        "INSUFFICIENT_ACCESS_TYPE",
        { actual_access_type: type, allowed_access_types: ["admin"] },
      );
    }
    await expectKnownError(await send("POST", "/api/v1/webhooks/svix-token", {}, {}), "ACCESS_TYPE_REQUIRED");
  });
});

describe("who may use the management API", () => {
  it("admits admin headers and a live token of the project, with no other header", async () => {
    const p = await newProject();
    const endpoint = await p.createEndpoint();
    const token = await issueToken(p.keys);
    for (const call of [p.admin, p.as(bearer(token)), p.as({ authorization: `bearer ${token}` })]) {
      const res = await call("GET", `/endpoints/${endpoint.id}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Endpoint).id).toBe(endpoint.id);
    }
  });

  it("answers 401 text without a token, with a bad one, and once the token is an hour old", async () => {
    const p = await newProject();
    const endpoint = await p.createEndpoint();
    const token = await issueToken(p.keys);
    const paths = [
      "/event-types",
      "/endpoints",
      `/endpoints/${endpoint.id}`,
      `/endpoints/${endpoint.id}/attempts`,
    ];
    for (const path of paths) {
      await expectTextError(await p.as({})("GET", path), 401, INVALID_TOKEN);
      await expectTextError(await p.as(bearer("nonsense"))("GET", path), 401, INVALID_TOKEN);
      await expectTextError(await p.as(bearer(`${token}x`))("GET", path), 401, INVALID_TOKEN);
      await expectTextError(await p.as({ authorization: token })("GET", path), 401, INVALID_TOKEN);
    }
    await expectTextError(await p.as({})("POST", "/endpoints", { url: receiver.url }), 401, INVALID_TOKEN);
    await expectTextError(await p.as({})("POST", `/endpoints/${endpoint.id}/test`, {}), 401, INVALID_TOKEN);
    await expectTextError(await p.as({})("DELETE", `/endpoints/${endpoint.id}`, {}), 401, INVALID_TOKEN);

    server.clock.advance(HOUR - 1000);
    expect((await p.as(bearer(token))("GET", "/endpoints")).status).toBe(200);
    server.clock.advance(1000);
    await expectTextError(await p.as(bearer(token))("GET", "/endpoints"), 401, INVALID_TOKEN);
    expect((await p.admin("GET", `/endpoints/${endpoint.id}`)).status).toBe(200);
  });

  it("binds a token to its project: another project's endpoints are not found", async () => {
    const a = await newProject();
    const b = await newProject();
    const aEndpoint = await a.createEndpoint({ description: "a" });
    const bEndpoint = await b.createEndpoint({ description: "b" });
    const asB = b.as(bearer(await issueToken(b.keys)));

    const list = (await (await asB("GET", "/endpoints")).json()) as { items: Endpoint[] };
    expect(list.items.map((e) => e.id)).toEqual([bEndpoint.id]);
    for (const [method, path] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["GET", "/secret"],
      ["POST", "/secret/rotate"],
      ["GET", "/attempts"],
      ["POST", "/test"],
    ] as const) {
      const body = method === "GET" ? undefined : {};
      await expectTextError(await asB(method, `/endpoints/${aEndpoint.id}${path}`, body), 404, NOT_FOUND);
    }
    // A's admin headers do not reach B's endpoint either.
    await expectTextError(await a.admin("GET", `/endpoints/${bEndpoint.id}`), 404, NOT_FOUND);
    expect((await a.admin("GET", `/endpoints/${aEndpoint.id}`)).status).toBe(200);
  });

  it("refuses client and server keys", async () => {
    const p = await newProject();
    const endpoint = await p.createEndpoint();
    for (const type of ["client", "server"] as const) {
      for (const path of ["/event-types", "/endpoints", `/endpoints/${endpoint.id}/secret`]) {
        await expectKnownError(
          await p.as(accessHeaders(type, p.keys))("GET", path),
          "INSUFFICIENT_ACCESS_TYPE",
          {
            actual_access_type: type,
            allowed_access_types: ["admin"],
          },
        );
      }
    }
  });

  it("checks admin headers as usual: a wrong admin key fails even with a valid token", async () => {
    const p = await newProject();
    const token = await issueToken(p.keys);
    const headers = { ...accessHeaders("admin", p.keys), "x-stack-super-secret-admin-key": "sak_wrong" };
    await expectKnownError(
      await p.as({ ...headers, ...bearer(token) })("GET", "/endpoints"),
      "INVALID_SUPER_SECRET_ADMIN_KEY",
    );
  });
});

describe("GET /internal/webhooks/event-types", () => {
  it("lists the event types", async () => {
    const p = await newProject();
    const res = await p.admin("GET", "/event-types");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      items: [
        "user.created",
        "user.updated",
        "user.deleted",
        "team.created",
        "team.updated",
        "team.deleted",
        "team_membership.created",
        "team_membership.deleted",
        "team_permission.created",
        "team_permission.deleted",
        "project_permission.created",
        "project_permission.deleted",
        "sso.connection.created",
        "sso.connection.updated",
        "sso.connection.deleted",
        "user.provisioned",
        "audit_log.entry_created",
      ].map((type) => ({ type })),
      is_paginated: false,
    });
  });
});

describe("endpoints", () => {
  it("creates an endpoint with defaults and never shows its secret", async () => {
    const p = await newProject();
    const now = server.clock.now().getTime();
    const res = await p.admin("POST", "/endpoints", { url: receiver.url });
    expect(res.status).toBe(201);
    const endpoint = (await res.json()) as Endpoint;
    expect(endpoint).toEqual({
      id: expect.any(String),
      url: receiver.url,
      description: null,
      filter_types: null,
      enabled: true,
      created_at_millis: now,
      updated_at_millis: now,
    });
    expect((await (await p.admin("GET", `/endpoints/${endpoint.id}`)).json()) as Endpoint).toEqual(endpoint);
    expect(JSON.stringify(endpoint)).not.toContain("whsec_");
  });

  it("creates with every field, lists oldest first, updates and deletes", async () => {
    const p = await newProject();
    const first = await p.createEndpoint({
      description: "CRM",
      filter_types: ["user.created", "team.created", "user.created"],
      enabled: false,
    });
    expect(first).toMatchObject({
      description: "CRM",
      filter_types: ["user.created", "team.created"],
      enabled: false,
    });
    server.clock.advance(1000);
    const second = await p.createEndpoint({ url: `${receiver.origin}/second` });

    const list = await p.admin("GET", "/endpoints");
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ items: [first, second], is_paginated: false });

    server.clock.advance(1000);
    const patched = await p.admin("PATCH", `/endpoints/${first.id}`, {
      url: `${receiver.origin}/moved`,
      description: null,
      filter_types: null,
      enabled: true,
    });
    expect(patched.status).toBe(200);
    const updated = (await patched.json()) as Endpoint;
    expect(updated).toEqual({
      ...first,
      url: `${receiver.origin}/moved`,
      description: null,
      filter_types: null,
      enabled: true,
      updated_at_millis: server.clock.now().getTime(),
    });
    // An empty PATCH changes nothing but the update time.
    const empty = await p.admin("PATCH", `/endpoints/${first.id}`, {});
    expect((await empty.json()) as Endpoint).toEqual(updated);
    const partial = await p.admin("PATCH", `/endpoints/${first.id}`, { filter_types: [] });
    expect((await partial.json()) as Endpoint).toEqual({ ...updated, filter_types: [] });

    const deleted = await p.admin("DELETE", `/endpoints/${first.id}`, {});
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true });
    await expectTextError(await p.admin("GET", `/endpoints/${first.id}`), 404, NOT_FOUND);
    await expectTextError(await p.admin("DELETE", `/endpoints/${first.id}`, {}), 404, NOT_FOUND);
    expect(await (await p.admin("GET", "/endpoints")).json()).toEqual({
      items: [second],
      is_paginated: false,
    });
  });

  it("answers 404 text for an unknown endpoint on every route", async () => {
    const p = await newProject();
    const id = randomUUID();
    for (const [method, path, body] of [
      ["GET", "", undefined],
      ["PATCH", "", { description: "x" }],
      ["DELETE", "", {}],
      ["GET", "/secret", undefined],
      ["POST", "/secret/rotate", {}],
      ["GET", "/attempts", undefined],
      ["POST", "/test", {}],
    ] as const) {
      await expectTextError(await p.admin(method, `/endpoints/${id}${path}`, body), 404, NOT_FOUND);
    }
  });

  it("refuses malformed input with SCHEMA_ERROR", async () => {
    const p = await newProject();
    const endpoint = await p.createEndpoint();
    for (const body of [
      {},
      { url: "/relative" },
      { url: "ftp://example.com/hook" },
      { url: "not a url" },
      { url: 42 },
      { url: receiver.url, filter_types: ["user.created", "user.exploded"] },
      { url: receiver.url, filter_types: ["webhook.test"] },
      { url: receiver.url, filter_types: "user.created" },
      { url: receiver.url, enabled: "yes" },
      { url: receiver.url, description: 5 },
      { url: receiver.url, secret: "whsec_abc" },
    ]) {
      await expectKnownError(await p.admin("POST", "/endpoints", body), "SCHEMA_ERROR");
    }
    await expectKnownError(
      await p.admin("PATCH", `/endpoints/${endpoint.id}`, { filter_types: ["nope"] }),
      "SCHEMA_ERROR",
    );
    await expectKnownError(await p.admin("PATCH", `/endpoints/${endpoint.id}`, { id: "x" }), "SCHEMA_ERROR");
    await expectKnownError(await p.admin("GET", "/endpoints/not-a-uuid"), "SCHEMA_ERROR");
    await expectKnownError(await p.admin("DELETE", `/endpoints/${endpoint.id}`, { x: 1 }), "SCHEMA_ERROR");
    await expectKnownError(await p.admin("POST", `/endpoints/${endpoint.id}/test`, { x: 1 }), "SCHEMA_ERROR");
    await expectKnownError(await p.admin("GET", "/endpoints?limit=5"), "SCHEMA_ERROR");
  });

  it("requires https in production mode", async () => {
    const p = await newProject({ isProductionMode: true });
    await expectTextError(await p.admin("POST", "/endpoints", { url: receiver.url }), 400, HTTPS_REQUIRED);
    const created = await p.admin("POST", "/endpoints", { url: "https://127.0.0.1:1/hook" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as Endpoint;
    await expectTextError(
      await p.admin("PATCH", `/endpoints/${id}`, { url: receiver.url }),
      400,
      HTTPS_REQUIRED,
    );
  });
});

describe("private addresses", () => {
  let strict: WebhookTestServer;
  beforeAll(async () => {
    strict = await createWebhookTestServer({ allowPrivateUrls: false });
  });
  afterAll(() => strict.close());

  it("are refused unless the operator allows them", async () => {
    const { keys } = await strict.createProject({ displayName: "Strict" });
    const call = (method: string, path: string, body: unknown) =>
      strict.request(`${API}${path}`, {
        method,
        headers: { ...accessHeaders("admin", keys), "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://localhost/hook",
      "https://api.localhost/hook",
      "http://10.1.2.3/hook",
      "http://172.16.0.1/hook",
      "http://192.168.1.10/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://100.64.0.1/hook",
      "http://0.0.0.0/hook",
      "http://[::1]/hook",
      "http://[fe80::1]/hook",
      "http://[fd00::1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://2130706433/hook",
    ]) {
      await expectTextError(await call("POST", "/endpoints", { url }), 400, NOT_PUBLIC);
    }
    const created = await call("POST", "/endpoints", { url: "https://93.184.215.14/hook" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as Endpoint;
    await expectTextError(
      await call("PATCH", `/endpoints/${id}`, { url: "http://10.0.0.1/" }),
      400,
      NOT_PUBLIC,
    );
    expect((await call("PATCH", `/endpoints/${id}`, { url: "https://[2606:4700::1111]/hook" })).status).toBe(
      200,
    );
  });
});

describe("secrets", () => {
  it("is whsec_ and base64 of 24 bytes, the same on every read, and rotation replaces it", async () => {
    const p = await newProject();
    const endpoint = await p.createEndpoint();
    const res = await p.admin("GET", `/endpoints/${endpoint.id}/secret`);
    expect(res.status).toBe(200);
    const { secret } = (await res.json()) as { secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    expect(await (await p.admin("GET", `/endpoints/${endpoint.id}/secret`)).json()).toEqual({ secret });

    const rotated = await p.admin("POST", `/endpoints/${endpoint.id}/secret/rotate`, {});
    expect(rotated.status).toBe(200);
    const next = ((await rotated.json()) as { secret: string }).secret;
    expect(next).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(next).not.toBe(secret);
    expect(await (await p.admin("GET", `/endpoints/${endpoint.id}/secret`)).json()).toEqual({ secret: next });

    // Each endpoint has its own; the token reads it too.
    const other = await p.createEndpoint();
    const token = await issueToken(p.keys);
    const otherSecret = (await (
      await p.as(bearer(token))("GET", `/endpoints/${other.id}/secret`)
    ).json()) as Json;
    expect(otherSecret.secret).not.toBe(next);
  });
});

describe("POST /internal/webhooks/endpoints/{id}/test", () => {
  it("sends a signed webhook.test at once, whatever the filter, and answers the attempt", async () => {
    const p = await newProject();
    const endpoint = await p.createEndpoint({ filter_types: ["team.deleted"] });
    const { secret } = (await (await p.admin("GET", `/endpoints/${endpoint.id}/secret`)).json()) as {
      secret: string;
    };
    const before = receiver.requests.length;
    const res = await p.admin("POST", `/endpoints/${endpoint.id}/test`, {});
    expect(res.status).toBe(200);
    const attempt = (await res.json()) as Json;
    const now = server.clock.now().getTime();
    expect(attempt).toEqual({
      id: expect.any(String),
      endpoint_id: endpoint.id,
      message_id: expect.stringMatching(/^msg_[0-9a-z]{27}$/),
      event_type: "webhook.test",
      attempt_number: 1,
      status: "succeeded",
      response_status_code: 200,
      response_body_excerpt: "ok",
      error: null,
      attempted_at_millis: now,
      duration_millis: expect.any(Number),
      next_attempt_at_millis: null,
    });

    expect(receiver.requests).toHaveLength(before + 1);
    const received = receiver.requests[before]!;
    expect(received.method).toBe("POST");
    expect(received.path).toBe("/hook");
    expect(received.headers["content-type"]).toBe("application/json");
    expect(received.headers["svix-id"]).toBe(attempt.message_id);
    expect(received.headers["svix-timestamp"]).toBe(String(Math.floor(now / 1000)));
    expect(received.json).toEqual({ type: "webhook.test", data: { sent_at_millis: now } });
    expect(verifyWebhook(secret, received, server.clock.now())).toEqual(received.json);

    const attempts = await p.admin("GET", `/endpoints/${endpoint.id}/attempts`);
    expect(await attempts.json()).toEqual({ items: [attempt], is_paginated: false });
  });

  it("answers a failed attempt when the receiver fails or cannot be reached", async () => {
    const p = await newProject();
    const failing = await startReceiver(() => ({ status: 503, body: "down for maintenance" }));
    try {
      const endpoint = await p.createEndpoint({ url: failing.url });
      const res = await p.admin("POST", `/endpoints/${endpoint.id}/test`, {});
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        status: "failed",
        response_status_code: 503,
        response_body_excerpt: "down for maintenance",
        error: "HTTP 503",
        next_attempt_at_millis: null,
      });
    } finally {
      await failing.close();
    }
    const gone = await p.createEndpoint({ url: failing.url });
    const res = await p.admin("POST", `/endpoints/${gone.id}/test`, {});
    const attempt = (await res.json()) as Json;
    expect(attempt).toMatchObject({
      status: "failed",
      response_status_code: null,
      response_body_excerpt: null,
    });
    expect(attempt.error).toEqual(expect.stringContaining("ECONNREFUSED"));
  });
});

describe("GET /internal/webhooks/endpoints/{id}/attempts", () => {
  it("lists the last 100 attempts, newest first", async () => {
    const p = await newProject();
    const endpoint = await p.createEndpoint();
    const repo = createWebhooksRepo(server.deps.db);
    const start = server.clock.now().getTime();
    await inTransaction(server.deps.db, async (tx) => {
      for (let i = 0; i < 105; i++) {
        await repo.insertAttempt(tx, {
          id: randomUUID(),
          projectId: p.keys.projectId,
          endpointId: endpoint.id,
          messageId: `msg_${i}`,
          eventType: "user.created",
          attemptNumber: 1,
          status: i % 2 ? "failed" : "succeeded",
          responseStatusCode: i % 2 ? 500 : 200,
          responseBodyExcerpt: "",
          error: i % 2 ? "HTTP 500" : null,
          attemptedAt: new Date(start - (105 - i) * 1000),
          durationMs: i,
          nextAttemptAt: i % 2 ? new Date(start) : null,
        });
      }
    });
    const res = await p.admin("GET", `/endpoints/${endpoint.id}/attempts`);
    const { items } = (await res.json()) as { items: Json[] };
    expect(items).toHaveLength(100);
    expect(items.map((a) => a.message_id)).toEqual(Array.from({ length: 100 }, (_, i) => `msg_${104 - i}`));
    expect(items[0]).toEqual({
      id: expect.any(String),
      endpoint_id: endpoint.id,
      message_id: "msg_104",
      event_type: "user.created",
      attempt_number: 1,
      status: "succeeded",
      response_status_code: 200,
      response_body_excerpt: "",
      error: null,
      attempted_at_millis: start - 1000,
      duration_millis: 104,
      next_attempt_at_millis: null,
    });
    expect(items[1]).toMatchObject({ status: "failed", error: "HTTP 500", next_attempt_at_millis: start });
  });
});
