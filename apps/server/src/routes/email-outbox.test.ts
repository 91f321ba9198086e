// The outbox in Stack Auth's shape over HTTP (/emails/outbox): statuses and filters, the cursor, pause / resume /
// reschedule / cancel of e-mails not sent yet (the worker leaves paused and cancelled ones), and the refusals.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox } from "../db/schema.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
} from "../testing/test-server.ts";

let server: TestServer;
let keys: ProjectKeys;
let userIds: string[];
beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject({ displayName: "Outbox App" }));
  userIds = [];
  for (let i = 0; i < 3; i++) {
    userIds.push((await server.signIn(keys.projectId, { email: uniqueEmail("outbox") })).userId);
  }
});
afterAll(() => server.close());

type Item = Record<string, unknown> & { id: string; status: string };
const call = (method: string, path: string, type: "client" | "server" | "admin" = "server", body?: unknown) =>
  server.request(`/api/v1${path}`, {
    method,
    headers: {
      ...accessHeaders(type, keys),
      "x-forwarded-for": uniqueIp(),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const list = async (query = "") =>
  expectJson<{ items: Item[]; pagination: { next_cursor: string | null } }>(
    await call("GET", `/emails/outbox${query}`),
  );

describe("/emails/outbox", () => {
  it("lists sent-to users newest first in Stack's shape, pages by cursor and filters by status", async () => {
    await expectJson(
      await call("POST", "/emails/send-email", "server", {
        user_ids: userIds,
        html: "<p>Hi</p>",
        subject: "Hi",
      }),
    );
    const all = await list();
    expect(all.items).toHaveLength(3);
    expect(all.items[0]).toMatchObject({
      status: "queued",
      simple_status: "in-progress",
      subject: "Hi",
      has_rendered: true,
      is_paused: false,
      to: { type: "user-primary-email", user_id: userIds[2] },
      created_with: "programmatic-call",
    });
    const first = await list("?limit=2");
    expect(first.items.map((i) => i.id)).toEqual(all.items.slice(0, 2).map((i) => i.id));
    expect(first.pagination.next_cursor).toBe(all.items[2]?.id);
    const second = await list(`?limit=2&cursor=${first.pagination.next_cursor}`);
    expect(second.items.map((i) => i.id)).toEqual([all.items[2]?.id]);
    expect(second.pagination.next_cursor).toBeNull();
    expect((await list("?status=sent")).items).toEqual([]);
    expect((await list("?simple_status=in-progress")).items).toHaveLength(3);
    await expectTextError(await call("GET", "/emails/outbox?limit=101"), 400, "Limit cannot exceed 100");
    await expectTextError(await call("GET", "/emails/outbox?limit=x"), 400, "Invalid limit parameter");
  });

  it("pauses, resumes and cancels; the worker sends none of the paused or cancelled", async () => {
    const [a, b, c] = (await list()).items;
    const paused = await expectJson<Item>(
      await call("PATCH", `/emails/outbox/${a?.id}`, "server", { is_paused: true }),
    );
    expect(paused).toMatchObject({ status: "paused", is_paused: true, simple_status: "in-progress" });
    const cancelled = await expectJson<Item>(
      await call("PATCH", `/emails/outbox/${b?.id}`, "admin", { cancel: true }),
    );
    expect(cancelled).toMatchObject({
      status: "skipped",
      skipped_reason: "MANUALLY_CANCELLED",
      simple_status: "ok",
    });

    await server.deps.emailWorker.runOnce();
    const status = async (id: string | undefined) =>
      (
        await server.deps.db
          .select()
          .from(emailOutbox)
          .where(eq(emailOutbox.id, id ?? ""))
      )[0]?.status;
    expect([await status(a?.id), await status(b?.id), await status(c?.id)]).toEqual([
      "paused",
      "skipped",
      "kept",
    ]);
    expect(await expectJson<Item>(await call("GET", `/emails/outbox/${c?.id}`))).toMatchObject({
      status: "sent",
      has_delivered: true,
    });

    const resumed = await expectJson<Item>(
      await call("PATCH", `/emails/outbox/${a?.id}`, "server", { is_paused: false }),
    );
    expect(resumed.status).toBe("queued");
    await expectKnownError(
      await call("PATCH", `/emails/outbox/${c?.id}`, "server", { cancel: true }),
      "EMAIL_NOT_EDITABLE",
      {
        email_id: c?.id,
        status: "SENT",
      },
    );
    await expectKnownError(
      await call("PATCH", `/emails/outbox/${a?.id}`, "server", { tsx_source: "export default 1" }),
      "EMAIL_RENDERING_ERROR",
    );
  });

  it("answers unknown ids, other projects and clients as Stack does", async () => {
    const [item] = (await list()).items;
    await expectTextError(await call("GET", `/emails/outbox/${crypto.randomUUID()}`), 404, "Email not found");
    const other = await server.createProject();
    const foreign = await server.request(`/api/v1/emails/outbox/${item?.id}`, {
      headers: { ...accessHeaders("server", other.keys), "x-forwarded-for": uniqueIp() },
    });
    await expectTextError(foreign, 404, "Email not found");
    await expectKnownError(await call("GET", "/emails/outbox", "client"), "INSUFFICIENT_ACCESS_TYPE");
  });
});
