// Statements per operation: the real server on a fresh PostgreSQL database with GATEHOUSE_BENCH_STATEMENT_LOG set,
// one call of each benchmarked operation, and the statements the pool sent for it, counted and listed (the list
// goes in bench/README.md before and after a change to a hot path). `npm run bench` prints the counts too;
// `bench:statements -- --quiet` prints the counts only.
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PASSWORD, startGatehouse } from "./gatehouse.ts";
import { refreshBody } from "./load.ts";

export type Statements = { name: string; sent: string[] };

/**
 * The statements without the webhook and e-mail workers' polls (`… for update skip locked`, alone or in their own
 * begin–commit), which run every second whatever the requests and land in any operation slower than that.
 */
export function withoutPolls(sent: string[]): string[] {
  const poll = (statement: string | undefined) => statement?.includes("for update skip locked") ?? false;
  const kept: string[] = [];
  for (let i = 0; i < sent.length; i++) {
    if (sent[i] === "begin" && poll(sent[i + 1]) && sent[i + 2] === "commit") i += 2;
    else if (!poll(sent[i])) kept.push(sent[i] ?? "");
  }
  return kept;
}

export async function statementsPerOperation(): Promise<Statements[]> {
  const logFile = `/tmp/gatehouse_statements_${Date.now()}.sql`;
  const gatehouse = await startGatehouse({ GATEHOUSE_BENCH_STATEMENT_LOG: logFile });
  try {
    const { api, client, server } = gatehouse;
    const lines = () => readFileSync(logFile, "utf8").split("\n").filter(Boolean);
    /** Resolves once the log has not grown for half a second. */
    const settled = async () => {
      for (let last = -1, now = lines().length; now !== last; last = now, now = lines().length) {
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    /** The statements sent while `call` ran. */
    const during = async (name: string, call: () => Promise<Response>) => {
      // The work an earlier call set going in the background (its outbox, the workers it woke) lands first, or a
      // count would swing with the machine's load (sign-in 4 or 10, /users/me 1 or 5 in two runs).
      await settled();
      const before = lines().length;
      const res = await call();
      if (!res.ok) throw new Error(`${name}: ${res.status} ${await res.text()}`);
      const sent = withoutPolls(lines().slice(before));
      return { name, sent, body: (await res.json()) as Record<string, string> };
    };
    const post = (path: string, body: unknown) => () =>
      fetch(`${api}${path}`, { method: "POST", headers: client, body: JSON.stringify(body) });
    // A first sign-up warms caches (the project, its keys) that a steady state has warm too. On the internal project
    // it also takes the first operator's seat, a change of the project row that the next request reads again:
    // a second one reads the row as every later request does.
    await gatehouse.signUp("warm@example.com");
    await gatehouse.signUp("warm-again@example.com");
    const results: Statements[] = [];
    const signUp = await during(
      "POST /auth/password/sign-up",
      post("/auth/password/sign-up", { email: "bench@example.com", password: PASSWORD }),
    );
    results.push(signUp);
    const signIn = await during(
      "POST /auth/password/sign-in",
      post("/auth/password/sign-in", { email: "bench@example.com", password: PASSWORD }),
    );
    results.push(signIn);
    const token = signIn.body.access_token ?? "";
    const me = () => fetch(`${api}/users/me`, { headers: { ...client, "x-stack-access-token": token } });
    await me();
    results.push(await during("GET /users/me", me));
    results.push(
      await during("POST /auth/oauth/token (refresh)", () =>
        fetch(`${api}/auth/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: refreshBody(signIn.body.refresh_token ?? "", server.keys.pck),
        }),
      ),
    );
    results.push(
      await during("GET /projects/current", () => fetch(`${api}/projects/current`, { headers: client })),
    );
    return results;
  } finally {
    await gatehouse.stop();
    rmSync(logFile, { force: true });
  }
}

/** The counts as a markdown table, and unless `quiet` each operation's statements. */
export function statementsMarkdown(results: Statements[], quiet: boolean): string {
  const table = [
    "| operation | statements |",
    "|---|---|",
    ...results.map((r) => `| ${r.name} | ${r.sent.length} |`),
  ];
  const lists = quiet ? [] : results.map((r) => `\n${r.name}:\n\n\`\`\`sql\n${r.sent.join("\n")}\n\`\`\``);
  return [...table, ...lists].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(statementsMarkdown(await statementsPerOperation(), process.argv.includes("--quiet")));
}
