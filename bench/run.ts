// `npm run bench` (`-- --quick` for a one-minute check, `--rounds N`, `--out file`, `--only a,b`, `--source`): Gatehouse (its
// production artifact, or with --source the repository through tsx) against its floor and
// its peer on one PostgreSQL, each a process of its own on a fresh database — the floor (bare Hono verifying the same
// JWT and reading one row), Gatehouse, and Better Auth with its defaults (better-auth-server.ts). Rounds interleave
// the three, and the raw argon2id and scrypt hash rates with the sign-in rounds, so a noisy machine slows all alike;
// ratios are taken within a round and reported as median [min–max]. Then statements per operation (statements.ts),
// and the whole as markdown, printed and written to bench/last-run.md for bench/README.md.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { ARGON2_PARAMS } from "@gatehouse/server/crypto/password";
import { freePort } from "@gatehouse/server/testing/server-process";
import { hash } from "@node-rs/argon2";
import { hashPassword } from "better-auth/crypto";
import { type Child, startChild } from "./child.ts";
import { buildArtifact, freshDatabase, PASSWORD, startGatehouse } from "./gatehouse.ts";
import { measure as measureLoad, processUsage, type Row, refreshBody, type Scenario } from "./load.ts";
import { statementsMarkdown, statementsPerOperation } from "./statements.ts";

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const quick = process.argv.includes("--quick");
const rounds = Number(argument("--rounds") ?? process.env.BENCH_ROUNDS ?? (quick ? 2 : 7));
const seconds = Number(process.env.BENCH_SECONDS ?? (quick ? 2 : 5));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Sign-in and sign-up are bound by the hash: more connections than hashing threads (4) only queue. */
const HASH_CONNECTIONS = 8;
const out = argument("--out") ?? join(import.meta.dirname, "last-run.md");
/** `--only floor,me,refresh,projects`: those scenarios alone (the hot paths' check); all of them by default. */
const only = argument("--only")?.split(",");

const measure = (s: Omit<Scenario, "connections" | "seconds"> & { connections?: number }) =>
  measureLoad({ connections, ...s, seconds });

/** Hashes per second of `hashOnce`, four at a time (the thread pool's size), for the run's duration. */
async function hashRate(name: string, hashOnce: () => Promise<unknown>): Promise<Row> {
  const deadline = Date.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      await hashOnce();
      done++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: 4 }, worker));
  return { name, rps: done / ((Date.now() - started) / 1000), p50: 0, p99: 0 };
}
/** Gatehouse's argon2id parameters (crypto/password.ts), and Better Auth's own scrypt (node:crypto, its defaults). */
const { memoryCost, timeCost, parallelism } = ARGON2_PARAMS;
const argon2 = () =>
  hashRate(`raw argon2id (m=${memoryCost}, t=${timeCost}, p=${parallelism}), 4 at a time`, () =>
    hash(PASSWORD, ARGON2_PARAMS),
  );
const scrypt = () =>
  hashRate("raw scrypt of Better Auth (hashPassword), 4 at a time", () => hashPassword(PASSWORD));

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const spread = (values: number[], digits: number) =>
  values.length === 0
    ? "no round answered"
    : `${median(values).toFixed(digits)} [${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}]`;

