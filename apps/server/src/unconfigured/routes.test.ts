// Stack features that need an outside service, over HTTP: the answers when not set up (AI, analytics queries,
// managed e-mail domains, feedback), and the ones served for real (data vault, AI chat threads, delivery info and
// the capacity boost, test webhooks, the onboarding preview, project transfer).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataVaultEntries, emailOutbox } from "../db/schema.ts";
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
import { startReceiver } from "../webhooks/testing.ts";
import { AI_UNAVAILABLE, FEEDBACK_UNAVAILABLE, MANAGED_EMAIL_UNAVAILABLE } from "./routes.ts";

let server: TestServer;
let keys: ProjectKeys;

type Who = "client" | "server" | "admin";
function call(
  who: Who | null,
  method: string,
  path: string,
  body?: unknown,
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = { "x-forwarded-for": uniqueIp(), ...extra };
  if (who) Object.assign(headers, accessHeaders(who, keys));
  if (body !== undefined) headers["content-type"] = "application/json";
  const url = path.startsWith("/api/") ? path : `/api/v1${path}`;
  return server.request(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  server = await createTestServer({ webhookAllowPrivateUrls: true });
  ({ keys } = await server.createProject({ displayName: "Outside services" }));
});
afterAll(() => server.close());

describe("features answered as not set up", () => {
  it("has no AI model, no ClickHouse, no managed domains and no feedback inbox", async () => {
    await expectTextError(
      await call("client", "POST", "/ai/query/stream", { messages: [] }),
      400,
      AI_UNAVAILABLE,
    );
    await expectTextError(await call(null, "POST", "/api/latest/ai/query/generate", {}), 400, AI_UNAVAILABLE);
    const rewrite = await call("admin", "POST", "/internal/rewrite-template-source", {
      template_tsx_source: "x",
    });
    await expectKnownError(rewrite, "TEMPLATE_SOURCE_REWRITE_ERROR", { error: AI_UNAVAILABLE });
    await expectKnownError(
      await call("admin", "POST", "/internal/analytics/query", { query: "select 1" }),
      "ANALYTICS_NOT_ENABLED",
    );
    expect(await expectJson(await call("admin", "GET", "/internal/emails/managed-onboarding/list"))).toEqual({
      items: [],
    });
    const setup = { subdomain: "mail", sender_local_part: "noreply" };
    await expectTextError(
      await call("admin", "POST", "/internal/emails/managed-onboarding/setup", setup),
      400,
      MANAGED_EMAIL_UNAVAILABLE,
    );
    await expectTextError(
      await call("admin", "POST", "/internal/emails/managed-onboarding/delete", { resend_domain_id: "d" }),
      400,
      MANAGED_EMAIL_UNAVAILABLE,
    );
    const feedback = { email: "a@example.com", message: "hi" };
    await expectTextError(
      await call(null, "POST", "/api/latest/internal/feedback", feedback),
      400,
      FEEDBACK_UNAVAILABLE,
    );
    // The dev tool posts from the app's page: the answers must be readable cross-origin.
    for (const path of ["/api/latest/internal/feedback", "/api/latest/ai/query/stream"]) {
      const preflight = await server.request(path, { method: "OPTIONS" });
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    }
  });
});

describe("the data vault", () => {
  it("keeps values of the stores declared in config as code, per project and store", async () => {
    const { keys: own } = await server.createProject({ displayName: "Vault" });
    const vault = (op: "get" | "set", store: string, body: unknown, who: Who = "server", k = own) =>
      server.request(`/api/v1/data-vault/stores/${store}/${op}`, {
        method: "POST",
        headers: {
          ...accessHeaders(who, k),
          "content-type": "application/json",
          "x-forwarded-for": uniqueIp(),
        },
        body: JSON.stringify(body),
      });
    const entry = { hashed_key: "h1", encrypted_value: "ciphertext-1" };
    await expectKnownError(await vault("set", "secrets", entry), "DATA_VAULT_STORE_DOES_NOT_EXIST", {
      store_id: "secrets",
    });

    const declare = { "dataVault.stores.secrets": { displayName: "Secrets" } };
    const override = await server.request("/api/v1/internal/config/override/project", {
      method: "PATCH",
      headers: { ...accessHeaders("admin", own), "content-type": "application/json" },
      body: JSON.stringify({ config_override_string: JSON.stringify(declare) }),
    });
    await expectJson(override);
    await expectKnownError(
      await vault("get", "secrets", { hashed_key: "h1" }),
      "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST",
      {
        store_id: "secrets",
        hashed_key: "h1",
      },
    );
    expect(await expectJson(await vault("set", "secrets", entry))).toEqual({ success: true });
    expect(
      await expectJson(await vault("set", "secrets", { ...entry, encrypted_value: "ciphertext-2" })),
    ).toEqual({
      success: true,
    });
    expect(await expectJson(await vault("get", "secrets", { hashed_key: "h1" }, "admin"))).toEqual({
      encrypted_value: "ciphertext-2",
    });
    await expectKnownError(
      await vault("get", "other", { hashed_key: "h1" }),
      "DATA_VAULT_STORE_DOES_NOT_EXIST",
    );
    // Sealed at rest: the stored text is not the value the SDK sent.
    const [row] = await server.deps.db.select().from(dataVaultEntries);
    expect(row?.sealedValue).not.toContain("ciphertext-2");
    // Another project's vault is another vault; clients have none.
    await expectKnownError(
      await vault("get", "secrets", { hashed_key: "h1" }, "server", keys),
      "DATA_VAULT_STORE_DOES_NOT_EXIST",
    );
    expect((await vault("get", "secrets", { hashed_key: "h1" }, "client")).status).toBe(401);
  });
});

