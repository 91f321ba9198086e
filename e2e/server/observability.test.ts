// Metrics and traces of a real server process: /metrics refused without its bearer token and served on its own port,
// parsed by a Prometheus text-format parser after real traffic; a trace exported over OTLP/HTTP to a receiver in
// this test holds the HTTP server span and, on PostgreSQL, the database spans beneath it; liveness and readiness.
import { createServer, type Server } from "node:http";
import { gunzipSync } from "node:zlib";
import { freePort, type RunningServer } from "@gatehouse/server/testing/server-process";
import { type SmtpPeer, startSmtpPeer } from "@gatehouse/server/testing/smtp-peer";
import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startIsolatedServer } from "../support.ts";

type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number };
type OtlpExport = { resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[] };

const TOKEN = "metrics-token-0123456789";
let server: RunningServer;
let stop: () => Promise<void>;
let metricsPort: number;
let receiver: Server;
let smtp: SmtpPeer;
const spans: OtlpSpan[] = [];

/** An OTLP/HTTP receiver: the JSON encoding of ExportTraceServiceRequest, gzipped or not. */
async function startReceiver(): Promise<number> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body = Buffer.concat(chunks);
      if (req.headers["content-encoding"] === "gzip") body = gunzipSync(body);
      if (req.url === "/v1/traces") {
        const payload = JSON.parse(body.toString()) as OtlpExport;
        for (const rs of payload.resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => receiver.listen(port, "127.0.0.1", r));
  return port;
}

beforeAll(async () => {
  const receiverPort = await startReceiver();
  metricsPort = await freePort();
  smtp = await startSmtpPeer();
  ({ server, stop } = await startIsolatedServer(
    "observability",
    {
      GATEHOUSE_METRICS_TOKEN: TOKEN,
      GATEHOUSE_METRICS_PORT: String(metricsPort),
      GATEHOUSE_RATE_LIMIT_SIGN_IN_EMAIL_IP: "2",
      GATEHOUSE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}?from=noreply@gatehouse.test`,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
      // Exported within 100 ms instead of 5 s, so the test need not wait.
      OTEL_BSP_SCHEDULE_DELAY: "100",
    },
    undefined,
    // A busy machine may take minutes to open PGlite; CI takes seconds.
    240_000,
  ));
}, 270_000);

afterAll(async () => {
  await stop?.();
  receiver?.close();
  await smtp?.close();
});

const client = () => ({
  "content-type": "application/json",
  "x-stack-access-type": "client",
  "x-stack-project-id": "internal",
  "x-stack-publishable-client-key": server.keys.pck,
});
const post = (path: string, body: unknown) =>
  fetch(`${server.baseUrl}/api/v1${path}`, { method: "POST", headers: client(), body: JSON.stringify(body) });

/** The exposition parsed, and its text (the parser merges the series of a labelled histogram into one). */
const scrape = async (url: string, token?: string) => {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(res.status).toBe(200);
  const text = await res.text();
  return { families: parsePrometheusTextFormat(text), text };
};
const family = (families: MetricFamily[], name: string) => {
  const found = families.find((f) => f.name === name);
  expect(found, name).toBeDefined();
  return found as MetricFamily;
};
const sample = (f: MetricFamily, labels: Record<string, string>) =>
  f.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

describe("metrics", () => {
  it("refuses /metrics without the bearer token, or with a wrong one", async () => {
    expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(401);
  });

  it("counts requests per route template, sign-ins and sign-ups per outcome, and rate-limit refusals", async () => {
    const email = `metrics-${Date.now()}@example.com`;
    // With a verification e-mail, which the worker sends over SMTP (its span is checked under "traces").
    const signUp = await post("/auth/password/sign-up", {
      email,
      password: "a good password 1",
      verification_callback_url: "http://localhost:3000/handler/email-verification",
    });
    expect(signUp.status).toBe(200);
    expect((await post("/auth/password/sign-in", { email, password: "a good password 1" })).status).toBe(200);
    // Two failures fill the bucket (limit 2); the third attempt is refused with 429.
    for (const status of [400, 400, 429]) {
      expect((await post("/auth/password/sign-in", { email, password: "wrong password 12" })).status).toBe(
        status,
      );
    }
    const me = await fetch(`${server.baseUrl}/api/v1/users/00000000-0000-4000-8000-000000000000`, {
      headers: { ...client(), "x-stack-access-type": "server", "x-stack-secret-server-key": server.keys.ssk },
    });
    expect(me.status).toBe(404);

    for (const { families, text } of [
      await scrape(`${server.baseUrl}/metrics`, TOKEN),
      await scrape(`http://127.0.0.1:${metricsPort}/metrics`, TOKEN),
    ]) {
      const requests = family(families, "gatehouse_http_requests_total");
      // The template, never the raw path (the user id): bounded label values.
      const byId = sample(requests, { method: "GET", route: "/api/v1/users/:user_id", status: "404" });
      expect(Number(byId?.value)).toBe(1);
      const latency = family(families, "gatehouse_http_request_duration_seconds");
      expect(latency.type).toBe("HISTOGRAM");
      expect(text).toContain(
        'gatehouse_http_request_duration_seconds_count{method="POST",route="/api/v1/auth/password/sign-in"} 4\n',
      );

      const signIns = family(families, "gatehouse_sign_ins_total");
      expect(Number(sample(signIns, { method: "password", outcome: "success" })?.value)).toBe(1);
      expect(Number(sample(signIns, { method: "password", outcome: "EMAIL_PASSWORD_MISMATCH" })?.value)).toBe(
        2,
      );
      expect(Number(sample(signIns, { method: "password", outcome: "rate_limited" })?.value)).toBe(1);
      const signUps = family(families, "gatehouse_sign_ups_total");
      expect(Number(sample(signUps, { method: "password", outcome: "success" })?.value)).toBe(1);
      const refusals = family(families, "gatehouse_rate_limit_refusals_total");
      expect(Number(sample(refusals, { route: "/api/v1/auth/password/sign-in" })?.value)).toBe(1);

      const depth = family(families, "gatehouse_queue_depth");
      expect(depth.metrics.map((m) => m.labels?.queue).sort()).toEqual([
        "email_outbox",
        "webhook_deliveries",
        "webhook_events",
      ]);
      family(families, "gatehouse_queue_oldest_age_seconds");
      family(families, "nodejs_eventloop_lag_seconds");
      family(families, "process_cpu_seconds_total");
      if (inject("testDbTemplate").kind === "postgres") {
        const pool = family(families, "gatehouse_db_pool_connections");
        expect(Number(sample(pool, { state: "max" })?.value)).toBe(10);
      }
    }
  });
});

