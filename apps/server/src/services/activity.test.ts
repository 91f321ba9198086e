// Session activity written behind: uses wait in memory until a flush writes them in one statement, times only
// move forward, and a failed write keeps the uses for the next flush.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "../db/schema.ts";
import { createSessionsRepo } from "../db/sessions-repo.ts";
import { silentLogger } from "../logger.ts";
import { createTestServer, type TestServer } from "../testing/test-server.ts";
import { createActivityRecorder } from "./activity.ts";

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

async function times(sessionId: string, userId: string) {
  const [session] = await server.deps.db.select().from(sessions).where(eq(sessions.id, sessionId));
  const [user] = await server.deps.db.select().from(users).where(eq(users.id, userId));
  return { session: session?.lastUsedAt.getTime(), user: user?.lastActiveAt.getTime() };
}

describe("activity recorder", () => {
  it("writes nothing until a flush, then the latest use of each session and user", async () => {
    const { keys } = await server.createProject();
    const a = await server.signIn(keys.projectId);
    const b = await server.signIn(keys.projectId);
    const start = await times(a.sessionId, a.userId);
    const t1 = new Date(start.session! + 1000);
    const t2 = new Date(start.session! + 2000);
    server.deps.activity.record(a.sessionId, t2);
    server.deps.activity.record(a.sessionId, t1);
    server.deps.activity.record(b.sessionId, t1);
    expect(await times(a.sessionId, a.userId)).toEqual(start);
    expect(await server.deps.activity.flush()).toBe(true);
    expect(await times(a.sessionId, a.userId)).toEqual({ session: t2.getTime(), user: t2.getTime() });
    expect((await times(b.sessionId, b.userId)).session).toBe(t1.getTime());
    expect(await server.deps.activity.flush()).toBe(false);
    // A late, older use does not move the time back.
    server.deps.activity.record(a.sessionId, t1);
    await server.deps.activity.flush();
    expect((await times(a.sessionId, a.userId)).session).toBe(t2.getTime());
  });

  it("keeps the uses of a failed write for the next flush", async () => {
    const { keys } = await server.createProject();
    const a = await server.signIn(keys.projectId);
    let fail = true;
    const real = createSessionsRepo(server.deps.db);
    const repo = {
      ...real,
      touchMany: async (uses: { sessionId: string; at: Date }[]) => {
        if (fail) throw new Error("database unavailable");
        await real.touchMany(uses);
      },
    };
    const recorder = createActivityRecorder({ repo, logger: silentLogger });
    const at = new Date((await times(a.sessionId, a.userId)).session! + 5000);
    recorder.record(a.sessionId, at);
    await recorder.flush();
    expect((await times(a.sessionId, a.userId)).session).not.toBe(at.getTime());
    fail = false;
    await recorder.stop();
    expect((await times(a.sessionId, a.userId)).session).toBe(at.getTime());
  });
});
