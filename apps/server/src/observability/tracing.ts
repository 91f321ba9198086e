// OpenTelemetry traces, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set (dynamic imports: without it no SDK
// module is even read). Spans are made by hand at our own seams (HTTP server, pg queries, SMTP, webhook sends), since
// the auto-instrumentations patch modules through require hooks that ES modules and the bundled artifact bypass.
import type { Span, Tracer } from "@opentelemetry/api";
import type { QueryObserver } from "../db/client.ts";

export type SpanAttributes = Record<string, string | number | boolean>;

export type Tracing = {
  /** Runs an incoming request inside a server span continuing the caller's `traceparent`; `finish` names and ends it. */
  request<T>(
    headers: Headers,
    method: string,
    run: () => Promise<T>,
    finish: () => { route: string; status: number; attributes?: SpanAttributes },
  ): Promise<T>;
  /** A client span around outgoing work (an SMTP send, a webhook POST), a child of whatever span is current. */
  span<T>(name: string, attributes: SpanAttributes, run: () => Promise<T>): Promise<T>;
  /** For db/client.ts: a span per PostgreSQL query. */
  observeQuery: QueryObserver;
  /** Sends what is still buffered; called on shutdown. */
  shutdown(): Promise<void>;
};

/** The statement's verb (`SELECT`, `INSERT`…) names a database span; the text itself has no parameter values. */
const verb = (text: string) => /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "QUERY";

export async function startTracing(settings: { serviceName: string }): Promise<Tracing> {
  const [api, { NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import("@opentelemetry/api"),
      import("@opentelemetry/sdk-trace-node"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
    ]);
  // The exporter reads the standard OTEL_EXPORTER_OTLP_* variables (endpoint, /v1/traces, headers) itself.
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // Registers the AsyncLocalStorage context manager (so a query's span finds its request's) and W3C propagation.
  provider.register();
  const tracer: Tracer = api.trace.getTracer("gatehouse");
  const { SpanKind, SpanStatusCode, context, propagation, trace } = api;

  const fail = (span: Span, error: unknown) => {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
  };

  return {
    async request(headers, method, run, finish) {
      const parent = propagation.extract(context.active(), headers, {
        keys: (carrier) => [...carrier.keys()],
        get: (carrier, key) => carrier.get(key) ?? undefined,
      });
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
      try {
        return await context.with(trace.setSpan(parent, span), run);
      } catch (error) {
        fail(span, error);
        throw error;
      } finally {
        const { route, status, attributes } = finish();
        span.updateName(`${method} ${route}`);
        span.setAttributes({
          "http.request.method": method,
          "http.route": route,
          "http.response.status_code": status,
          ...attributes,
        });
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    },
    async span(name, attributes, run) {
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
      try {
        return await context.with(trace.setSpan(context.active(), span), run);
      } catch (error) {
        fail(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
    observeQuery(text) {
      const span = tracer.startSpan(verb(text), {
        kind: SpanKind.CLIENT,
        attributes: { "db.system.name": "postgresql", "db.query.text": text },
      });
      return (error) => {
        if (error) fail(span, error);
        span.end();
      };
    },
    shutdown: () => provider.shutdown(),
  };
}
