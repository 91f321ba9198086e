// The webhook worker against real HTTP receivers on 127.0.0.1 (WIRE.md §4.16): events fanned out by filter, signed
// Standard-Webhooks requests (verified with the standardwebhooks package), retries at the documented times, the
// 5-day disable, disabled endpoints, secret rotation, restarts and leases, timeouts, attempt purging, the
// private-address check at sending time, and forwarding to a Svix server instead.
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookDeliveries, webhookEvents } from "../db/schema.ts";
import { createWebhooksRepo } from "../db/webhooks-repo.ts";
import { accessHeaders, uniqueEmail, uniqueIp } from "../testing/test-server.ts";
import { NOT_PUBLIC_MESSAGE } from "./addresses.ts";
import {
  type Answer,
  createWebhookTestServer,
  type ReceivedRequest,
  type Receiver,
  startReceiver,
  verifyWebhook,
  type WebhookTestServer,
} from "./testing.ts";
import { ATTEMPT_RETENTION_MS, RETRY_DELAYS_MS, type WebhookWorker } from "./worker.ts";

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

type Json = Record<string, unknown>;
type Attempt = Json & { message_id: string; attempt_number: number; status: string };

let server: WebhookTestServer;
let worker: WebhookWorker;
const receivers: Receiver[] = [];
const workers: WebhookWorker[] = [];

beforeAll(async () => {
  server = await createWebhookTestServer();
  worker = server.newWorker();
  workers.push(worker);
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await Promise.all(receivers.map((r) => r.close()));
  await server.close();
});

