// What the load benchmarks share: one autocannon scenario measured into a row (refusing any non-2xx or error), and
// each connection given a body of its own (a refresh token per connection, as real clients have).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

export type Scenario = {
  name: string;
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** One body per connection (each connection sends its own), instead of `body` for all. */
  bodies?: string[];
  /** A new body for every request (a sign-up's fresh address), instead of `body` or `bodies`. */
  nextBody?: () => string;
  connections: number;
  seconds: number;
  /** The server's process id: the row then has its CPU time per request and its RSS at the end, from /proc. */
  pid?: number;
};
export type Row = { name: string; rps: number; p50: number; p99: number; cpuMs?: number; rssMiB?: number };

const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());

/** CPU milliseconds (user + system) a process has used so far, and its resident set in MiB. */
export function processUsage(pid: number): { cpuMs: number; rssMiB: number } {
  // Fields after the command name, which sits in parentheses and may hold spaces: utime and stime are fields 14
  // and 15 of stat (11 and 12 after it); statm's second field is the resident set in pages.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  const residentPages = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
  return { cpuMs: (ticks * 1000) / TICKS_PER_SECOND, rssMiB: (residentPages * 4096) / 2 ** 20 };
}

export async function measure(s: Scenario): Promise<Row> {
  const before = s.pid === undefined ? undefined : processUsage(s.pid);
  const result = await autocannon({
    url: s.url,
    method: s.method ?? "GET",
    headers: s.headers,
    body: s.body,
    connections: s.connections,
    duration: s.seconds,
    ...(s.bodies ? { setupClient: perConnectionBody(s.bodies) } : {}),
    ...(s.nextBody ? { requests: [{ setupRequest: (req) => ({ ...req, body: s.nextBody?.() }) }] } : {}),
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${s.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const row = {
    name: s.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
  if (s.pid === undefined || !before) return row;
  const after = processUsage(s.pid);
  const answered = result.requests.total;
  return { ...row, cpuMs: answered > 0 ? (after.cpuMs - before.cpuMs) / answered : 0, rssMiB: after.rssMiB };
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
