// Many users of one project straight into the database, one set-based statement per batch: the benchmark's
// 1,000,000 users, and tests that prove a screen reads one page of a large project. Not an import path: no
// webhooks, no personal teams, no password hashes.
import { sql } from "drizzle-orm";
import { type Db, inTransaction } from "../db/client.ts";

const FIRST = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Margaret", "Dennis"];
const LAST = ["Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson", "Hamilton"];

/** One statement carries this many users: big enough to amortise the round trip, small enough for PGlite's memory. */
const BATCH = 100_000;

/**
 * Users number 1 to `count`, named "Ada Lovelace 1" and so on, each with a verified primary e-mail
 * (ada.lovelace.1@example.com) and signed up 15 s after the one before, from 2025-01-01; last activity is spread
 * over 2026; one user in 50 is anonymous (hidden by default, as in a real project). `onBatch` hears how many are in.
 */
export async function insertUsers(
  db: Db,
  projectId: string,
  count: number,
  onBatch: (inserted: number) => void = () => {},
): Promise<void> {
  for (let from = 1; from <= count; from += BATCH) {
    const to = Math.min(from + BATCH - 1, count);
    await inTransaction(db, async (tx) => {
      // A bulk load: the triggers that keep search_text current fire per row, so they are off for this
      // transaction (it needs a superuser, as the benchmark and the test databases have) and the statement writes
      // the same text itself: the lower-cased name and address, one per line.
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        with new_users as (
          insert into users (id, project_id, display_name, search_text, signed_up_at, last_active_at, is_anonymous)
          select gen_random_uuid(), ${projectId}, name,
                 lower(name) || E'\n' || lower(replace(name, ' ', '.') || '@example.com'),
                 timestamptz '2025-01-01' + i * interval '15 seconds',
                 timestamptz '2026-01-01' + ((i::bigint * 7919) % ${count}::bigint) * interval '1 second',
                 i % 50 = 0
          from generate_series(${from}::int, ${to}::int) as i,
               lateral (select (${sql.raw(textArray(FIRST))})[1 + i % ${FIRST.length}] || ' ' ||
                               (${sql.raw(textArray(LAST))})[1 + (i / 10) % ${LAST.length}] || ' ' || i as name) n
          returning id, display_name
        )
        insert into contact_channels (id, project_id, user_id, type, value, normalized, is_verified, is_primary,
                                      used_for_auth)
        select gen_random_uuid(), ${projectId}, id, 'email', replace(display_name, ' ', '.') || '@example.com',
               lower(replace(display_name, ' ', '.') || '@example.com'), true, true, true
        from new_users`);
    });
    onBatch(to);
  }
  await db.execute(sql`analyze users`);
  await db.execute(sql`analyze contact_channels`);
}

/** User number `i` of `count` as insertUsers writes them, for tests that predict an order or a search. */
export function bulkUser(i: number, count: number) {
  const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / 10) % LAST.length]} ${i}`;
  return {
    name,
    email: `${name.replaceAll(" ", ".")}@example.com`,
    signedUpAt: new Date(Date.UTC(2025, 0, 1) + i * 15_000),
    lastActiveAt: new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % count) * 1000),
    anonymous: i % 50 === 0,
  };
}

/** A constant text[] literal of plain words (the names above: no quotes to escape). */
const textArray = (words: string[]) => `array[${words.map((w) => `'${w}'`).join(", ")}]::text[]`;
