// Serving /metrics: the bearer-token check for the API port, and the separate port (GATEHOUSE_METRICS_PORT) that
// serves only /metrics, for a scraper on a private network. Never open by default: with neither, /metrics is a 404.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { Exposition } from "./cluster-metrics.ts";

/** Compared as digests, so neither the length nor the content of the token leaks through timing. */
export function bearerMatches(header: string | null | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  if (!given) return false;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** The exposition as a Response (the API port's /metrics route). */
export async function metricsResponse(metrics: Exposition): Promise<Response> {
  return new Response(await metrics.render(), {
    status: 200,
    headers: { "content-type": metrics.contentType, "cache-control": "no-store" },
  });
}

/**
 * /metrics on a port of its own. The token, when also set, is asked for here too: the port may be reachable from
 * more than the scraper. Answers the listening server (close it on shutdown).
 */
export function serveMetricsPort(
  metrics: Exposition,
  options: { port: number; token: string | undefined; onError: (error: Error) => void },
): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found.");
      return;
    }
    if (options.token && !bearerMatches(req.headers.authorization, options.token)) {
      res.writeHead(401, { "www-authenticate": "Bearer", "content-type": "text/plain; charset=utf-8" });
      res.end("A bearer token is required.");
      return;
    }
    metrics.render().then(
      (body) => res.writeHead(200, { "content-type": metrics.contentType }).end(body),
      (error: Error) => {
        options.onError(error);
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Metrics unavailable.");
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, () => resolve(server));
  });
}
