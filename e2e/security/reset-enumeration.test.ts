// Issue 15 item 6, black-box: send-reset-code and send-sign-in-code answer a known and an unknown address alike
// (status, body, headers), from every process, and only the known address gets mail. That both paths run the same
// statements, which is what keeps their timing alike, is proven at the driver in
// apps/server/src/services/send-code-statements.test.ts; this suite holds the answers on the real server.
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Cluster, internalHeaders, startCluster } from "./cluster.ts";

let cluster: Cluster;
const KNOWN = "known-reset@example.com";
const CALLBACK = "http://localhost:3000/handler/password-reset";

beforeAll(async () => {
  cluster = await startCluster(2, { STACK_SEED_INTERNAL_PROJECT_OTP_ENABLED: "true" });
  const server = cluster.servers[0]!;
  const created = await fetch(`${server.baseUrl}/api/v1/users`, {
    method: "POST",
    headers: { ...internalHeaders(server, "server"), "content-type": "application/json" },
    body: JSON.stringify({
      primary_email: KNOWN,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      password: "a good password",
    }),
  });
  expect(created.status).toBe(201);
});
afterAll(() => cluster?.stop());

/** What a caller can observe of an answer, less what differs on every request. */
async function observed(i: number, path: string, email: string) {
  const server = cluster.servers[i % cluster.servers.length]!;
  const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: { ...internalHeaders(server, "client"), "content-type": "application/json" },
    body: JSON.stringify({ email, callback_url: CALLBACK }),
  });
  const headers = [...res.headers.entries()].filter(
    ([name]) => !/^(date|x-stack-request-id|x-hexclave-request-id|content-length)$/.test(name),
  );
  // A sign-in code's nonce is random for every send, known address or not: only its shape is compared.
  const body = (await res.text()).replace(/"nonce":"[0-9a-z]+"/, '"nonce":"…"');
  return { status: res.status, body, headers };
}

it("answers known and unknown addresses alike, and mails a reset link only to the known one", async () => {
  for (const path of ["/auth/password/send-reset-code", "/auth/otp/send-sign-in-code"]) {
    for (let i = 0; i < cluster.servers.length; i++) {
      const known = await observed(i, path, KNOWN);
      const unknown = await observed(i, path, `nobody-${i}@example.com`);
      expect(known.status, `${path}: ${known.body}`).toBe(200);
      expect(unknown).toEqual(known);
    }
  }
  const server = cluster.servers[0]!;
  const emails = await fetch(`${server.baseUrl}/api/v1/internal/emails`, {
    headers: internalHeaders(server, "admin"),
  });
  // A sign-in code goes to any address (it signs the address up); a reset link only to an account's.
  const { items } = (await emails.json()) as { items: { to: string; template_type: string }[] };
  const resets = items.filter((item) => item.template_type === "password_reset");
  expect(resets.map((item) => item.to)).toEqual(cluster.servers.map(() => KNOWN));
});
