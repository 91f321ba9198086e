// POST /analytics/events/batch stores what Stack's event tracker sends (JSON or gzipped JSON), with the sender's
// user and session, and the overview counts it; session replays answer as Stack's backend without its replay store.
import { randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsEvents } from "../db/schema.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueIp,
  withToken,
} from "../testing/test-server.ts";

const BATCH = "/api/v1/analytics/events/batch";
const REPLAYS = "/api/v1/session-replays/batch";
let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  server.clock.set(new Date("2030-03-10T12:00:00Z"));
  keys = (
    await server.createProject({ displayName: "Tracked" }, { expiresAt: new Date("2031-01-01T00:00:00Z") })
  ).keys;
});
afterAll(() => server.close());

const pageView = (path: string) => ({
  event_type: "$page-view",
  event_at_ms: Date.parse("2030-03-10T11:59:00Z"),
  data: { url: `https://app.example.com${path}`, path, title: "Home", entry_type: "initial" },
});

const batch = (events: unknown[]) => ({
  session_replay_segment_id: randomUUID(),
  batch_id: randomUUID(),
  sent_at_ms: Date.parse("2030-03-10T12:00:00Z"),
  events,
});

function send(
  body: string | Uint8Array,
  contentType: string,
  headers: Record<string, string> = {},
  path = BATCH,
) {
  return server.request(path, {
    method: "POST",
    headers: {
      ...accessHeaders("client", keys),
      "content-type": contentType,
      "x-forwarded-for": uniqueIp(),
      ...headers,
    },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
}

const eventsOf = (projectId: string) =>
  server.deps.db.select().from(analyticsEvents).where(eq(analyticsEvents.projectId, projectId));

describe("POST /analytics/events/batch", () => {
  it("stores a JSON batch with the signed-in user and session, and a gzipped one as the tracker sends it", async () => {
    // The tracker signs visitors in anonymously; Stack's SDK allows anonymous users on every request.
    const user = await server.signIn(keys.projectId, { audience: "anonymous" });
    const token = withToken(user.accessToken, { "x-stack-allow-anonymous-user": "true" });
    const json = batch([
      pageView("/"),
      { event_type: "$click", event_at_ms: 1, data: { tag_name: "a" } },
      // Any JSON value is data, null too (Stack's schema only asks that it be present).
      { event_type: "$click", event_at_ms: 2, data: null },
    ]);
    expect(await expectJson(await send(JSON.stringify(json), "application/json", token))).toEqual({
      inserted: 3,
    });
    const zipped = gzipSync(Buffer.from(JSON.stringify(batch([pageView("/pricing")]))));
    expect(await expectJson(await send(zipped, "application/octet-stream", token))).toEqual({ inserted: 1 });

    const rows = await eventsOf(keys.projectId);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect([row.userId, row.sessionId]).toEqual([user.userId, user.sessionId]);
    expect(rows.find((r) => r.eventAt.getTime() === 2)?.data).toBeNull();
    const click = rows.find((r) => r.eventType === "$click" && r.eventAt.getTime() === 1);
    expect(click).toMatchObject({ data: { tag_name: "a" }, batchId: json.batch_id, eventAt: new Date(1) });
  });

  it("counts page views per day and the users who sent events on the overview", async () => {
    const other = await server.signIn(keys.projectId, { email: "reader@example.com" });
    await expectJson(
      await send(
        JSON.stringify(batch([pageView("/a"), pageView("/b")])),
        "application/json",
        withToken(other.accessToken),
      ),
    );
    // A visitor without a session is stored without a user, and counted in page views only.
    await expectJson(await send(JSON.stringify(batch([pageView("/c")])), "application/json"));
    const metrics = await expectJson<{
      analytics: Record<string, unknown> & { daily_page_views: { date: string; count: number }[] };
    }>(await server.request("/api/v1/internal/metrics", { headers: accessHeaders("admin", keys) }));
    expect(metrics.analytics).toMatchObject({
      retention_days: 30,
      daily_active_users: 2,
      monthly_active_users: 2,
    });
    expect(metrics.analytics.daily_page_views).toHaveLength(30);
    expect(metrics.analytics.daily_page_views.at(-1)).toEqual({ date: "2030-03-10", count: 5 });
    expect(metrics.analytics.daily_page_views.slice(0, -1).every((d) => d.count === 0)).toBe(true);
  });

  it("replaces halves of surrogate pairs the tracker's truncation leaves, as Stack does, instead of refusing", async () => {
    const text =
      '{"event_type":"$click","event_at_ms":5,"data":{"text":"ok \\ud83d","pair":"\\ud83d\\ude00","slash":"\\\\ud83d"}}';
    const body = `{"session_replay_segment_id":"${randomUUID()}","batch_id":"${randomUUID()}","sent_at_ms":1,"events":[${text}]}`;
    expect(await expectJson(await send(body, "application/json"))).toEqual({ inserted: 1 });
    const row = (await eventsOf(keys.projectId)).find((r) =>
      (r.data as { text?: string } | null)?.text?.startsWith("ok"),
    );
    expect(row?.data).toEqual({ text: "ok \ufffd", pair: "😀", slash: "\\ud83d" });
  });

  it("refuses what Stack refuses: unknown event types, empty or oversized batches, bad ids, other bodies", async () => {
    const schema = async (body: unknown) =>
      expectKnownError(await send(JSON.stringify(body), "application/json"), "SCHEMA_ERROR");
    await schema(batch([{ ...pageView("/"), event_type: "$custom" }]));
    await schema(batch([]));
    await schema(batch(Array.from({ length: 501 }, () => pageView("/"))));
    await schema({ ...batch([pageView("/")]), batch_id: "not-a-uuid" });
    await expectKnownError(
      await send(Buffer.from("not gzip"), "application/octet-stream"),
      "BODY_PARSING_ERROR",
    );
    // A gzip bomb stops at the body cap once inflated.
    await expectTextError(
      await send(gzipSync(Buffer.alloc(2 * 1024 * 1024, 32)), "application/octet-stream"),
      413,
      "Request body too large.",
    );
    const anonymous = await server.request(BATCH, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(batch([pageView("/")])),
    });
    await expectKnownError(anonymous, "ACCESS_TYPE_REQUIRED");
  });

  it("keeps events for the retention period: the pruner deletes older ones", async () => {
    const before = (await eventsOf(keys.projectId)).length;
    expect(before).toBeGreaterThan(0);
    server.clock.set(new Date("2030-04-09T11:59:00Z")); // 29 days, 23:59 hours on: all kept
    expect(await server.deps.analytics.prune()).toBe(0);
    server.clock.set(new Date("2030-04-09T12:01:00Z"));
    expect(await server.deps.analytics.prune()).toBe(before);
    expect(await eventsOf(keys.projectId)).toHaveLength(0);
  });
});

describe("session replays (Stack keeps them in an outside store)", () => {
  it("answers ANALYTICS_NOT_ENABLED to a replay batch, after the access check", async () => {
    await expectKnownError(
      await send(JSON.stringify({ events: [] }), "application/json", {}, REPLAYS),
      "ANALYTICS_NOT_ENABLED",
    );
    const none = await server.request(REPLAYS, { method: "POST" });
    await expectKnownError(none, "ACCESS_TYPE_REQUIRED");
  });

  it("lists no replays to admins, and every replay id is ITEM_NOT_FOUND", async () => {
    const admin = { headers: accessHeaders("admin", keys) };
    expect(
      await expectJson(await server.request("/api/v1/internal/session-replays?limit=10", admin)),
    ).toEqual({
      items: [],
      pagination: { next_cursor: null },
    });
    const id = randomUUID();
    for (const path of [`/${id}`, `/${id}/chunks`, `/${id}/events?offset=0`]) {
      await expectKnownError(
        await server.request(`/api/v1/internal/session-replays${path}`, admin),
        "ITEM_NOT_FOUND",
        {
          item_id: id,
        },
      );
    }
    await expectKnownError(
      await server.request(`/api/v1/internal/session-replays/${id}/chunks/c1/events`, admin),
      "ITEM_NOT_FOUND",
      { item_id: "c1" },
    );
    await expectKnownError(
      await server.request("/api/v1/internal/session-replays", { headers: accessHeaders("client", keys) }),
      "INSUFFICIENT_ACCESS_TYPE",
    );
  });
});
