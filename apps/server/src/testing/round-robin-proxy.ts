// A small round-robin HTTP proxy (node:http) in front of several server processes, as a load balancer: the cluster
// suites (e2e/cluster) run through it and the benchmarks (bench/processes.ts) measure through it.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type RoundRobinProxy = {
  url: string;
  /** How many requests each backend answered, by index. */
  served: number[];
  close: () => Promise<void>;
};

/**
 * Round robin over `backends()` (read at every request, so a restarted process joins). A backend that refuses the
 * connection (killed, restarting) is skipped for the next one, as a load balancer's health check would: the body is
 * buffered first so the request can be sent again. The client's X-Forwarded-For is passed on when it has one (the
 * suites speak from many client IPs); otherwise the proxy sets the connection's address, as a real proxy does.
 */
export async function startProxy(backends: () => string[], port = 0): Promise<RoundRobinProxy> {
  const served: number[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const urls = backends();
      const headers = {
        ...req.headers,
        "x-forwarded-for": req.headers["x-forwarded-for"] ?? req.socket.remoteAddress,
      };
      const attempt = (tries: number) => {
        const index = next++ % urls.length;
        const target = new URL(req.url ?? "/", urls[index]);
        const upstream = request(target, { method: req.method, headers }, (answer) => {
          served[index] = (served[index] ?? 0) + 1;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED" && tries < urls.length) return attempt(tries + 1);
          if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
          res.end(`proxy: ${error.code ?? error.message}`);
        });
        upstream.end(body);
      };
      attempt(1);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
