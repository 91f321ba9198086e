// E-mail for apps over HTTP (Stack Auth's /emails/*): notification preferences (own only for clients), send-email
// (validation, templates by Stack id, skipped users, unsubscribe link and header), the unsubscribe link itself,
// and the worker honouring a preference changed after queueing.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox } from "../db/schema.ts";
import type { OutgoingEmail } from "../email/mailer.ts";
import { createEmailWorker } from "../email/worker.ts";
import { silentLogger } from "../logger.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
  withToken,
} from "../testing/test-server.ts";

const TRANSACTIONAL = "7bb82d33-2f54-4a3d-9d23-82739e0d66ef";
const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";
const MAGIC_LINK_TEMPLATE = "822687fe-8d0a-4467-a0d1-416b6e639478";

let server: TestServer;
let keys: ProjectKeys;
beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject({ displayName: "Mail App" }));
});
afterAll(() => server.close());

type Json = Record<string, unknown>;
const call = (
  method: string,
  path: string,
  type: "client" | "server" | "admin",
  body?: unknown,
  extra = {},
) =>
  server.request(`/api/v1${path}`, {
    method,
    headers: {
      ...accessHeaders(type, keys),
      "x-forwarded-for": uniqueIp(),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...extra,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const newUser = (email: string | undefined = uniqueEmail("mail")) =>
  server.signIn(keys.projectId, email ? { email } : {});
const rowsOf = (userId: string) =>
  server.deps.db.select().from(emailOutbox).where(eq(emailOutbox.userId, userId));

describe("notification preferences", () => {
  it("lists Stack's two categories with their defaults, and a client changes its own", async () => {
    const user = await newUser();
    const token = withToken(user.accessToken);
    const listed = await expectJson<{ items: Json[] }>(
      await call("GET", "/emails/notification-preference/me", "client", undefined, token),
    );
    expect(listed.items).toEqual([
      {
        notification_category_id: TRANSACTIONAL,
        notification_category_name: "Transactional",
        enabled: true,
        can_disable: false,
      },
      {
        notification_category_id: MARKETING,
        notification_category_name: "Marketing",
        enabled: true,
        can_disable: true,
      },
    ]);
    const changed = await expectJson(
      await call(
        "PATCH",
        `/emails/notification-preference/me/${MARKETING}`,
        "client",
        { enabled: false },
        token,
      ),
    );
    expect(changed).toMatchObject({ notification_category_name: "Marketing", enabled: false });
    const after = await expectJson<{ items: Json[] }>(
      await call("GET", `/emails/notification-preference/${user.userId}`, "server"),
    );
    expect(after.items.map((i) => i.enabled)).toEqual([true, false]);
  });

  it("refuses a client another user's preferences, and answers unknown categories and users", async () => {
    const me = await newUser();
    const other = await newUser();
    const token = withToken(me.accessToken);
    await expectTextError(
      await call("GET", `/emails/notification-preference/${other.userId}`, "client", undefined, token),
      403,
      "You can only view your own notification preferences",
    );
    await expectTextError(
      await call(
        "PATCH",
        `/emails/notification-preference/${other.userId}/${MARKETING}`,
        "client",
        { enabled: false },
        token,
      ),
      403,
      "You can only manage your own notification preferences",
    );
    await expectTextError(
      await call(
        "PATCH",
        `/emails/notification-preference/me/${crypto.randomUUID()}`,
        "client",
        { enabled: false },
        token,
      ),
      404,
      "Notification category not found",
    );
    await expectKnownError(
      await call("GET", `/emails/notification-preference/${crypto.randomUUID()}`, "server"),
      "USER_NOT_FOUND",
    );
  });
});

describe("POST /emails/send-email", () => {
  it("queues marketing HTML with an unsubscribe link, and skips a user who turned marketing off", async () => {
    const reader = await newUser();
    const optedOut = await newUser();
    await server.deps.notificationPreferences.set(keys.projectId, optedOut.userId, MARKETING, false);
    const body = {
      user_ids: [reader.userId, optedOut.userId],
      html: "<p>Our news</p>",
      subject: "News",
      notification_category_name: "Marketing",
    };
    const sent = await expectJson(await call("POST", "/emails/send-email", "server", body));
    expect(sent).toEqual({ results: [{ user_id: reader.userId }, { user_id: optedOut.userId }] });

    const [queued] = await rowsOf(reader.userId);
    expect(queued).toMatchObject({ status: "queued", subject: "News", notificationCategoryId: MARKETING });
    expect(queued?.listUnsubscribeUrl).toMatch(
      /^http:\/\/localhost:8102\/api\/v1\/emails\/unsubscribe-link\?code=/,
    );
    expect(queued?.html).toContain("<p>Our news</p>");
    expect(queued?.html).toContain("Unsubscribe</a>");
    const [skipped] = await rowsOf(optedOut.userId);
    expect(skipped).toMatchObject({ status: "skipped", skippedReason: "USER_UNSUBSCRIBED" });

    // The link turns marketing off for its user; a changed code is refused as Stack refuses an unknown one.
    const link = new URL(queued?.listUnsubscribeUrl ?? "");
    const page = await server.request(`${link.pathname}${link.search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Successfully unsubscribed");
    const prefs = await server.deps.notificationPreferences.list(keys.projectId, reader.userId);
    expect(prefs.find((p) => p.notification_category_id === MARKETING)?.enabled).toBe(false);
    await expectKnownError(
      await server.request(`${link.pathname}${link.search}x`),
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });

  it("renders a template named by Stack's id with the user's and the call's variables, without unsubscribe", async () => {
    const user = await newUser();
    const body = {
      user_ids: [user.userId],
      template_id: MAGIC_LINK_TEMPLATE,
      variables: { otp: "XY12", magicLink: "https://a.test/m" },
    };
    await expectJson(await call("POST", "/emails/send-email", "admin", body));
    const [row] = await rowsOf(user.userId);
    expect(row).toMatchObject({ status: "queued", subject: "Sign in to Mail App: Your code is XY12" });
    expect(row?.html).toContain("https://a.test/m");
    expect(row?.listUnsubscribeUrl).toBeNull();
  });

  it("skips a user without a primary e-mail", async () => {
    const anonymous = await server.signIn(keys.projectId, { audience: "anonymous" });
    await expectJson(
      await call("POST", "/emails/send-email", "server", { user_ids: [anonymous.userId], html: "x" }),
    );
    expect((await rowsOf(anonymous.userId))[0]).toMatchObject({
      status: "skipped",
      skippedReason: "USER_HAS_NO_PRIMARY_EMAIL",
    });
  });

  it("answers Stack's errors for a wrong call", async () => {
    const user = await newUser();
    const base = { user_ids: [user.userId], html: "<p>x</p>" };
    await expectKnownError(
      await call("POST", "/emails/send-email", "server", { ...base, all_users: true }),
      "SCHEMA_ERROR",
    );
    await expectKnownError(
      await call("POST", "/emails/send-email", "server", { user_ids: [user.userId] }),
      "SCHEMA_ERROR",
    );
    const missing = crypto.randomUUID();
    await expectKnownError(
      await call("POST", "/emails/send-email", "server", { ...base, user_ids: [user.userId, missing] }),
      "USER_ID_DOES_NOT_EXIST",
      { user_id: missing },
    );
    await expectTextError(
      await call("POST", "/emails/send-email", "server", {
        ...base,
        notification_category_name: "Newsletter",
      }),
      400,
      "Notification category not found with given name",
    );
    await expectTextError(
      await call("POST", "/emails/send-email", "server", {
        user_ids: [user.userId],
        template_id: crypto.randomUUID(),
      }),
      400,
      "No template found with given template_id",
    );
    // A time no date can hold is refused up front, not left to fail when the row is written.
    await expectKnownError(
      await call("POST", "/emails/send-email", "server", { ...base, scheduled_at_millis: 1e300 }),
      "SCHEMA_ERROR",
    );
    await expectKnownError(
      await call("POST", "/emails/send-email", "client", base),
      "INSUFFICIENT_ACCESS_TYPE",
    );
    expect(await rowsOf(user.userId)).toEqual([]);
  });
});

describe("the worker", () => {
  it("sends List-Unsubscribe with marketing mail and skips a user who unsubscribed after queueing", async () => {
    const stays = await newUser();
    const leaves = await newUser();
    const body = {
      user_ids: [stays.userId, leaves.userId],
      html: "<p>Sale</p>",
      notification_category_name: "Marketing",
    };
    await expectJson(await call("POST", "/emails/send-email", "server", body));
    await server.deps.notificationPreferences.set(keys.projectId, leaves.userId, MARKETING, false);

    const sent: OutgoingEmail[] = [];
    const worker = createEmailWorker({
      db: server.deps.db,
      clock: server.clock,
      logger: silentLogger,
      defaultSmtp: { host: "127.0.0.1", port: 25, senderName: "T", senderEmail: "t@x.test" },
      getProjectEmail: () => ({ smtp: undefined, productionMode: false }),
      mailer: { send: async (_smtp, email) => void sent.push(email), close: () => {} },
      skipReason: (row) => server.deps.notificationPreferences.skipReason(row),
    });
    await worker.runOnce();
    const [stayRow] = await rowsOf(stays.userId);
    const [leaveRow] = await rowsOf(leaves.userId);
    expect(stayRow?.status).toBe("sent");
    expect(leaveRow).toMatchObject({ status: "skipped", skippedReason: "USER_UNSUBSCRIBED" });
    const mail = sent.find((m) => m.to === stayRow?.to);
    expect(mail?.headers).toEqual({
      "List-Unsubscribe": `<${stayRow?.listUnsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(sent.some((m) => m.to === leaveRow?.to)).toBe(false);
  });
});