describe("dashboard AI chat threads", () => {
  it("stores messages per project and thread, oldest first", async () => {
    const thread = `/internal/ai-chat/${randomUUID()}`;
    expect(await expectJson(await call("admin", "GET", thread))).toEqual({ messages: [] });
    // Any JSON, null included (Stack's message is yup's mixed().defined()).
    for (const message of [
      { role: "user", content: "hi" },
      null,
      { role: "assistant", content: [{ text: "hello" }] },
    ])
      expect(await expectJson(await call("admin", "PATCH", thread, { message }))).toEqual({});
    const { messages } = await expectJson<{ messages: unknown[] }>(await call("admin", "GET", thread));
    expect(messages).toEqual([
      { role: "user", content: "hi" },
      null,
      { role: "assistant", content: [{ text: "hello" }] },
    ]);
    const otherProject = await server.createProject({ displayName: "Other" });
    const elsewhere = await server.request(`/api/v1${thread}`, {
      headers: accessHeaders("admin", otherProject.keys),
    });
    expect(await expectJson(elsewhere)).toEqual({ messages: [] });
    await expectKnownError(await call("admin", "PATCH", thread, {}), "SCHEMA_ERROR");
  });
});

describe("e-mail delivery info and the capacity boost", () => {
  it("counts sent e-mails per window and reports Stack's capacity", async () => {
    const { keys: own } = await server.createProject({ displayName: "Mail" });
    const now = server.clock.now().getTime();
    const sentAgo = (ms: number) => ({
      id: randomUUID(),
      projectId: own.projectId,
      to: "a@example.com",
      subject: "s",
      templateType: "custom",
      status: "sent" as const,
      nextAttemptAt: new Date(now),
      sentAt: new Date(now - ms),
    });
    const HOUR = 3600_000;
    await server.deps.db
      .insert(emailOutbox)
      .values([
        sentAgo(60_000),
        sentAgo(2 * HOUR),
        sentAgo(3 * 24 * HOUR),
        sentAgo(20 * 24 * HOUR),
        sentAgo(40 * 24 * HOUR),
      ]);
    const info = await server.request("/api/v1/emails/delivery-info", {
      headers: accessHeaders("server", own),
    });
    const body = await expectJson<{
      stats: Record<string, { sent: number }>;
      capacity: Record<string, unknown>;
    }>(info);
    expect(Object.fromEntries(Object.entries(body.stats).map(([k, v]) => [k, v.sent]))).toEqual({
      hour: 1,
      day: 2,
      week: 3,
      month: 4,
    });
    expect(body.capacity).toEqual({
      rate_per_second: (200 + (4 * 4) / 30 / 24) / 3600,
      boost_multiplier: 1,
      penalty_factor: 1,
      is_boost_active: false,
      boost_expires_at: null,
    });
  });

  it("boosts for four hours, once at a time", async () => {
    const { keys: own } = await server.createProject({ displayName: "Boost" });
    const boost = () =>
      server.request("/api/v1/emails/capacity-boost", {
        method: "POST",
        headers: { ...accessHeaders("server", own), "content-type": "application/json" },
        body: "{}",
      });
    const expected = new Date(server.clock.now().getTime() + 4 * 3600_000).toISOString();
    expect(await expectJson(await boost())).toEqual({ expires_at: expected });
    await expectKnownError(await boost(), "EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE", { expires_at: expected });
    const info = await server.request("/api/v1/emails/delivery-info", {
      headers: accessHeaders("admin", own),
    });
    const { capacity } = await expectJson<{ capacity: Record<string, unknown> }>(info);
    expect(capacity).toMatchObject({
      is_boost_active: true,
      boost_multiplier: 4,
      boost_expires_at: expected,
    });
  });
});

