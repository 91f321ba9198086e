// The e-mail outbox as services and the admin API use it: enqueue in the caller's transaction, claims that never
// overlap, and the newest-first list with its recipient filter and limit cap.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { createTestServer, type TestServer } from "../testing/test-server.ts";
import { createEmailOutbox, type EmailOutbox } from "./outbox.ts";

let server: TestServer;
let outbox: EmailOutbox;

beforeAll(async () => {
  server = await createTestServer();
  outbox = createEmailOutbox({ db: server.deps.db, clock: server.clock });
});

afterAll(async () => {
  await server?.close();
});

function queue(projectId: string, to: string) {
  return inTransaction(server.deps.db, (tx) =>
    outbox.enqueue(tx, {
      projectId,
      to,
      templateType: "magic_link",
      subject: "s",
      html: "<p>h</p>",
      text: "h",
    }),
  );
}

describe("e-mail outbox", () => {
  it("leaves no row when the enqueuing transaction rolls back", async () => {
    const { project } = await server.createProject();
    await expect(
      inTransaction(server.deps.db, async (tx) => {
        await outbox.enqueue(tx, {
          projectId: project.id,
          to: "gus@example.com",
          templateType: "password_reset",
          subject: "s",
          html: "<p>h</p>",
          text: "h",
        });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await outbox.list(project.id)).toEqual([]);
  });

  it("never hands one e-mail to two concurrent claims", async () => {
    const { project } = await server.createProject();
    const ids = new Set<string>();
    for (let i = 0; i < 12; i++) ids.add((await queue(project.id, `c${i}@x.test`)).id);
    const now = server.clock.now();
    const lease = new Date(now.getTime() + 60_000);
    const claims = await Promise.all([1, 2, 3].map(() => outbox.claimDue(now, lease, 5)));
    const claimed = claims
      .flat()
      .map((row) => row.id)
      .filter((id) => ids.has(id));
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.length).toBeGreaterThanOrEqual(5);
    // The lease holds: claiming again now finds none of them.
    const again = await outbox.claimDue(now, lease, 100);
    expect(again.filter((row) => claimed.includes(row.id))).toEqual([]);
  });

  it("lists newest first, filters by recipient and caps the limit", async () => {
    const { project } = await server.createProject();
    const ids: string[] = [];
    for (const to of ["a@x.test", "b@x.test", "a@x.test"]) {
      server.clock.advance(1000);
      ids.push((await queue(project.id, to)).id);
    }
    const all = await outbox.list(project.id);
    expect(all.map((item) => item.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(all[0]!.created_at_millis).toBe(server.clock.now().getTime());
    expect(all[0]).toMatchObject({ status: "queued", attempts: 0, sent_at_millis: null, last_error: null });
    expect((await outbox.list(project.id, { to: "a@x.test" })).map((item) => item.id)).toEqual([
      ids[2],
      ids[0],
    ]);
    expect(await outbox.list(project.id, { to: "A@x.test" })).toEqual([]);

    for (let i = 0; i < 205; i++) await queue(project.id, `n${i}@x.test`);
    expect(await outbox.list(project.id)).toHaveLength(50);
    expect(await outbox.list(project.id, { limit: 1000 })).toHaveLength(200);
    expect(await outbox.list(project.id, { limit: 2 })).toHaveLength(2);
  });
});
