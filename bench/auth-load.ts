// What the workers and processes benchmarks share: the run's settings (`--quick` for a short run that only shows
// the commands work), users signed up through a server, and the two measured requests, GET /users/me and refresh.
import { cpus } from "node:os";
import { measure, type Row, refreshBody } from "./load.ts";

const quick = process.argv.includes("--quick");
export const settings = {
  adminUrl: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  seconds: Number(process.env.BENCH_SECONDS ?? (quick ? 2 : 10)),
  connections: Number(process.env.BENCH_CONNECTIONS ?? (quick ? 8 : 32)),
  quick,
};

export type Users = { pck: string; tokens: { access_token: string; refresh_token: string }[] };

const clientHeaders = (pck: string) => ({
  "x-stack-access-type": "client",
  "x-stack-project-id": "internal",
  "x-stack-publishable-client-key": pck,
  "content-type": "application/json",
});

/** One user per connection, signed up through `baseUrl`: its access token for /users/me, its session to refresh. */
export async function signUpUsers(baseUrl: string, pck: string, tag: string): Promise<Users> {
  const tokens: Users["tokens"] = [];
  for (let i = 0; i < settings.connections; i++) {
    const res = await fetch(`${baseUrl}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: clientHeaders(pck),
      body: JSON.stringify({ email: `${tag}-${i}@example.com`, password: "correct horse battery" }),
    });
    if (!res.ok) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
    tokens.push((await res.json()) as Users["tokens"][number]);
  }
  return { pck, tokens };
}

/** GET /users/me and refresh against `baseUrl`, each for the run's duration and connections. */
export async function measureMeAndRefresh(
  baseUrl: string,
  users: Users,
  label: string,
): Promise<{ me: Row; refresh: Row }> {
  const { connections, seconds } = settings;
  const me = await measure({
    name: `GET /api/v1/users/me, ${label}`,
    url: `${baseUrl}/api/v1/users/me`,
    headers: { ...clientHeaders(users.pck), "x-stack-access-token": users.tokens[0]?.access_token ?? "" },
    connections,
    seconds,
  });
  const refresh = await measure({
    name: `POST /api/v1/auth/oauth/token (refresh), ${label}`,
    url: `${baseUrl}/api/v1/auth/oauth/token`,
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    bodies: users.tokens.map((t) => refreshBody(t.refresh_token, users.pck)),
    connections,
    seconds,
  });
  return { me, refresh };
}

/** The machine and the run's settings, then the rows as a markdown table. */
export function printRows(rows: Row[]): void {
  console.log(`\n${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version},`);
  console.log(
    `PostgreSQL on localhost, ${settings.connections} connections, ${settings.seconds} s per scenario${settings.quick ? " (--quick: not figures to keep)" : ""}\n`,
  );
  console.log("| scenario | req/s | p50 ms | p99 ms |\n|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} |`);
}

/** The ratios table: `of` over `to` for /users/me and refresh, against a goal when there is one. */
export function printRatios(
  title: string,
  of: { me: Row; refresh: Row },
  to: { me: Row; refresh: Row },
  goal?: number,
): void {
  console.log(`\n| ${title} | measured | goal | |\n|---|---|---|---|`);
  for (const [name, ratio] of [
    ["GET /users/me", of.me.rps / to.me.rps],
    ["refresh", of.refresh.rps / to.refresh.rps],
  ] as const) {
    const verdict = goal === undefined ? "" : ratio >= goal ? "met" : "missed";
    console.log(`| ${name} | ${ratio.toFixed(2)}× | ${goal === undefined ? "—" : `${goal}×`} | ${verdict} |`);
  }
}