describe("send-test-webhook", () => {
  it("reports whether the endpoint accepted the test event", async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await expectJson<{ id: string }>(
        await call("admin", "POST", "/internal/webhooks/endpoints", { url: receiver.url }),
        201,
      );
      expect(
        await expectJson(
          await call("admin", "POST", "/internal/send-test-webhook", { endpoint_id: endpoint.id }),
        ),
      ).toEqual({
        success: true,
      });
      expect(receiver.requests.at(-1)?.json).toMatchObject({ type: "webhook.test" });
      receiver.answer(() => ({ status: 500 }));
      const failed = await expectJson(
        await call("admin", "POST", "/internal/send-test-webhook", { endpoint_id: endpoint.id }),
      );
      expect(failed.success).toBe(false);
      expect(failed.error_message).toEqual(expect.any(String));
    } finally {
      await receiver.close();
    }
    for (const id of [randomUUID(), "not-an-id"])
      expect(
        await expectJson(await call("admin", "POST", "/internal/send-test-webhook", { endpoint_id: id })),
      ).toEqual({
        success: false,
        error_message: "Endpoint not found. Make sure it still exists.",
      });
  });
});

describe("onboarding preview", () => {
  it("lists the non-anonymous users without a verified primary e-mail, newest first", async () => {
    const { keys: own } = await server.createProject({ displayName: "Onboarding" });
    const verified = await server.signIn(own.projectId, { email: uniqueEmail() });
    await server.signIn(own.projectId, { audience: "anonymous" });
    const addUser = async (email?: string) => {
      const res = await server.request("/api/v1/users", {
        method: "POST",
        headers: { ...accessHeaders("server", own), "content-type": "application/json" },
        body: JSON.stringify(email ? { primary_email: email, display_name: "U" } : { display_name: "U" }),
      });
      return (await expectJson<{ id: string }>(res, 201)).id;
    };
    const email = uniqueEmail();
    const unverified = await addUser(email);
    server.clock.advance(1000);
    const noEmail = await addUser();
    const preview = (body: unknown, query = "") =>
      server.request(`/api/v1/internal/onboarding/preview-affected-users${query}`, {
        method: "POST",
        headers: { ...accessHeaders("admin", own), "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const all = await expectJson(await preview({ onboarding: { require_email_verification: true } }));
    expect(all).toEqual({
      affected_users: [
        {
          id: noEmail,
          display_name: "U",
          primary_email: null,
          restricted_reason: { type: "email_not_verified" },
        },
        {
          id: unverified,
          display_name: "U",
          primary_email: email,
          restricted_reason: { type: "email_not_verified" },
        },
      ],
      total_affected_count: 2,
    });
    expect(JSON.stringify(all)).not.toContain(verified.userId);
    const limited = await expectJson(
      await preview({ onboarding: { require_email_verification: true } }, "?limit=1"),
    );
    expect(limited).toMatchObject({ total_affected_count: 2, affected_users: [{ id: noEmail }] });
    expect(await expectJson(await preview({ onboarding: {} }))).toEqual({
      affected_users: [],
      total_affected_count: 0,
    });
  });
});

describe("project transfer", () => {
  it("moves a project between the operator's teams of the internal project", async () => {
    const operator = await server.signIn("internal");
    const internalCall = (method: string, path: string, body?: unknown, who: Who = "server") =>
      server.request(`/api/v1${path}`, {
        method,
        headers: {
          ...accessHeaders(who, server.internal),
          ...(who === "client" ? withToken(operator.accessToken) : {}),
          "content-type": "application/json",
          "x-forwarded-for": uniqueIp(),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const newTeam = async () =>
      (
        await expectJson<{ id: string }>(
          await internalCall("POST", "/teams", { display_name: "T", creator_user_id: operator.userId }),
          201,
        )
      ).id;
    const [from, to] = [await newTeam(), await newTeam()];
    const { project } = await server.createProject({ displayName: "Moving" });
    await server.deps.db.transaction((tx) =>
      server.deps.projectsRepo.setOwnerTeam(tx as never, project.id, from),
    );
    const transfer = (body: unknown) => internalCall("POST", "/internal/projects/transfer", body, "client");

    await expectKnownError(
      await transfer({ project_id: project.id, new_team_id: randomUUID() }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    expect(await expectJson(await transfer({ project_id: project.id, new_team_id: to }))).toEqual({
      success: "true",
    });
    expect((await server.deps.projectsRepo.find(project.id))?.ownerTeamId).toBe(to);
    await expectKnownError(await transfer({ project_id: "nope", new_team_id: to }), "PROJECT_NOT_FOUND");
    await expectKnownError(
      await call("client", "POST", "/internal/projects/transfer", { project_id: "x", new_team_id: to }),
      "USER_AUTHENTICATION_REQUIRED",
    );
  });
});