async function main() {
  // Gatehouse as production runs it (compiled, plain node: no TypeScript loader in its memory or start), unless
  // `--source` asks for the repository's TypeScript through tsx.
  const workDir = mkdtempSync(join(tmpdir(), "gatehouse-bench-"));
  const script = process.argv.includes("--source") ? undefined : await buildArtifact(join(workDir, "app"));
  const gatehouse = await startGatehouse({}, script);
  const peerDatabase = await freshDatabase("better_auth_bench");
  const children: Child[] = [];
  try {
    const { api, client, server } = gatehouse;
    // Idle as an operator sees it: started (migrated, seeded, listening) and asked nothing yet. The table also gives
    // each process's RSS after the set-up's sign-ups (hashing, the sign-up path's first use) and its peak under load.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const started = processUsage(server.child.pid ?? 0).rssMiB;
    const tokens = await gatehouse.signUp("bench@example.com");
    // Each connection refreshes its own user's session, as real clients do.
    const refreshTokens: string[] = [];
    for (let i = 0; i < connections; i++)
      refreshTokens.push((await gatehouse.signUp(`refresh-${i}@example.com`)).refresh_token);

    const floorPort = await freePort();
    const floor = await startChild("floor.ts", "floor listening", {
      PORT: String(floorPort),
      DATABASE_URL: gatehouse.databaseUrl,
      JWKS_URL: `${api}/projects/internal/.well-known/jwks.json`,
      ISSUER: `${api}/projects/internal`,
      AUDIENCE: "internal",
    });
    children.push(floor);
    const peerPort = await freePort();
    const peer = await startChild("better-auth-server.ts", "better-auth listening", {
      PORT: String(peerPort),
      DATABASE_URL: peerDatabase.url,
      BETTER_AUTH_TELEMETRY: "0",
    });
    children.push(peer);
    const peerApi = `http://localhost:${peerPort}/api/auth`;
    // Better Auth refuses a POST without an Origin (its CSRF check); a browser on its own origin sends this one.
    const json = { "content-type": "application/json", origin: `http://localhost:${peerPort}` };
    const peerSignUp = await fetch(`${peerApi}/sign-up/email`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "bench@example.com", password: PASSWORD, name: "Bench" }),
    });
    if (!peerSignUp.ok)
      throw new Error(`Better Auth sign-up: ${peerSignUp.status} ${await peerSignUp.text()}`);
    const cookie = peerSignUp.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const session = await fetch(`${peerApi}/get-session`, { headers: { cookie } });
    if (!((await session.json()) as { user?: unknown } | null)?.user)
      throw new Error("Better Auth get-session: none");
    const peerSignIn = await fetch(`${peerApi}/sign-in/email`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
    });
    if (!peerSignIn.ok)
      throw new Error(`Better Auth sign-in: ${peerSignIn.status} ${await peerSignIn.text()}`);
    const idle = {
      Gatehouse: processUsage(server.child.pid ?? 0).rssMiB,
      "Better Auth": processUsage(peer.pid).rssMiB,
      floor: processUsage(floor.pid).rssMiB,
    };

    let fresh = 0;
    const freshEmail = () => `signup-${Date.now()}-${fresh++}@example.com`;
    const scenarios: Record<string, () => Promise<Row>> = {
      floor: () =>
        measure({
          name: "floor: bare Hono, verify JWT + read one row",
          pid: floor.pid,
          url: `http://localhost:${floorPort}/me`,
          headers: { "x-stack-access-token": tokens.access_token },
        }),
      floorWire: () =>
        measure({
          name: "floor: verify JWT + read the wire's user record",
          pid: floor.pid,
          url: `http://localhost:${floorPort}/me-wire`,
          headers: { "x-stack-access-token": tokens.access_token },
        }),
      me: () =>
        measure({
          name: "Gatehouse GET /users/me",
          pid: server.child.pid,
          url: `${api}/users/me`,
          headers: { ...client, "x-stack-access-token": tokens.access_token },
        }),
      peerSession: () =>
        measure({
          name: "Better Auth GET get-session",
          pid: peer.pid,
          url: `${peerApi}/get-session`,
          headers: { cookie },
        }),
      refresh: () =>
        measure({
          name: "Gatehouse refresh (POST /auth/oauth/token)",
          pid: server.child.pid,
          url: `${api}/auth/oauth/token`,
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          bodies: refreshTokens.map((token) => refreshBody(token, server.keys.pck)),
        }),
      projects: () =>
        measure({
          name: "Gatehouse GET /projects/current",
          pid: server.child.pid,
          url: `${api}/projects/current`,
          headers: client,
        }),
      argon2,
      floorSignIn: () =>
        measure({
          name: "floor: sign-in (read hash, argon2id, insert session, sign)",
          pid: floor.pid,
          url: `http://localhost:${floorPort}/sign-in`,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
          connections: HASH_CONNECTIONS,
        }),
      signIn: () =>
        measure({
          name: "Gatehouse sign-in",
          pid: server.child.pid,
          url: `${api}/auth/password/sign-in`,
          method: "POST",
          headers: client,
          body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
          connections: HASH_CONNECTIONS,
        }),
      scrypt,
      peerSignIn: () =>
        measure({
          name: "Better Auth sign-in/email",
          pid: peer.pid,
          url: `${peerApi}/sign-in/email`,
          method: "POST",
          headers: json,
          body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
          connections: HASH_CONNECTIONS,
        }),
      floorSignUp: () =>
        measure({
          name: "floor: sign-up (argon2id, insert user + e-mail + session, sign)",
          pid: floor.pid,
          url: `http://localhost:${floorPort}/sign-up`,
          method: "POST",
          headers: { "content-type": "application/json" },
          nextBody: () => JSON.stringify({ email: freshEmail(), password: PASSWORD }),
          connections: HASH_CONNECTIONS,
        }),
      signUp: () =>
        measure({
          name: "Gatehouse sign-up",
          pid: server.child.pid,
          url: `${api}/auth/password/sign-up`,
          method: "POST",
          headers: client,
          nextBody: () => JSON.stringify({ email: freshEmail(), password: PASSWORD }),
          connections: HASH_CONNECTIONS,
        }),
      peerSignUp: () =>
        measure({
          name: "Better Auth sign-up/email",
          pid: peer.pid,
          url: `${peerApi}/sign-up/email`,
          method: "POST",
          headers: json,
          nextBody: () => JSON.stringify({ email: freshEmail(), password: PASSWORD, name: "Bench" }),
          connections: HASH_CONNECTIONS,
        }),
    };
    type Key = keyof typeof scenarios;
    if (only) for (const key of Object.keys(scenarios)) if (!only.includes(key)) delete scenarios[key];
    const results = new Map<Key, Row[]>();
    for (let round = 1; round <= rounds; round++) {
      process.stderr.write(`round ${round} of ${rounds}\n`);
      for (const [key, run] of Object.entries(scenarios)) {
        const row = await run();
        results.set(key, [...(results.get(key) ?? []), row]);
      }
    }
    const rowsOf = (key: Key) => results.get(key) ?? [];
    /** `of` over `to` in each round. */
    const perRound = (of: Key, to: Key) =>
      rowsOf(of).flatMap((r, i) => {
        // A round where the divisor answered nothing (a loaded machine, a short --quick round) has no ratio.
        const divisor = rowsOf(to)[i]?.rps ?? 0;
        return divisor > 0 ? [r.rps / divisor] : [];
      });

    const lines: string[] = [];
    lines.push(
      `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}, PostgreSQL on localhost, ` +
        `load generator on the same machine; ${rounds} interleaved rounds of ${seconds} s per scenario, ` +
        `${connections} connections (${HASH_CONNECTIONS} for sign-in and sign-up)${quick ? " (--quick: not figures to keep)" : ""}.`,
      "",
      "| scenario | req/s median [min–max] | p50 ms | p99 ms | server CPU ms/req (event loop) | PostgreSQL CPU ms/req | server RSS MiB, peak |",
      "|---|---|---|---|---|---|---|",
    );
    for (const key of Object.keys(scenarios)) {
      const rows = rowsOf(key);
      const cpu = rows.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs]));
      const main = rows.flatMap((r) => (r.mainMs === undefined ? [] : [r.mainMs]));
      const pg = rows.flatMap((r) => (r.pgMs === undefined ? [] : [r.pgMs]));
      const rss = rows.flatMap((r) => (r.rssMiB === undefined ? [] : [r.rssMiB]));
      const hashRow = rows[0]?.p50 === 0 && rows[0]?.p99 === 0;
      lines.push(
        `| ${rows[0]?.name} | ${spread(
          rows.map((r) => r.rps),
          0,
        )} | ${hashRow ? "" : median(rows.map((r) => r.p50))} | ${hashRow ? "" : median(rows.map((r) => r.p99))} | ${
          cpu.length ? median(cpu).toFixed(2) : ""
        }${main.length ? ` (${median(main).toFixed(2)})` : ""} | ${pg.length ? median(pg).toFixed(2) : ""} | ${
          rss.length ? Math.round(Math.max(...rss)) : ""
        } |`,
      );
    }
    const ratios: [string, number[], number | undefined][] = [
      ["Gatehouse GET /users/me ÷ floor", perRound("me", "floor"), 0.75],
      ["Gatehouse refresh ÷ floor", perRound("refresh", "floor"), 0.6],
      ["Gatehouse GET /projects/current ÷ floor", perRound("projects", "floor"), 0.85],
      ["Gatehouse sign-in ÷ raw argon2id", perRound("signIn", "argon2"), 0.85],
      ["Gatehouse sign-up ÷ raw argon2id", perRound("signUp", "argon2"), 0.7],
      // The floors of the operations' own work: how near any server doing that work comes to the goals above.
      ["floor of the wire's user read ÷ floor", perRound("floorWire", "floor"), undefined],
      ["floor sign-in ÷ raw argon2id", perRound("floorSignIn", "argon2"), undefined],
      ["floor sign-up ÷ raw argon2id", perRound("floorSignUp", "argon2"), undefined],
      ["Gatehouse GET /users/me ÷ floor of the wire's user read", perRound("me", "floorWire"), undefined],
      ["Gatehouse sign-in ÷ floor sign-in", perRound("signIn", "floorSignIn"), undefined],
      ["Gatehouse sign-up ÷ floor sign-up", perRound("signUp", "floorSignUp"), undefined],
      ["Better Auth get-session ÷ floor", perRound("peerSession", "floor"), undefined],
      ["Better Auth sign-in ÷ its raw scrypt", perRound("peerSignIn", "scrypt"), undefined],
      ["Better Auth sign-up ÷ its raw scrypt", perRound("peerSignUp", "scrypt"), undefined],
      ["Gatehouse /users/me ÷ Better Auth get-session", perRound("me", "peerSession"), 3],
      ["Gatehouse sign-in ÷ Better Auth sign-in", perRound("signIn", "peerSignIn"), 5],
    ];
    lines.push("", "| ratio (within a round) | median [min–max] | goal | |", "|---|---|---|---|");
    for (const [name, values, goal] of ratios) {
      const verdict =
        goal === undefined || values.length === 0 ? "" : median(values) >= goal ? "met" : "missed";
      lines.push(
        `| ${name} | ${spread(values, 2)} | ${goal === undefined ? "—" : `≥ ${goal}`} | ${verdict} |`,
      );
    }
    lines.push(
      "",
      "| process | RSS MiB when started, idle | after the set-up's sign-ups | goal |",
      "|---|---|---|---|",
      `| Gatehouse on PostgreSQL | ${Math.round(started)} | ${Math.round(idle.Gatehouse)} | ≤ 120 idle (≤ 200 under load) |`,
      `| Better Auth | — | ${Math.round(idle["Better Auth"])} | — |`,
      `| floor | — | ${Math.round(idle.floor)} | — |`,
    );
    lines.push("", "Statements per operation (`npm run bench:statements` lists them):", "");
    const output = lines.join("\n");
    process.stdout.write(`\n${output}\n`);
    for (const child of children.splice(0)) await child.stop();
    await gatehouse.stop();
    // `--only` is a quick look at some scenarios: the statement counts are left to a full run.
    const statements = only ? "" : statementsMarkdown(await statementsPerOperation(), true);
    process.stdout.write(`${statements}\n`);
    writeFileSync(out, `${output}\n${statements}\n`);
    process.stderr.write(`written to ${out}\n`);
  } finally {
    for (const child of children) await child.stop();
    await gatehouse.stop();
    await peerDatabase.drop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
