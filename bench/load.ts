// What the load benchmarks share: one autocannon scenario measured into a row (refusing any non-2xx or error), and
// each connection given a body of its own (a refresh token per connection, as real clients have).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
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
export type Row = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** CPU ms per request of the whole server process (event loop, thread pool, GC threads). */
  cpuMs?: number;
  /** CPU ms per request of the event loop's thread alone: what one process can spend before it is the limit. */
  mainMs?: number;
  /** CPU ms per request of every PostgreSQL process, which shares the cores with the server here. */
  pgMs?: number;
  /** The server's peak resident set during this scenario (VmHWM, reset when it starts). */
  rssMiB?: number;
};

const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());

/** CPU milliseconds (user + system, its ended children's included) of a `stat` file (a process's or one thread's), and
 * its command name. */
function statCpu(path: string): { command: string; cpuMs: number } {
  // Fields after the command name, which sits in parentheses and may hold spaces: utime and stime are fields 14
  // and 15 of stat (11 and 12 after it).
  const stat = readFileSync(path, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // cutime and cstime (fields 16 and 17) hold the CPU of children that ended: PostgreSQL's postmaster gathers its
  // closed backends' there, so a backend that exits mid-scenario still counts.
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return {
    command: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
    cpuMs: (ticks * 1000) / TICKS_PER_SECOND,
  };
}

/** CPU milliseconds a process has used so far (all threads, and its event loop's thread alone), and its RSS in MiB. */
export function processUsage(pid: number): { cpuMs: number; mainMs: number; rssMiB: number } {
  // statm's second field is the resident set in pages; the main thread's id is the process id.
  const residentPages = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
  return {
    cpuMs: statCpu(`/proc/${pid}/stat`).cpuMs,
    mainMs: statCpu(`/proc/${pid}/task/${pid}/stat`).cpuMs,
    rssMiB: (residentPages * 4096) / 2 ** 20,
  };
}

/** The peak resident set since the last `resetPeakRss`, in MiB (VmHWM). */
export function peakRssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmHWM:\s+(\d+) kB$/m);
  return Number(line?.[1] ?? 0) / 1024;
}

/** Starts the peak over from the present resident set (`echo 5 > clear_refs`, proc(5)). */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/** CPU milliseconds used so far by every process named `postgres` (the server's backends, its WAL writer, …). */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { command, cpuMs } = statCpu(`/proc/${entry}/stat`);
      if (command === "postgres") total += cpuMs;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

export async function measure(s: Scenario): Promise<Row> {
  if (s.pid !== undefined) resetPeakRss(s.pid);
  const before = s.pid === undefined ? undefined : processUsage(s.pid);
  const pgBefore = postgresCpuMs();
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
  const pgAfter = postgresCpuMs();
  const perRequest = (used: number) => (result.requests.total > 0 ? used / result.requests.total : 0);
  return {
    ...row,
    cpuMs: perRequest(after.cpuMs - before.cpuMs),
    mainMs: perRequest(after.mainMs - before.mainMs),
    pgMs: perRequest(pgAfter - pgBefore),
    rssMiB: peakRssMiB(s.pid),
  };
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
