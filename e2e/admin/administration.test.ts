// Project administration as an operator does it against the real server process, holding only the internal
// project's admin key: an internal user who owns projects, a project created through that user, its domains and
// SMTP server, key rotation, a permission definition, an edited e-mail template seen in the next e-mail (at a real
// SMTP peer), and a webhook endpoint receiving signed user.created events (verified with standardwebhooks).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import { type SmtpPeer, startSmtpPeer } from "@gatehouse/server/testing/smtp-peer";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, type Json, operatorProject, startIsolatedServer } from "../support.ts";

type Delivery = { headers: Record<string, string>; body: string };

let gatehouse: Awaited<ReturnType<typeof startIsolatedServer>>;
let server: RunningServer;
let smtp: SmtpPeer;
let receiver: Server;
const deliveries: Delivery[] = [];

beforeAll(async () => {
  smtp = await startSmtpPeer();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      deliveries.push({
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  // The receiver runs on this machine; by default webhooks only go to public addresses.
  gatehouse = await startIsolatedServer("admin", { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
  server = gatehouse.server;
});

afterAll(async () => {
  await gatehouse?.stop();
  receiver?.close();
  await smtp?.close();
});

const call = apiCaller(() => server);

async function waitFor<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("administering a project with only the admin key", () => {
  it("creates, configures and runs a project through an internal-project user", async () => {
    // An operator account in the internal project, member of the team that owns it, creates a project owned by
    // that team (e2e/support.ts).
    const { projectId, admin } = await operatorProject(server, { display_name: "Shop" });

    // Domains and the project's own SMTP server.
    const configured = await call("PATCH", "/projects/current", admin, {
      config: {
        domains: [{ domain: "https://shop.example.com", handler_path: "/auth" }],
        email_config: {
          type: "standard",
          host: "127.0.0.1",
          port: smtp.port,
          username: "shop",
          password: "smtp password",
          sender_name: "Shop",
          sender_email: "noreply@shop.example.com",
        },
      },
    });
    expect((configured.config as Json).domains).toEqual([
      { domain: "https://shop.example.com", handler_path: "/auth" },
    ]);

    // Keys: create a set, use it, revoke it; the next request with it fails.
    const keySet = await call("POST", "/internal/api-keys", admin, {
      description: "web app",
      expires_at_millis: Date.now() + 24 * 3600 * 1000,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: false,
    });
    // The only time the full keys are shown.
    const pck = String(keySet.publishable_client_key);
    const ssk = String(keySet.secret_server_key);
    expect(pck).toMatch(/^pck_[0-9a-z]{45}$/);
    const client = {
      "x-stack-access-type": "client",
      "x-stack-project-id": projectId,
      "x-stack-publishable-client-key": pck,
    };
    const serverHeaders = {
      "x-stack-access-type": "server",
      "x-stack-project-id": projectId,
      "x-stack-secret-server-key": ssk,
    };
    await call("GET", "/projects/current", client);

    // A permission definition.
    await call(
      "POST",
      "/team-permission-definitions",
      admin,
      { id: "billing:read", description: "Read invoices", contained_permission_ids: ["$read_members"] },
      201,
    );
    const definitions = await call("GET", "/team-permission-definitions", admin);
    expect((definitions.items as Json[]).map((d) => d.id)).toContain("billing:read");

    // An edited template, seen in the next e-mail at the project's SMTP server.
    await call("PATCH", "/email-templates/password_reset", admin, {
      subject: "Shop password reset for {{ userDisplayName }}",
      content: '<p>Reset it <a href="{{ passwordResetLink }}">here</a>, {{ userDisplayName }}.</p>',
    });

    // A webhook endpoint, managed with a management token.
    const { token } = await call("POST", "/webhooks/svix-token", admin, {}, 201);
    const bearer = { authorization: `Bearer ${token}` };
    const endpoint = await call(
      "POST",
      "/internal/webhooks/endpoints",
      bearer,
      { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` },
      201,
    );
    const { secret } = await call("GET", `/internal/webhooks/endpoints/${endpoint.id}/secret`, bearer);

    // A back end creates a user: the endpoint receives user.created, signed.
    const user = await call(
      "POST",
      "/users",
      serverHeaders,
      {
        primary_email: "buyer@example.com",
        primary_email_auth_enabled: true,
        password: "buyer password 1",
        display_name: "<Bea>",
      },
      201,
    );
    const delivery = await waitFor("user.created", () =>
      deliveries.find((d) => JSON.parse(d.body).type === "user.created"),
    );
    const verified = new Webhook(String(secret)).verify(delivery.body, delivery.headers) as {
      type: string;
      data: Json;
    };
    expect(verified.type).toBe("user.created");
    expect(verified.data.id).toBe(user.id);

    await call(
      "POST",
      "/auth/password/send-reset-code",
      client,
      { email: "buyer@example.com", callback_url: "https://shop.example.com/auth/password-reset" },
      200,
    );
    const mail = await waitFor("the reset e-mail", () => smtp.to("buyer@example.com")[0]);
    expect(mail.mail.subject).toBe("Shop password reset for <Bea>");
    expect(mail.mail.html).toContain("&lt;Bea&gt;");
    expect(mail.mail.from?.text).toContain("noreply@shop.example.com");

    await call("PATCH", `/internal/api-keys/${keySet.id}`, admin, { revoked: true });
    const refused = await fetch(`${server.baseUrl}/api/v1/projects/current`, { headers: client });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-stack-known-error")).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
  });
});
