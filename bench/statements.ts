// Statements per operation: the real server on a fresh PostgreSQL database with GATEHOUSE_BENCH_STATEMENT_LOG set,
// one call of each benchmarked operation, and the statements the pool sent for it, counted and listed (the list
// goes in bench/README.md before and after a change to a hot path). `--quiet` prints the counts only.
import { readFileSync, rmSync } from "node:fs";
import { freePort, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { refreshBody } from "./load.ts";

const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const quiet = process.argv.includes("--quiet");
const PASSWORD = "correct horse battery";

async function main() {
  const database = `gatehouse_statements_${Date.now()}`;
  const logFile = `/tmp/${database}.sql`;
  await adminQuery(adminUrl, `create database ${database}`);
  const server = await startServer({
    PORT: String(await freePort()),
    DATABASE_URL: withDatabase(adminUrl, database),
    GATEHOUSE_DATA_DIR: `/tmp/${database}`,
    GATEHOUSE_RATE_LIMITS: "off",
    GATEHOUSE_BENCH_STATEMENT_LOG: logFile,
  });
  try {
    const api = `${server.baseUrl}/api/v1`;
    const client = {
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": server.keys.pck,
      "content-type": "application/json",
    };
    const lines = () => readFileSync(logFile, "utf8").split("\n").filter(Boolean);
    /** The statements sent while `call` ran. */
    const during = async (name: string, call: () => Promise<Response>) => {
      const before = lines().length;
      const res = await call();
      if (!res.ok) throw new Error(`${name}: ${res.status} ${await res.text()}`);
      const sent = lines().slice(before);
      return { name, sent, body: (await res.json()) as Record<string, string> };
    };
    const post = (path: string, body: unknown) => () =>
      fetch(`${api}${path}`, { method: "POST", headers: client, body: JSON.stringify(body) });
    // A first sign-up warms caches (the project, its keys) that a steady state has warm too.
    await post("/auth/password/sign-up", { email: "warm@example.com", password: PASSWORD })();
    const results = [];
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
    await fetch(`${api}/users/me`, { headers: { ...client, "x-stack-access-token": token } });
    results.push(
      await during("GET /users/me", () =>
        fetch(`${api}/users/me`, { headers: { ...client, "x-stack-access-token": token } }),
      ),
    );
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
    console.log("| operation | statements |\n|---|---|");
    for (const r of results) console.log(`| ${r.name} | ${r.sent.length} |`);
    if (!quiet) {
      for (const r of results) console.log(`\n${r.name}:\n\n\`\`\`sql\n${r.sent.join("\n")}\n\`\`\``);
    }
  } finally {
    await server.stop();
    await adminQuery(adminUrl, `drop database if exists ${database} with (force)`);
    rmSync(logFile, { force: true });
  }
}

await main();
