// Audit log benchmark (`npm run bench:audit`): BENCH_AUDIT_ROWS (10,000,000) entries in one project, written on a
// fresh PostgreSQL database with generate_series, then the list's filtered first pages and a deep cursor page timed
// through the server's own query (audit/log.ts), with the plan PostgreSQL chose, for bench/README.md.
import { createAuditLog } from "@gatehouse/server/audit/log";
import { createAuditScope } from "@gatehouse/server/audit/scope";
import { openPostgres } from "@gatehouse/server/db/client";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import pg from "pg";

const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const rows = Number(process.env.BENCH_AUDIT_ROWS ?? 10_000_000);
const runs = Number(process.env.BENCH_AUDIT_RUNS ?? 50);
const PROJECT = "bench-audit";
const BATCH = 1_000_000;
const TYPES = [
  "sign_in.succeeded",
  "sign_in.failed",
  "sign_up",
  "sign_out",
  "password.changed",
  "api_key.created",
];
const USERS = 100_000;
const SPAN_DAYS = 365;

/**
 * Entries spread evenly over a year, types cycling, actors and targets among 100,000 users; every tenth names one of
 * 1,000 teams in its details (`team_id`), as a team member's permission change does.
 */
async function fill(client: pg.Client) {
  const started = Date.now();
  // Indexes are dropped for the fill and built again after it, as a bulk load would: one sorted build each instead
  // of ten million random insertions into four trees.
  const indexes = await client.query<{ name: string; definition: string }>(
    "select indexname as name, indexdef as definition from pg_indexes where tablename = 'audit_log' and indexname <> 'audit_log_pkey'",
  );
  for (const index of indexes.rows) await client.query(`drop index ${index.name}`);
  for (let from = 1; from <= rows; from += BATCH) {
    const to = Math.min(from + BATCH - 1, rows);
    await client.query(
      `insert into audit_log (id, project_id, type, actor_type, actor_id, target_type, target_id, ip, user_agent,
         request_id, details, created_at)
       select gen_random_uuid(), $1, ($2::text[])[1 + i % $3], 'user', 'user-' || (i * 7919 % $4), 'user',
         'user-' || (i * 104729 % $4), '203.0.113.' || (i % 250), 'bench', i::text,
         case when i % 10 = 0 then jsonb_build_object('team_id', 'team-' || (i / 10 % 1000))
           else '{"method":"password"}'::jsonb end, now() - make_interval(secs => (i::float8 / $5) * $6 * 86400)
       from generate_series($7::bigint, $8::bigint) as i`,
      [PROJECT, TYPES, TYPES.length, USERS, rows, SPAN_DAYS, from, to],
    );
    const rate = Math.round(to / ((Date.now() - started) / 1000));
    process.stdout.write(
      `\rfilling audit_log: ${to.toLocaleString("en")} / ${rows.toLocaleString("en")} (${rate}/s)`,
    );
  }
  process.stdout.write("\n");
  for (const index of indexes.rows) {
    const t = Date.now();
    await client.query(index.definition);
    console.log(`built ${index.name} in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  }
  await client.query("analyze audit_log");
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function main() {
  const name = `gatehouse_bench_audit_${Date.now()}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = withDatabase(adminUrl, name);
  const database = openPostgres(url);
  const client = new pg.Client({ connectionString: url });
  try {
    await database.migrate();
    await client.connect();
    await client.query(`insert into projects (id, display_name, config) values ($1, 'Audit bench', '{}')`, [
      PROJECT,
    ]);
    await fill(client);
    const clock = { now: () => new Date() };
    const audit = createAuditLog({
      db: database.db,
      clock,
      scope: createAuditScope(),
      logger: { info() {}, warn() {}, error() {}, debug() {} } as never,
    });
    const first = await audit.list(PROJECT, {}, 50);
    let deep = first.next;
    // A cursor 200 pages (10,000 entries) in: keyset paging costs the same however deep it is.
    for (let i = 0; i < 199 && deep; i++) deep = (await audit.list(PROJECT, {}, 50, decode(deep))).next;
    const month = Date.now() - 200 * 86_400_000;
    const cases: [string, Parameters<typeof audit.list>[1], string | null][] = [
      ["newest page, no filter", {}, null],
      ["page 201 (cursor), no filter", {}, deep],
      ["by type", { type: "password.changed" }, null],
      ["by actor", { actorId: "user-4242" }, null],
      ["by target", { targetId: "user-4242" }, null],
      ["by team", { teamId: "team-42" }, null],
      [
        "by type and a 30-day range",
        { type: "sign_in.failed", from: new Date(month), to: new Date(month + 30 * 86_400_000) },
        null,
      ],
    ];
    console.log(`\n${rows.toLocaleString("en")} entries; ${runs} runs per case, page size 50\n`);
    console.log("| filtered page | p50 ms | p99 ms | rows |");
    console.log("|---|---|---|---|");
    for (const [label, filter, cursor] of cases) {
      const times: number[] = [];
      let count = 0;
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        const page = await audit.list(PROJECT, filter, 50, cursor ? decode(cursor) : undefined);
        times.push(performance.now() - t);
        count = page.items.length;
      }
      times.sort((a, b) => a - b);
      console.log(
        `| ${label} | ${percentile(times, 0.5)?.toFixed(2)} | ${percentile(times, 0.99)?.toFixed(2)} | ${count} |`,
      );
    }
    const plan = await client.query(
      `explain (analyze, buffers) select * from audit_log where project_id = $1 and actor_id = $2
       order by created_at desc, id desc limit 51`,
      [PROJECT, "user-4242"],
    );
    console.log(`\nplan (by actor):\n${plan.rows.map((r) => r["QUERY PLAN"]).join("\n")}`);
  } finally {
    await client.end().catch(() => {});
    await database.close();
    await adminQuery(adminUrl, `drop database ${name}`);
  }
}

function decode(cursor: string) {
  const [millis, id] = cursor.split("_");
  return { createdAt: new Date(Number(millis)), id: id ?? "" };
}

await main();
