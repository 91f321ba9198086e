// User-listing benchmark (`npm run bench:users`): 1,000,000 users seeded into a fresh PostgreSQL database with
// set-based batched inserts (server testing/bulk-users.ts), then autocannon on GET /users — the first page, a deep
// cursor page, and `query` searches — and the query plans PostgreSQL chose for them, for bench/README.md.
import { openPostgres } from "@gatehouse/server/db/client";
import { type UserListOptions, userListQuery } from "@gatehouse/server/db/users-repo";
import { insertUsers } from "@gatehouse/server/testing/bulk-users";
import { freePort, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import autocannon from "autocannon";
import pg from "pg";

const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const userCount = Number(process.env.BENCH_USERS ?? 1_000_000);
const PROJECT = "internal";

/** The users of `insertUsers` (one in 50 anonymous), with a progress line, then fresh planner statistics. */
async function seed(databaseUrl: string): Promise<void> {
  const started = Date.now();
  const database = openPostgres(databaseUrl);
  try {
    await insertUsers(database.db, PROJECT, userCount, (inserted) => {
      const rate = Math.round(inserted / ((Date.now() - started) / 1000));
      process.stdout.write(
        `\rseeding users: ${inserted.toLocaleString("en")} / ${userCount.toLocaleString("en")} (${rate}/s)`,
      );
    });
  } finally {
    await database.close();
  }
  process.stdout.write("\n");
}

/** p50 and p99 with one connection (the latency one user sees), and the throughput with eight. */
async function measure(name: string, url: string, headers: Record<string, string>) {
  const single = await run(name, url, headers, 1);
  const loaded = await run(name, url, headers, 8);
  return { name, p50: single.latency.p50, p99: single.latency.p99, rps: loaded.requests.average };
}

async function run(name: string, url: string, headers: Record<string, string>, connections: number) {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return result;
}

async function main() {
  const database = `gatehouse_bench_users_${Date.now()}`;
  await adminQuery(adminUrl, `create database ${database}`);
  const databaseUrl = withDatabase(adminUrl, database);
  const server = await startServer({
    PORT: String(await freePort()),
    DATABASE_URL: databaseUrl,
    GATEHOUSE_DATA_DIR: `/tmp/${database}`,
    GATEHOUSE_RATE_LIMITS: "off",
  });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await seed(databaseUrl);
    const api = `${server.baseUrl}/api/v1`;
    const headers = {
      "x-stack-access-type": "server",
      "x-stack-project-id": PROJECT,
      "x-stack-secret-server-key": server.keys.ssk,
    };
    const page = async (query: string) => {
      const res = await fetch(`${api}/users?${query}`, { headers });
      if (!res.ok) throw new Error(`GET /users?${query}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { items: { id: string }[]; pagination: { next_cursor: string | null } };
    };
    // A cursor 90 % of the way through: the user at that position of the default order.
    const { rows } = await client.query<{ id: string }>(
      `select id from users where project_id = $1 and not is_anonymous and not restricted_by_admin
       order by signed_up_at, id offset $2 limit 1`,
      [PROJECT, Math.floor(userCount * 0.9)],
    );
    const deepCursor = rows[0]?.id;
    if (!deepCursor) throw new Error("no user for the deep cursor");
    const base: UserListOptions = {
      limit: 100,
      orderBy: "signed_up_at",
      desc: false,
      visibility: "unrestricted",
    };
    const plans: [string, UserListOptions][] = [
      ["first page", base],
      ["deep cursor page", { ...base, cursor: deepCursor }],
      ["query 'grace'", { ...base, query: "grace" }],
      ["query '.654321@'", { ...base, query: ".654321@" }],
      ["query '@example.com'", { ...base, query: "@example.com" }],
    ];
    const scenarios = [
      ["first page (100 users)", "limit=100"],
      ["deep cursor page (90 %)", `limit=100&cursor=${deepCursor}`],
      ["first page by last_active_at desc", "limit=100&order_by=last_active_at&desc=true"],
      ["query: common name ('grace')", "limit=100&query=grace"],
      ["query: rare e-mail ('.654321@')", "limit=100&query=.654321%40"],
      ["query: every e-mail ('@example.com')", "limit=100&query=%40example.com"],
      ["query: no match ('zzqx')", "limit=100&query=zzqx"],
    ] as const;
    for (const [, query] of scenarios) await page(query);
    const results = [];
    for (const [name, query] of scenarios) {
      results.push(await measure(`GET /users ${name}`, `${api}/users?${query}`, headers));
    }
    console.log(`\n${userCount.toLocaleString("en")} users, ${seconds} s per measurement\n`);
    console.log(
      "| scenario | p50 ms (1 conn.) | p99 ms (1 conn.) | req/s (8 conn.) | p50 < 20 ms |\n|---|---|---|---|---|",
    );
    for (const r of results) {
      console.log(
        `| ${r.name} | ${r.p50} | ${r.p99} | ${Math.round(r.rps)} | ${r.p50 < 20 ? "met" : "missed"} |`,
      );
    }
    for (const [name, options] of plans) await explain(client, databaseUrl, name, options);
  } finally {
    await client.end();
    await server.stop();
    await adminQuery(adminUrl, `drop database if exists ${database} with (force)`);
  }
}

/** The plan PostgreSQL runs for the server's own statement (built by the same code), with actual times. */
async function explain(client: pg.Client, databaseUrl: string, name: string, options: UserListOptions) {
  const database = openPostgres(databaseUrl);
  try {
    const query = userListQuery(database.db, PROJECT, options).toSQL();
    const { rows } = await client.query<{ "QUERY PLAN": string }>(
      `explain (analyze, costs off) ${query.sql}`,
      query.params,
    );
    console.log(`\n${name}:\n\n\`\`\`\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}\n\`\`\``);
  } finally {
    await database.close();
  }
}

await main();
