// `npm run bench:profile` (`-- --quick` for 3 s, `--sign-in` for password sign-ins, `--sign-up` for sign-ups of new
// addresses, `--refresh` for refreshes at the token endpoint): a CPU profile of the server
// under GET /users/me load — the server
// started with `node --cpu-prof` on a fresh PostgreSQL database, driven by autocannon, stopped so the profile is
// written — and its functions with the most self time, as percentages of the samples. The .cpuprofile stays in
// /tmp for Chrome's DevTools or speedscope.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PASSWORD, startGatehouse } from "./gatehouse.ts";
import { measure, refreshBody } from "./load.ts";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type Profile = { nodes: Node[]; samples: number[]; startTime: number; timeDeltas: number[] };

/** Microseconds of the monotonic clock, which V8's sample times read too (CLOCK_MONOTONIC on Linux). */
const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

const quick = process.argv.includes("--quick");
// `--sign-in`: the password sign-in under load instead (one user, 8 connections, as in `npm run bench`).
const signIn = process.argv.includes("--sign-in");
const signUp = process.argv.includes("--sign-up");
const refresh = process.argv.includes("--refresh");
let signUps = 0;
const dir = mkdtempSync(join(tmpdir(), "gatehouse-profile-"));
// Node refuses --cpu-prof in NODE_OPTIONS, the one way into the server's command line: a hook starts the profiler.
const gatehouse = await startGatehouse({
  NODE_OPTIONS: `--import ${join(import.meta.dirname, "cpu-profile-hook.mjs")}`,
  GATEHOUSE_CPU_PROFILE_DIR: dir,
});
let window = [0, 0];
try {
  const { access_token } = await gatehouse.signUp("profile@example.com");
  // As `npm run bench` refreshes: each connection its own user's session.
  const refreshTokens: string[] = [];
  for (let i = 0; refresh && i < 10; i++) {
    refreshTokens.push((await gatehouse.signUp(`profile-refresh-${i}@example.com`)).refresh_token);
  }
  const started = nowMicros();
  const common = {
    connections: Number(process.env.BENCH_CONNECTIONS ?? (signIn || signUp ? 8 : 10)),
    seconds: Number(process.env.BENCH_SECONDS ?? (quick ? 3 : 15)),
  };
  const row = await measure(
    refresh
      ? {
          name: "POST /auth/oauth/token (refresh)",
          url: `${gatehouse.api}/auth/oauth/token`,
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          bodies: refreshTokens.map((token) => refreshBody(token, gatehouse.server.keys.pck)),
          ...common,
        }
      : signUp
        ? {
            name: "POST /auth/password/sign-up",
            url: `${gatehouse.api}/auth/password/sign-up`,
            method: "POST",
            headers: gatehouse.client,
            nextBody: () => JSON.stringify({ email: `profile-${++signUps}@example.com`, password: PASSWORD }),
            ...common,
          }
        : signIn
          ? {
              name: "POST /auth/password/sign-in",
              url: `${gatehouse.api}/auth/password/sign-in`,
              method: "POST",
              headers: gatehouse.client,
              body: JSON.stringify({ email: "profile@example.com", password: PASSWORD }),
              ...common,
            }
          : {
              name: "GET /users/me",
              url: `${gatehouse.api}/users/me`,
              headers: { ...gatehouse.client, "x-stack-access-token": access_token },
              ...common,
            },
  );
  window = [started, nowMicros()];
  process.stdout.write(`${Math.round(row.rps)} req/s while profiled\n`);
} finally {
  await gatehouse.stop();
}
const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error(`no profile written in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
// Only the samples taken under load: the start-up (module loading, migrations) is not what the profile is for.
let at = profile.startTime;
const samples = profile.samples.filter((_, i) => {
  at += profile.timeDeltas[i] ?? 0;
  return at >= (window[0] ?? 0) && at <= (window[1] ?? 0);
});
for (const id of samples) {
  const frame = byId.get(id)?.callFrame;
  if (!frame) continue;
  const where = frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/(apps|packages)\//, "$1/");
  const key = `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + 1);
}
const total = samples.length;
// The same samples by where the code lives: a package, Node's internals, or our own folders.
const byPlace = new Map<string, number>();
for (const id of samples) {
  const frame = byId.get(id)?.callFrame;
  if (!frame) continue;
  const { url, functionName } = frame;
  const inPackage = url.split("node_modules/").pop() ?? "";
  const place = url.includes("node_modules/")
    ? inPackage
        .split("/")
        .slice(0, inPackage.startsWith("@") ? 2 : 1)
        .join("/")
    : url.startsWith("node:")
      ? "node"
      : /\/(apps|packages)\//.test(url)
        ? url
            .replace(/^.*\/(apps|packages)\//, "")
            .split("/")
            .slice(0, 3)
            .join("/")
        : functionName || "(native)";
  byPlace.set(place, (byPlace.get(place) ?? 0) + 1);
}
console.log(`\n${join(dir, file)}: ${total} samples under load, the top 30 by self time\n`);
console.log("| self % | function |\n|---|---|");
for (const [key, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
  console.log(`| ${((count / total) * 100).toFixed(1)} | \`${key}\` |`);
}
console.log("\n| self % | where |\n|---|---|");
for (const [place, count] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
  console.log(`| ${((count / total) * 100).toFixed(1)} | ${place} |`);
}