async function receiver(answer?: (req: ReceivedRequest) => Answer | "hang") {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

function newWorker(...args: Parameters<WebhookTestServer["newWorker"]>) {
  const created = server.newWorker(...args);
  workers.push(created);
  return created;
}

function send(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  return server.request(path, {
    method,
    headers: { "x-forwarded-for": uniqueIp(), "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A fresh project, after the worker has settled everything earlier tests left due. */
async function newProject() {
  await worker.runOnce();
  // Keys for a year: tests move the clock by days.
  const expiresAt = new Date(nowMillis() + 365 * DAY);
  const { keys } = await server.createProject({ displayName: "Deliveries" }, { expiresAt });
  const admin = (method: string, path: string, body?: unknown) =>
    send(method, `/api/v1/internal/webhooks${path}`, accessHeaders("admin", keys), body);
  const asServer = (method: string, path: string, body?: unknown) =>
    send(method, `/api/v1${path}`, accessHeaders("server", keys), body);

  return {
    projectId: keys.projectId,
    admin,
    asServer,
    async createEndpoint(url: string, body: Json = {}) {
      const res = await admin("POST", "/endpoints", { url, ...body });
      expect(res.status).toBe(201);
      const endpoint = (await res.json()) as Json & { id: string };
      const { secret } = (await (await admin("GET", `/endpoints/${endpoint.id}/secret`)).json()) as {
        secret: string;
      };
      return { id: endpoint.id, secret };
    },
    async createUser(): Promise<Json & { id: string }> {
      const res = await asServer("POST", "/users", { primary_email: uniqueEmail("hook") });
      expect(res.status).toBe(201);
      return (await res.json()) as Json & { id: string };
    },
    async attempts(endpointId: string): Promise<Attempt[]> {
      const res = await admin("GET", `/endpoints/${endpointId}/attempts`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { items: Attempt[] }).items;
    },
    async endpoint(endpointId: string): Promise<Json> {
      return (await (await admin("GET", `/endpoints/${endpointId}`)).json()) as Json;
    },
  };
}

const types = (requests: ReceivedRequest[]) => requests.map((r) => (r.json as { type: string }).type).sort();
const nowMillis = () => server.clock.now().getTime();

async function deliveryStatus(messageId: string) {
  const rows = await server.deps.db
    .select({ status: webhookDeliveries.status, attempts: webhookDeliveries.attempts })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.messageId, messageId));
  return rows;
}

describe("delivery", () => {
  it("delivers user.created after POST /users, signed as Standard Webhooks and Svix specify", async () => {
    const p = await newProject();
    const hook = await receiver();
    const endpoint = await p.createEndpoint(hook.url);
    const user = await p.createUser();
    expect(hook.requests).toHaveLength(0);

    await worker.runOnce();
    expect(hook.requests).toHaveLength(1);
    const req = hook.requests[0]!;
    const now = nowMillis();
    const timestamp = String(Math.floor(now / 1000));
    expect(req.method).toBe("POST");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.json).toEqual({ type: "user.created", data: user });
    const id = req.headers["svix-id"] as string;
    expect(id).toMatch(/^msg_[0-9a-z]{27}$/);
    expect(req.headers["webhook-id"]).toBe(id);
    expect(req.headers["svix-timestamp"]).toBe(timestamp);
    expect(req.headers["webhook-timestamp"]).toBe(timestamp);
    const key = Buffer.from(endpoint.secret.slice("whsec_".length), "base64");
    const mac = createHmac("sha256", key).update(`${id}.${timestamp}.${req.body}`).digest("base64");
    expect(req.headers["svix-signature"]).toBe(`v1,${mac}`);
    expect(req.headers["webhook-signature"]).toBe(`v1,${mac}`);
    expect(verifyWebhook(endpoint.secret, req, server.clock.now())).toEqual(req.json);
    const other = await p.createEndpoint(hook.url);
    expect(() => verifyWebhook(other.secret, req, server.clock.now())).toThrow("No matching signature found");

    expect(await p.attempts(endpoint.id)).toEqual([
      {
        id: expect.any(String),
        endpoint_id: endpoint.id,
        message_id: id,
        event_type: "user.created",
        attempt_number: 1,
        status: "succeeded",
        response_status_code: 200,
        response_body_excerpt: "ok",
        error: null,
        attempted_at_millis: now,
        duration_millis: expect.any(Number),
        next_attempt_at_millis: null,
      },
    ]);
    expect(await deliveryStatus(id)).toEqual([{ status: "succeeded", attempts: 1 }]);

    // Delivered once: the event is dispatched and the delivery settled.
    await worker.runOnce();
    expect(hook.requests).toHaveLength(1);
  });

  it("sends each endpoint the event types its filter names; every endpoint gets the same message id", async () => {
    const p = await newProject();
    const all = await receiver();
    const teams = await receiver();
    const users = await receiver();
    await p.createEndpoint(all.url);
    await p.createEndpoint(teams.url, { filter_types: ["team.created"] });
    await p.createEndpoint(users.url, { filter_types: ["user.created", "user.deleted"] });

    const user = await p.createUser();
    const team = await p.asServer("POST", "/teams", { display_name: "Crew", creator_user_id: user.id });
    expect(team.status).toBe(201);
    expect((await p.asServer("DELETE", `/users/${user.id}`, {})).status).toBe(200);
    await worker.runOnce();

    const recorded = await server.deps.events.list(p.projectId);
    expect(recorded.map((e) => e.type)).toEqual([
      "user.created",
      "team.created",
      "team_membership.created",
      "team_permission.created",
      "team_membership.deleted",
      "user.deleted",
    ]);
    expect(types(all.requests)).toEqual(recorded.map((e) => e.type).sort());
    expect(types(teams.requests)).toEqual(["team.created"]);
    expect(types(users.requests)).toEqual(["user.created", "user.deleted"]);
    const idOf = (requests: ReceivedRequest[], type: string) =>
      requests.find((r) => (r.json as { type: string }).type === type)?.headers["svix-id"];
    expect(idOf(teams.requests, "team.created")).toBe(idOf(all.requests, "team.created"));
    expect(idOf(users.requests, "user.deleted")).toBe(idOf(all.requests, "user.deleted"));
    expect(new Set(all.requests.map((r) => r.headers["svix-id"])).size).toBe(recorded.length);
    for (const req of all.requests) {
      const event = recorded.find((e) => e.type === (req.json as { type: string }).type);
      expect(req.json).toEqual({ type: event?.type, data: event?.data });
    }
  });

  it("sends a disabled endpoint nothing, and drops what was still pending for it", async () => {
    const p = await newProject();
    const off = await receiver();
    const on = await receiver();
    await p.createEndpoint(off.url, { enabled: false });
    const endpoint = await p.createEndpoint(on.url);
    await p.createUser();
    await worker.runOnce();
    expect(off.requests).toHaveLength(0);
    expect(on.requests).toHaveLength(1);

    on.answer(() => ({ status: 500 }));
    await p.createUser();
    await worker.runOnce();
    expect(on.requests).toHaveLength(2);
    const pendingId = on.requests[1]!.headers["svix-id"] as string;
    expect(await deliveryStatus(pendingId)).toEqual([{ status: "pending", attempts: 1 }]);

    expect((await p.admin("PATCH", `/endpoints/${endpoint.id}`, { enabled: false })).status).toBe(200);
    on.answer(() => ({ status: 200 }));
    await p.createUser();
    server.clock.advance(RETRY_DELAYS_MS[0]!);
    await worker.runOnce();
    expect(on.requests).toHaveLength(2);
    expect(await deliveryStatus(pendingId)).toEqual([{ status: "failed", attempts: 1 }]);

    // Enabled again, it gets new events only.
    expect((await p.admin("PATCH", `/endpoints/${endpoint.id}`, { enabled: true })).status).toBe(200);
    server.clock.advance(HOUR);
    await worker.runOnce();
    expect(on.requests).toHaveLength(2);
    const user = await p.createUser();
    await worker.runOnce();
    expect(on.requests).toHaveLength(3);
    expect(on.requests[2]!.json).toEqual({ type: "user.created", data: user });
    expect((await p.attempts(endpoint.id)).map((a) => a.status)).toEqual([
      "succeeded",
      "failed",
      "succeeded",
    ]);
  });

  it("retries a failing receiver after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then stops", async () => {
    const p = await newProject();
    const hook = await receiver(() => ({ status: 500, body: "nope" }));
    const endpoint = await p.createEndpoint(hook.url);
    await p.createUser();
    await worker.runOnce();
    expect(hook.requests).toHaveLength(1);
    const id = hook.requests[0]!.headers["svix-id"];
    const times = [nowMillis()];
    const MINUTE = 60 * SECOND;
    expect(RETRY_DELAYS_MS).toEqual([
      5 * SECOND,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      10 * HOUR,
    ]);

    for (const delay of RETRY_DELAYS_MS) {
      server.clock.advance(delay - 1);
      await worker.runOnce();
      expect(hook.requests).toHaveLength(times.length);
      server.clock.advance(1);
      await worker.runOnce();
      times.push(nowMillis());
      expect(hook.requests).toHaveLength(times.length);
      const req = hook.requests.at(-1)!;
      expect(req.headers["svix-id"]).toBe(id);
      expect(req.headers["svix-timestamp"]).toBe(String(Math.floor(nowMillis() / 1000)));
      expect(verifyWebhook(endpoint.secret, req, server.clock.now())).toEqual(hook.requests[0]!.json);
    }
    expect(hook.requests).toHaveLength(8);

    const attempts = await p.attempts(endpoint.id);
    expect(attempts).toHaveLength(8);
    expect(attempts.map((a) => a.attempt_number)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect([...attempts].reverse()).toEqual(
      times.map((at, i) => ({
        id: expect.any(String),
        endpoint_id: endpoint.id,
        message_id: id,
        event_type: "user.created",
        attempt_number: i + 1,
        status: "failed",
        response_status_code: 500,
        response_body_excerpt: "nope",
        error: "HTTP 500",
        attempted_at_millis: at,
        duration_millis: expect.any(Number),
        next_attempt_at_millis: i < 7 ? at + RETRY_DELAYS_MS[i]! : null,
      })),
    );
    expect(await deliveryStatus(id as string)).toEqual([{ status: "failed", attempts: 8 }]);

    server.clock.advance(3 * DAY);
    await worker.runOnce();
    expect(hook.requests).toHaveLength(8);
    // Failing for about a day and a half is not yet five days.
    expect((await p.endpoint(endpoint.id)).enabled).toBe(true);
  });

  it("stops retrying once the receiver answers 2xx", async () => {
    const p = await newProject();
    const hook = await receiver(() => ({ status: 502 }));
    const endpoint = await p.createEndpoint(hook.url);
    await p.createUser();
    await worker.runOnce();
    hook.answer(() => ({ status: 204 }));
    server.clock.advance(RETRY_DELAYS_MS[0]!);
    await worker.runOnce();
    server.clock.advance(DAY);
    await worker.runOnce();
    expect(hook.requests).toHaveLength(2);
    const attempts = await p.attempts(endpoint.id);
    expect(attempts.map((a) => [a.attempt_number, a.status, a.response_status_code])).toEqual([
      [2, "succeeded", 204],
      [1, "failed", 502],
    ]);
    expect(attempts[0]!.response_body_excerpt).toBe("");
  });

  it("disables an endpoint whose every attempt failed for 5 days", async () => {
    const p = await newProject();
    const hook = await receiver(() => ({ status: 500 }));
    const endpoint = await p.createEndpoint(hook.url);
    const start = nowMillis();
    await p.createUser();
    await worker.runOnce();

    server.clock.advance(5 * DAY - SECOND);
    await worker.runOnce();
    await p.createUser();
    await worker.runOnce();
    expect((await p.endpoint(endpoint.id)).enabled).toBe(true);

    server.clock.advance(SECOND);
    await p.createUser();
    await worker.runOnce();
    expect(nowMillis() - start).toBe(5 * DAY);
    expect(await p.endpoint(endpoint.id)).toMatchObject({ enabled: false, updated_at_millis: nowMillis() });

    // Nothing more goes out: neither new events nor the retries still pending.
    const sent = hook.requests.length;
    await p.createUser();
    for (let i = 0; i < 5; i++) {
      server.clock.advance(10 * HOUR);
      await worker.runOnce();
    }
    expect(hook.requests).toHaveLength(sent);

    // Enabled again, its failure record starts afresh.
    expect((await p.admin("PATCH", `/endpoints/${endpoint.id}`, { enabled: true })).status).toBe(200);
    await p.createUser();
    await worker.runOnce();
    expect(hook.requests).toHaveLength(sent + 1);
    expect((await p.endpoint(endpoint.id)).enabled).toBe(true);
  });

  it("counts the 5 days from the last success", async () => {
    const p = await newProject();
    const hook = await receiver(() => ({ status: 500 }));
    const endpoint = await p.createEndpoint(hook.url);
    await p.createUser();
    await worker.runOnce();
    server.clock.advance(DAY);
    hook.answer(() => ({ status: 200 }));
    await p.createUser();
    await worker.runOnce();
    hook.answer(() => ({ status: 500 }));
    server.clock.advance(4 * DAY + HOUR);
    await p.createUser();
    await worker.runOnce();
    expect((await p.endpoint(endpoint.id)).enabled).toBe(true);
  });

  it("signs with the new and the old secret for 24 hours after a rotation, then with the new one only", async () => {
    const p = await newProject();
    const hook = await receiver();
    const endpoint = await p.createEndpoint(hook.url);
    const old = endpoint.secret;
    const rotated = await p.admin("POST", `/endpoints/${endpoint.id}/secret/rotate`, {});
    const { secret } = (await rotated.json()) as { secret: string };

    await p.createUser();
    await worker.runOnce();
    const both = hook.requests[0]!;
    const id = both.headers["svix-id"] as string;
    const timestamp = Number(both.headers["svix-timestamp"]);
    const sign = (s: string) =>
      `v1,${createHmac("sha256", Buffer.from(s.slice(6), "base64"))
        .update(`${id}.${timestamp}.${both.body}`)
        .digest("base64")}`;
    expect(both.headers["svix-signature"]).toBe(`${sign(secret)} ${sign(old)}`);
    expect(both.headers["webhook-signature"]).toBe(`${sign(secret)} ${sign(old)}`);
    expect(verifyWebhook(secret, both, server.clock.now())).toEqual(both.json);
    expect(verifyWebhook(old, both, server.clock.now())).toEqual(both.json);

    server.clock.advance(DAY - SECOND);
    await p.createUser();
    await worker.runOnce();
    expect((hook.requests[1]!.headers["svix-signature"] as string).split(" ")).toHaveLength(2);

    server.clock.advance(SECOND);
    await p.createUser();
    await worker.runOnce();
    const latest = hook.requests[2]!;
    expect((latest.headers["svix-signature"] as string).split(" ")).toHaveLength(1);
    expect(verifyWebhook(secret, latest, server.clock.now())).toEqual(latest.json);
    expect(() => verifyWebhook(old, latest, server.clock.now())).toThrow("No matching signature found");
  });

  it("keeps 1 KiB of the response body", async () => {
    const p = await newProject();
    const hook = await receiver(() => ({ status: 200, body: "é".repeat(2000) }));
    const endpoint = await p.createEndpoint(hook.url);
    await p.createUser();
    await worker.runOnce();
    const [attempt] = await p.attempts(endpoint.id);
    expect(Buffer.byteLength(attempt!.response_body_excerpt as string)).toBe(1024);
    expect(attempt!.response_body_excerpt).toBe("é".repeat(512));
  });

  it("records a receiver that does not answer in time as a failed attempt", async () => {
    const p = await newProject();
    const hook = await receiver(() => "hang");
    const endpoint = await p.createEndpoint(hook.url);
    const impatient = newWorker({ timeoutMs: 100 });
    await p.createUser();
    await impatient.runOnce();
    expect(hook.requests).toHaveLength(1);
    const [attempt] = await p.attempts(endpoint.id);
    expect(attempt).toMatchObject({
      status: "failed",
      response_status_code: null,
      response_body_excerpt: null,
      error: "Timed out",
      next_attempt_at_millis: nowMillis() + RETRY_DELAYS_MS[0]!,
    });
    // Its retries would hold later tests' runs for the full timeout.
    expect((await p.admin("DELETE", `/endpoints/${endpoint.id}`, {})).status).toBe(200);
  });

  it("refuses private addresses at sending time unless the operator allows them", async () => {
    const p = await newProject();
    const hook = await receiver();
    const endpoint = await p.createEndpoint(hook.url);
    const strict = newWorker({ allowPrivateUrls: false });
    await p.createUser();
    await strict.runOnce();
    expect(hook.requests).toHaveLength(0);
    const [attempt] = await p.attempts(endpoint.id);
    expect(attempt).toMatchObject({
      status: "failed",
      response_status_code: null,
      error: NOT_PUBLIC_MESSAGE,
    });
  });
});

describe("restarts and several processes", () => {
  it("delivers what a stopped worker left pending, with the same message id", async () => {
    const p = await newProject();
    const hook = await receiver(() => ({ status: 500 }));
    const endpoint = await p.createEndpoint(hook.url);
    const first = newWorker();
    await p.createUser();
    await first.runOnce();
    await first.stop();
    expect(hook.requests).toHaveLength(1);

    hook.answer(() => ({ status: 200 }));
    const second = newWorker();
    server.clock.advance(RETRY_DELAYS_MS[0]!);
    await second.runOnce();
    expect(hook.requests).toHaveLength(2);
    expect(hook.requests[1]!.headers["svix-id"]).toBe(hook.requests[0]!.headers["svix-id"]);
    expect((await p.attempts(endpoint.id)).map((a) => [a.attempt_number, a.status])).toEqual([
      [2, "succeeded"],
      [1, "failed"],
    ]);
  });

  it("leaves a claimed delivery to its claimant until the lease runs out", async () => {
    const p = await newProject();
    const hook = await receiver(() => ({ status: 500 }));
    await p.createEndpoint(hook.url);
    await p.createUser();
    await worker.runOnce();
    hook.answer(() => ({ status: 200 }));
    server.clock.advance(RETRY_DELAYS_MS[0]!);

    // A process claims the retry and dies before sending it.
    const now = server.clock.now();
    const claimed = await createWebhooksRepo(server.deps.db).claimDue(
      now,
      new Date(now.getTime() + 60 * SECOND),
      50,
    );
    expect(claimed.map((d) => d.messageId)).toContain(hook.requests[0]!.headers["svix-id"]);

    const other = newWorker();
    await other.runOnce();
    expect(hook.requests).toHaveLength(1);
    server.clock.advance(60 * SECOND);
    await other.runOnce();
    expect(hook.requests).toHaveLength(2);
  });

  it("sends each delivery once when two workers run side by side", async () => {
    const p = await newProject();
    const hook = await receiver();
    await p.createEndpoint(hook.url);
    for (let i = 0; i < 12; i++) await p.createUser();
    const a = newWorker({ batchSize: 5 });
    const b = newWorker({ batchSize: 5 });
    await Promise.all([a.runOnce(), b.runOnce()]);
    expect(hook.requests).toHaveLength(12);
    expect(new Set(hook.requests.map((r) => r.headers["svix-id"])).size).toBe(12);
    await Promise.all([a.runOnce(), b.runOnce(), worker.runOnce()]);
    expect(hook.requests).toHaveLength(12);
  });

  it("polls on its own once started", async () => {
    const p = await newProject();
    const hook = await receiver();
    await p.createEndpoint(hook.url);
    const polling = newWorker({ pollMs: 10 });
    polling.start();
    await p.createUser();
    await vi.waitFor(() => expect(hook.requests).toHaveLength(1));
    await polling.stop();
  });
});

describe("attempt retention", () => {
  it("purges attempts older than 30 days", async () => {
    const p = await newProject();
    const hook = await receiver();
    const endpoint = await p.createEndpoint(hook.url);
    await p.createUser();
    await worker.runOnce();
    server.clock.advance(DAY);
    await p.createUser();
    await worker.runOnce();
    expect(await p.attempts(endpoint.id)).toHaveLength(2);

    server.clock.advance(ATTEMPT_RETENTION_MS - DAY + 1);
    await newWorker().runOnce();
    const kept = await p.attempts(endpoint.id);
    expect(kept).toHaveLength(1);
    expect(kept[0]!.attempted_at_millis).toBe(nowMillis() - ATTEMPT_RETENTION_MS + DAY - 1);
  });
});

describe("forwarding to Svix", () => {
  it("sends each event to the project's Svix application instead of the endpoints", async () => {
    const p = await newProject();
    const hook = await receiver();
    await p.createEndpoint(hook.url);
    const svix = await receiver(() => ({ status: 202, body: '{"id":"msg_1"}' }));
    const forwarding = newWorker({ svix: { url: `${svix.origin}/`, apiKey: "testsk_svix" } });

    const user = await p.createUser();
    await forwarding.runOnce();
    expect(hook.requests).toHaveLength(0);
    expect(svix.requests).toHaveLength(1);
    const [event] = await server.deps.db
      .select({ id: webhookEvents.id, dispatchedAt: webhookEvents.dispatchedAt })
      .from(webhookEvents)
      .where(eq(webhookEvents.projectId, p.projectId));
    const req = svix.requests[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe(`/api/v1/app/${p.projectId}/msg/`);
    expect(req.headers.authorization).toBe("Bearer testsk_svix");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.json).toEqual({
      eventType: "user.created",
      payload: { type: "user.created", data: user },
      eventId: event!.id,
      application: { name: p.projectId, uid: p.projectId },
    });
    expect(event!.dispatchedAt).toEqual(server.clock.now());

    // Svix down: the event waits and goes again; a 409 (already received) counts as sent.
    svix.answer(() => ({ status: 500 }));
    await p.createUser();
    await forwarding.runOnce();
    expect(svix.requests).toHaveLength(2);
    await forwarding.runOnce();
    expect(svix.requests).toHaveLength(3);
    expect(svix.requests[2]!.json).toEqual(svix.requests[1]!.json);
    svix.answer(() => ({ status: 409 }));
    await forwarding.runOnce();
    expect(svix.requests).toHaveLength(4);
    await forwarding.runOnce();
    expect(svix.requests).toHaveLength(4);
    await worker.runOnce();
    expect(hook.requests).toHaveLength(0);
  });
});