describe("health", () => {
  it("is live, and ready once the database answers and is migrated; /health is unchanged", async () => {
    const live = await fetch(`${server.baseUrl}/health/live`);
    expect([live.status, await live.json()]).toEqual([200, { status: "ok" }]);
    const ready = await fetch(`${server.baseUrl}/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ok" }]);
    const health = await fetch(`${server.baseUrl}/health`);
    expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
  });
});

describe("traces", () => {
  it("exports a client span for each SMTP send", async () => {
    // The worker polls every 5 s: wait for the verification e-mail of the sign-up above.
    let send: OtlpSpan | undefined;
    for (let i = 0; i < 150 && !send; i++) {
      await new Promise((r) => setTimeout(r, 100));
      send = spans.find((s) => s.name === "smtp send" && s.kind === 3);
    }
    expect(smtp.received.length).toBeGreaterThan(0);
    expect(send).toBeDefined();
  });

  it("exports the HTTP server span of a request, continuing the caller's trace, with its database spans", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    // A sign-in for an unknown address: it reads the users table whatever is cached.
    const res = await fetch(`${server.baseUrl}/api/v1/auth/password/sign-in`, {
      method: "POST",
      headers: { ...client(), traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      body: JSON.stringify({ email: "nobody-traced@example.com", password: "wrong password 12" }),
    });
    expect(res.status).toBe(400);
    let serverSpan: OtlpSpan | undefined;
    for (let i = 0; i < 100 && !serverSpan; i++) {
      await new Promise((r) => setTimeout(r, 100));
      serverSpan = spans.find((s) => s.traceId === traceId && s.kind === 2);
    }
    expect(serverSpan?.name).toBe("POST /api/v1/auth/password/sign-in");
    expect(serverSpan?.parentSpanId).toBe("00f067aa0ba902b7");
    if (inject("testDbTemplate").kind === "postgres") {
      // The user lookup: a query span (kind CLIENT) whose parent is the request's span.
      const dbSpans = spans.filter((s) => s.traceId === traceId && s.parentSpanId === serverSpan?.spanId);
      expect(dbSpans.some((s) => s.kind === 3 && s.name === "SELECT")).toBe(true);
    }
  });
});
