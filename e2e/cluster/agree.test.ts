// Processes that agree (issue 22, item 1): three servers on one PostgreSQL database behind a round-robin proxy share
// the sign-in abuse limit, see a change made through one of them at once (well within the 1 s bound SECURITY.md
// states), and their e-mail and webhook workers, claiming with SKIP LOCKED, deliver each message exactly once.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import { type SmtpPeer, startSmtpPeer } from "@gatehouse/server/testing/smtp-peer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../support.ts";
import { type Cluster, internalHeaders, startCluster } from "./cluster.ts";

/** The bound within which a change made through one process holds in all (README, SECURITY.md). */
const BOUND_MS = 1000;

let cluster: Cluster;
let smtp: SmtpPeer;
let receiver: Server;
const hooks: { id: string; type: string; userId: string }[] = [];

beforeAll(async () => {
  smtp = await startSmtpPeer();
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const event = JSON.parse(body) as { type: string; data: { id: string } };
      hooks.push({ id: String(req.headers["svix-id"]), type: event.type, userId: event.data.id });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  cluster = await startCluster(3, {
    GATEHOUSE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}?from=noreply%40example.com`,
    GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  });
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
  receiver?.close();
  await smtp?.close();
});

const through = apiCaller(() => cluster.gateway);
const on = (i: number) => apiCaller(() => cluster.servers[i] as RunningServer);
const admin = () => internalHeaders(cluster.gateway, "admin");
const server = () => internalHeaders(cluster.gateway, "server");
const client = () => internalHeaders(cluster.gateway, "client");

/** Polls `probe` on a process until it holds; answers how long that took. */
async function heldWithin(probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > 10 * BOUND_MS) throw new Error("never held");
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

async function waitUntil(what: string, probe: () => boolean) {
  const deadline = Date.now() + 30_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("three processes on one database", () => {
  it("check 10 of 30 parallel wrong passwords for one address and IP, not 10 per process", async () => {
    const email = `guessed-${Date.now()}@example.com`;
    await through(
      "POST",
      "/users",
      server(),
      { primary_email: email, primary_email_auth_enabled: true, password: "the owner's password" },
      201,
    );
    const answers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const res = await fetch(`${cluster.proxy.url}/api/v1/auth/password/sign-in`, {
          method: "POST",
          headers: { ...client(), "content-type": "application/json", "x-forwarded-for": "10.2.0.1" },
          body: JSON.stringify({ email, password: "a wrong guess" }),
        });
        await res.arrayBuffer();
        return res.status === 429 ? "limited" : res.headers.get("x-stack-known-error");
      }),
    );
    expect(answers.filter((a) => a === "EMAIL_PASSWORD_MISMATCH")).toHaveLength(10);
    expect(answers.filter((a) => a === "limited")).toHaveLength(20);
  });

  it("see sign-up turned off through one process at once in the others, and on again", async () => {
    const signUp = async (i: number) => {
      const server = cluster.servers[i] as RunningServer;
      const res = await fetch(`${server.baseUrl}/api/v1/auth/password/sign-up`, {
        method: "POST",
        headers: { ...internalHeaders(server, "client"), "content-type": "application/json" },
        body: JSON.stringify({
          email: `joiner-${i}-${Date.now()}-${Math.random()}@example.com`,
          password: "joiner password 1",
        }),
      });
      await res.arrayBuffer();
      return res.headers.get("x-stack-known-error") === "SIGN_UP_NOT_ENABLED";
    };
    await on(0)("PATCH", "/projects/current", admin(), { config: { sign_up_enabled: false } });
    for (const i of [1, 2]) expect(await heldWithin(() => signUp(i))).toBeLessThan(BOUND_MS);
    await on(0)("PATCH", "/projects/current", admin(), { config: { sign_up_enabled: true } });
    for (const i of [1, 2]) expect(await heldWithin(async () => !(await signUp(i)))).toBeLessThan(BOUND_MS);
  });

  it("refuse an API key revoked through one process in the others at once", async () => {
    const keySet = await on(0)("POST", "/internal/api-keys", admin(), {
      description: "cluster",
      expires_at_millis: Date.now() + 3600_000,
      has_publishable_client_key: false,
      has_secret_server_key: true,
      has_super_secret_admin_key: false,
    });
    const withKey = { ...server(), "x-stack-secret-server-key": String(keySet.secret_server_key) };
    const accepted = async (i: number) => {
      const res = await fetch(`${(cluster.servers[i] as RunningServer).baseUrl}/api/v1/users?limit=1`, {
        headers: withKey,
      });
      await res.arrayBuffer();
      return res.status === 200;
    };
    for (const i of [0, 1, 2]) expect(await accepted(i)).toBe(true);
    await on(0)("PATCH", `/internal/api-keys/${keySet.id}`, admin(), { revoked: true });
    for (const i of [1, 2]) expect(await heldWithin(async () => !(await accepted(i)))).toBeLessThan(BOUND_MS);
  });

  it("deliver each e-mail and each webhook exactly once, whichever process's worker claims it", async () => {
    const { token } = await through("POST", "/webhooks/svix-token", admin(), {}, 201);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await through("POST", "/internal/webhooks/endpoints", { authorization: `Bearer ${token}` }, { url }, 201);
    const stamp = Date.now();
    const emails = Array.from({ length: 24 }, (_, i) => `worker-${stamp}-${i}@example.com`);
    // Created through the proxy, so each process records a share of the events (the webhook outbox).
    const users = await Promise.all(
      emails.map((email) =>
        through(
          "POST",
          "/users",
          server(),
          {
            primary_email: email,
            primary_email_verified: true,
            primary_email_auth_enabled: true,
            password: "worker password 1",
          },
          201,
        ),
      ),
    );
    // And a reset e-mail to each (the e-mail outbox).
    await Promise.all(
      emails.map((email) =>
        through("POST", "/auth/password/send-reset-code", client(), {
          email,
          callback_url: "http://localhost:3000/handler/password-reset",
        }),
      ),
    );
    const ids = new Set(users.map((u) => String(u.id)));
    const created = () => hooks.filter((h) => h.type === "user.created" && ids.has(h.userId));
    await waitUntil("every user.created", () => created().length >= users.length);
    await waitUntil("every reset e-mail", () => emails.every((e) => smtp.to(e).length > 0));
    // Time for a second claim of any message to show, had one happened.
    await new Promise((r) => setTimeout(r, 3000));
    for (const email of emails) expect(smtp.to(email), email).toHaveLength(1);
    expect(created()).toHaveLength(users.length);
    expect(new Set(created().map((h) => h.id)).size).toBe(users.length);
  });
});
