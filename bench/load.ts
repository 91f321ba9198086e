// What the load benchmarks share: one autocannon scenario measured into a row (refusing any non-2xx or error), and
// each connection given a body of its own (a refresh token per connection, as real clients have).
import autocannon from "autocannon";

export type Scenario = {
  name: string;
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** One body per connection (each connection sends its own), instead of `body` for all. */
  bodies?: string[];
  connections: number;
  seconds: number;
};
export type Row = { name: string; rps: number; p50: number; p99: number };

export async function measure(s: Scenario): Promise<Row> {
  const result = await autocannon({
    url: s.url,
    method: s.method ?? "GET",
    headers: s.headers,
    body: s.body,
    connections: s.connections,
    duration: s.seconds,
    ...(s.bodies ? { setupClient: perConnectionBody(s.bodies) } : {}),
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${s.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return { name: s.name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Gives each autocannon connection the next body of the list. */
function perConnectionBody(bodies: string[]) {
  let next = 0;
  return (client: { setBody(body: string): void }) => client.setBody(bodies[next++ % bodies.length] ?? "");
}

/** The form body of a refresh at the token endpoint (client_secret: the publishable key, as Stack's SDK sends). */
export const refreshBody = (refreshToken: string, pck: string) =>
  new URLSearchParams({
    grant_type: "refresh_token",
    client_id: "internal",
    client_secret: pck,
    refresh_token: refreshToken,
  }).toString();
