// The audit log (issue 21): every audited action, made through the API by users, server keys and admin keys, leaves
// exactly one entry of its type naming actor and target; a refused change leaves none.
import type { AuditEntry } from "@gatehouse/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import {
  type AccessType,
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
  withToken,
} from "../testing/test-server.ts";

const PASSWORD = "correct horse battery";
const DAY = 24 * 3600 * 1000;

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  keys = (
    await server.createProject(
      { displayName: "Audited actions" },
      { expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) },
    )
  ).keys;
});
afterAll(async () => {
  await server.deps.emailWorker.stop();
  await server.close();
});

function call(
  method: string,
  path: string,
  type: AccessType,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return server.request(path, {
    method,
    headers: {
      ...accessHeaders(type, keys),
      "x-forwarded-for": uniqueIp(),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function entries(type: string, targetId?: string): Promise<AuditEntry[]> {
  const query = new URLSearchParams({ type, limit: "200", ...(targetId ? { target_id: targetId } : {}) });
  const res = await call("GET", `/api/v1/audit-log?${query}`, "admin");
  return (await expectJson<{ items: AuditEntry[] }>(res)).items;
}

async function newUser() {
  const email = uniqueEmail("actions");
  const res = await call("POST", "/api/v1/auth/password/sign-up", "client", { email, password: PASSWORD });
  const tokens = await expectJson<{ user_id: string; access_token: string; refresh_token: string }>(res);
  return { email, id: tokens.user_id, accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
}

describe("a user's own actions", () => {
  it("sign-out: one sign_out by the user", async () => {
    const user = await newUser();
    const res = await call(
      "DELETE",
      "/api/v1/auth/sessions/current",
      "client",
      {},
      {
        ...withToken(user.accessToken),
        "x-stack-refresh-token": user.refreshToken,
      },
    );
    await expectJson(res);
    const found = await entries("sign_out", user.id);
    expect(found).toHaveLength(1);
    expect(found[0]?.actor).toEqual({ type: "user", id: user.id });
  });

  it("password update: one password.changed; a wrong old password leaves none", async () => {
    const user = await newUser();
    const path = "/api/v1/auth/password/update";
    const headers = withToken(user.accessToken);
    await expectKnownError(
      await call(
        "POST",
        path,
        "client",
        { old_password: "not it at all", new_password: "another long one" },
        headers,
      ),
      "PASSWORD_CONFIRMATION_MISMATCH",
    );
    expect(await entries("password.changed", user.id)).toHaveLength(0);
    await expectJson(
      await call(
        "POST",
        path,
        "client",
        { old_password: PASSWORD, new_password: "another long one" },
        headers,
      ),
    );
    const found = await entries("password.changed", user.id);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ actor: { type: "user", id: user.id }, details: { via: "update" } });
    expect(JSON.stringify(found)).not.toContain("another long one");
  });
});

describe("actions by a server key", () => {
  it("session revocation, MFA, ban and unban: one entry each, the server key as actor", async () => {
    const user = await newUser();
    const sessions = await expectJson<{ items: { id: string }[] }>(
      await call("GET", `/api/v1/auth/sessions?user_id=${user.id}`, "server"),
    );
    const sessionId = sessions.items[0]?.id;
    await expectJson(
      await call("DELETE", `/api/v1/auth/sessions/${sessionId}?user_id=${user.id}`, "server", {}),
    );
    const patch = (body: unknown) => call("PATCH", `/api/v1/users/${user.id}`, "server", body);
    await expectJson(
      await patch({ totp_secret_base64: Buffer.from("12345678901234567890").toString("base64") }),
    );
    await expectJson(await patch({ restricted_by_admin: true, restricted_by_admin_reason: "Spam" }));
    await expectJson(await patch({ restricted_by_admin: true }));
    await expectJson(await patch({ restricted_by_admin: false }));
    for (const type of ["session.revoked", "mfa.changed", "user.banned", "user.unbanned"]) {
      const found = await entries(type, user.id);
      expect(found, type).toHaveLength(1);
      expect(found[0]?.actor.type, type).toBe("server_key");
    }
    expect((await entries("user.banned", user.id))[0]?.details).toEqual({ reason: "Spam" });
  });

  it("permission grant and revoke: one entry each", async () => {
    const user = await newUser();
    await expectJson(
      await call("POST", "/api/v1/project-permission-definitions", "admin", { id: "audit_reader" }),
      201,
    );
    const path = `/api/v1/project-permissions/${user.id}/audit_reader`;
    await expectJson(await call("POST", path, "server", {}), 201);
    await expectJson(await call("POST", path, "server", {}), 201); // idempotent: nothing new granted
    await expectJson(await call("DELETE", path, "server", {}));
    expect(await entries("permission.granted", user.id)).toHaveLength(1);
    expect(await entries("permission.revoked", user.id)).toHaveLength(1);
  });
});

describe("e-mail changes", () => {
  it("one user.email_changed per change, with both addresses, actor, IP; the same address again leaves none", async () => {
    const user = await newUser();
    const next = uniqueEmail("changed");
    const ip = "198.51.100.77";
    const patch = (body: unknown) =>
      call("PATCH", `/api/v1/users/${user.id}`, "admin", body, { "x-forwarded-for": ip });
    await expectJson(await patch({ primary_email: next }));
    await expectJson(await patch({ primary_email: next }));
    await expectJson(await patch({ display_name: "Unchanged address" }));
    const found = await entries("user.email_changed", user.id);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      actor: { type: "admin_key" },
      ip,
      details: { from: user.email, to: next, via: "user_update" },
    });

    // Through the user's own contact channels: a new primary address is a change, a second address is not.
    const third = uniqueEmail("channel");
    const headers = withToken(user.accessToken);
    await expectJson(
      await call(
        "POST",
        "/api/v1/contact-channels",
        "client",
        { user_id: "me", type: "email", value: uniqueEmail("secondary"), used_for_auth: false },
        headers,
      ),
      201,
    );
    await expectJson(
      await call(
        "POST",
        "/api/v1/contact-channels",
        "client",
        { user_id: "me", type: "email", value: third, used_for_auth: false, is_primary: true },
        headers,
      ),
      201,
    );
    const after = await entries("user.email_changed", user.id);
    expect(after).toHaveLength(2);
    // The test clock stands still, so both entries have one time: found by what they say, not by their order.
    expect(after.find((e) => e.details.via === "contact_channel")).toMatchObject({
      actor: { type: "user", id: user.id },
      details: { from: next, to: third, via: "contact_channel" },
    });
  });
});

describe("actions by an admin key", () => {
  it("API key creation and revocation: one entry each, naming the key set, never the key", async () => {
    const created = await expectJson<{ id: string; secret_server_key: string }>(
      await call("POST", "/api/v1/internal/api-keys", "admin", {
        description: "audited",
        expires_at_millis: server.clock.now().getTime() + DAY,
        has_publishable_client_key: false,
        has_secret_server_key: true,
        has_super_secret_admin_key: false,
      }),
    );
    await expectJson(
      await call("PATCH", `/api/v1/internal/api-keys/${created.id}`, "admin", { revoked: true }),
    );
    await expectJson(
      await call("PATCH", `/api/v1/internal/api-keys/${created.id}`, "admin", { revoked: true }),
    );
    const made = await entries("api_key.created", created.id);
    expect(made).toHaveLength(1);
    expect(made[0]?.actor.type).toBe("admin_key");
    expect(JSON.stringify(made)).not.toContain(created.secret_server_key);
    expect(await entries("api_key.revoked", created.id)).toHaveLength(1);
  });

  it("signing-key rotation: one entry naming the project and the keys it published, never key material", async () => {
    const before = await entries("signing_key.rotated", keys.projectId);
    const rotated = await expectJson<{ items: { kid: string; state: string }[] }>(
      await call("POST", "/api/v1/internal/signing-keys/rotate", "admin"),
    );
    const after = await entries("signing_key.rotated", keys.projectId);
    expect(after).toHaveLength(before.length + 1);
    const entry = after[0];
    expect(entry).toMatchObject({
      actor: { type: "admin_key" },
      target: { type: "project", id: keys.projectId },
    });
    const pending = rotated.items.filter((key) => key.state === "pending").map((key) => key.kid);
    expect(pending.length).toBeGreaterThan(0);
    expect([...((entry?.details.published ?? []) as string[])].sort()).toEqual([...pending].sort());
    expect(entry?.details.retired).toEqual([]);
    expect(JSON.stringify(entry)).not.toMatch(/"d"|private/i);
  });

  it("project, config and e-mail template changes: one entry each", async () => {
    await expectJson(
      await call("PATCH", "/api/v1/projects/current", "admin", {
        display_name: "Audited actions, renamed",
        config: { sign_up_enabled: true },
      }),
    );
    const project = await entries("project.updated", keys.projectId);
    expect(project).toHaveLength(1);
    expect(project[0]?.details).toEqual({ fields: ["displayName"] });
    const config = await entries("config.updated", keys.projectId);
    expect(config).toHaveLength(1);
    expect(config[0]?.details).toEqual({ keys: ["sign_up_enabled"] });
    await expectJson(
      await call("PATCH", "/api/v1/email-templates/magic_link", "admin", { subject: "Your sign-in link" }),
    );
    const template = await entries("email_template.updated", "magic_link");
    expect(template).toHaveLength(1);
    expect(template[0]).toMatchObject({ actor: { type: "admin_key" }, details: { change: "edited" } });
  });
});
