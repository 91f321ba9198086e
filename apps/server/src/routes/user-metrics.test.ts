// Stack's user counts and per-user activity over HTTP: full and anonymous users, and a user's analytics events
// per UTC day over the last 30 days (empty days as zero), for admins only.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsEvents } from "../db/schema.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";

let server: TestServer;
let keys: ProjectKeys;
const get = (path: string, who: "server" | "admin" = "admin") =>
  server.request(`/api/v1${path}`, { headers: accessHeaders(who, keys) });

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject({ displayName: "User metrics" }));
});
afterAll(() => server.close());

describe("GET /internal/metrics/user-counts", () => {
  it("counts full and anonymous users", async () => {
    await server.signIn(keys.projectId);
    await server.signIn(keys.projectId);
    await server.signIn(keys.projectId, { audience: "anonymous" });
    expect(await expectJson(await get("/internal/metrics/user-counts"))).toEqual({
      total_users: 2,
      anonymous_users: 1,
    });
    expect((await get("/internal/metrics/user-counts", "server")).status).toBe(401);
  });
});

describe("GET /internal/user-activity", () => {
  it("counts the user's events per day over 30 days", async () => {
    const { userId } = await server.signIn(keys.projectId);
    const now = server.clock.now().getTime();
    const event = (daysAgo: number) => ({
      projectId: keys.projectId,
      userId,
      eventType: "$page-view",
      data: {},
      batchId: randomUUID(),
      segmentId: randomUUID(),
      eventAt: new Date(now - daysAgo * 86_400_000),
      createdAt: new Date(now - daysAgo * 86_400_000),
    });
    await server.deps.db.insert(analyticsEvents).values([event(0), event(0), event(3), event(45)]);
    const { data_points } = await expectJson<{ data_points: { date: string; activity: number }[] }>(
      await get(`/internal/user-activity?user_id=${userId}`),
    );
    const day = (daysAgo: number) => new Date(now - daysAgo * 86_400_000).toISOString().slice(0, 10);
    expect(data_points).toHaveLength(30);
    expect(data_points.at(-1)).toEqual({ date: day(0), activity: 2 });
    expect(data_points.find((p) => p.date === day(3))).toEqual({ date: day(3), activity: 1 });
    expect(data_points.reduce((sum, p) => sum + p.activity, 0)).toBe(3);
    await expectKnownError(await get(`/internal/user-activity?user_id=${randomUUID()}`), "USER_NOT_FOUND");
    await expectKnownError(await get("/internal/user-activity?user_id=me"), "SCHEMA_ERROR");
  });
});
