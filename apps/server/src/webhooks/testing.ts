// Test helpers for webhooks: a receiver (a real HTTP server on 127.0.0.1) that records what it is sent and answers
// as the test says, and a test server with a worker factory on its database.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { vi } from "vitest";
import { createSecretBox } from "../crypto/secret-box.ts";
import { createTestServer, TEST_SECRET } from "../testing/test-server.ts";
import { createWebhookWorker, type WebhookWorkerOptions } from "./worker.ts";

export type ReceivedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
};

export type Answer = { status: number; body?: string };

/** An HTTP server on a random local port that records every request and answers with `answer` (200 by default). */
export async function startReceiver(
  answer: (req: ReceivedRequest) => Answer | "hang" = () => ({ status: 200 }),
) {
  const requests: ReceivedRequest[] = [];
  let respond = answer;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const received = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, json };
      requests.push(received);
      const reply = respond(received);
      if (reply === "hang") return;
      res.writeHead(reply.status, { "content-type": "text/plain" });
      res.end(reply.body ?? "ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    origin: `http://127.0.0.1:${port}`,
    requests,
    /** Changes how later requests are answered. */
    answer(next: (req: ReceivedRequest) => Answer | "hang") {
      respond = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * Verifies a received request with the standardwebhooks package, as a receiver would at `now` (the server's clock:
 * the package refuses timestamps more than 5 minutes from its own clock). Throws when no signature matches.
 */
export function verifyWebhook(secret: string, request: ReceivedRequest, now: Date): unknown {
  vi.useFakeTimers({ toFake: ["Date"], now });
  try {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
}

/**
 * A test server and `newWorker` for delivery workers on its database and clock (each a stand-in for one process).
 * Private URLs are allowed, since receivers listen on 127.0.0.1, unless the test says otherwise.
 */
export async function createWebhookTestServer(options: { allowPrivateUrls?: boolean } = {}) {
  const allowPrivateUrls = options.allowPrivateUrls ?? true;
  const server = await createTestServer({ webhookAllowPrivateUrls: allowPrivateUrls });
  // The box deps.ts seals endpoint secrets with, so a worker made here opens them.
  const box = createSecretBox(TEST_SECRET, "webhooks");
  const newWorker = (overrides: Partial<WebhookWorkerOptions> = {}) =>
    createWebhookWorker({
      db: server.deps.db,
      clock: server.clock,
      logger: server.deps.logger,
      box,
      allowPrivateUrls,
      ...overrides,
    });
  return { ...server, webhooks: server.deps.webhooks, newWorker };
}

export type WebhookTestServer = Awaited<ReturnType<typeof createWebhookTestServer>>;
