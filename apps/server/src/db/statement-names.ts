// Server-side prepared statements for the queries a process repeats (issue 24). Drizzle sends most statements
// unnamed, so PostgreSQL parses and plans each one again on every call: measured on the password sign-in, that was
// 0.9 ms of the backend's time for the user lookup alone and about 5 ms of PostgreSQL CPU per sign-in, more than
// the server's own work around the hash. A named statement is parsed once per connection (pg keeps track of which
// connection has which), and after five executions PostgreSQL may keep a generic plan instead of planning again.
//
// Names are given by statement text, as postgres.js does by default, but only to inserts (`insert …`, or a `with`
// whose first part inserts): an insert of values plans alike for any values, while a select's best plan can hang on
// them, and a generic plan kept after five runs halved the user list's `like` search (179 -> 105 req/s on 200,000
// users). A select on a hot path is prepared by its own code (drizzle `.prepare`, db/prepared.ts), where one plan is
// known to suit every value. Bounded, because every named statement holds memory in each backend: a text is named on
// its second sighting, statements without parameters stay on the simple protocol, texts over `MAX_PARAMETERS`
// parameters or 16 KB (an import batch, an `in (…)` list of hundreds: the import's 500-id lookup fell from 1,425 to
// 868 users/s on a generic plan) are never named, and once `MAX_NAMED` texts have names the rest run unnamed.
import type pg from "pg";

/** Distinct texts this process names at most; the server's hot paths use well under a hundred. */
export const MAX_NAMED = 400;
/** Texts seen once and waiting for a second sighting; forgotten together when full. */
const MAX_CANDIDATES = 4000;
/** What is named: an insert of values, or a `with` whose first query inserts (audit/log.ts, email/outbox.ts). */
const INSERT = /^\s*(insert\s|with\s+\w+\s+as\s+\(\s*insert\s)/i;
/** A text this long is a bulk statement (an import batch), not a repeated one. */
const MAX_TEXT_LENGTH = 16_000;
/** The hot paths' statements have at most about 25 (a sign-up's four webhook events in one insert: 20). */
export const MAX_PARAMETERS = 64;

export type StatementNames = {
  /** The name for this text, or undefined while it stays unnamed. */
  nameOf(text: string): string | undefined;
  readonly size: number;
};

export function createStatementNames(maxNamed = MAX_NAMED): StatementNames {
  const names = new Map<string, string>();
  const seenOnce = new Set<string>();
  return {
    nameOf(text) {
      const known = names.get(text);
      if (known !== undefined || names.size >= maxNamed || text.length > MAX_TEXT_LENGTH) return known;
      if (!INSERT.test(text)) return undefined;
      if (!seenOnce.has(text)) {
        if (seenOnce.size >= MAX_CANDIDATES) seenOnce.clear();
        seenOnce.add(text);
        return undefined;
      }
      seenOnce.delete(text);
      const name = `gh_${names.size}`;
      names.set(text, name);
      return name;
    },
    get size() {
      return names.size;
    },
  };
}

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown };

/**
 * Makes the pooled connection's queries with parameters named statements when `names` names their text. pg's
 * `client.query(config | text, values?, callback?)`: drizzle passes a config object and the values apart, pg-pool a
 * callback as well.
 */
export function nameRepeatedStatements(client: pg.PoolClient, names: StatementNames): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const named = (first: unknown, ...rest: unknown[]) => {
    const config: QueryConfig | undefined =
      typeof first === "string" ? { text: first } : (first as QueryConfig | undefined);
    const values = Array.isArray(rest[0]) ? rest[0] : config?.values;
    if (config && typeof config.text === "string" && config.name === undefined && Array.isArray(values)) {
      const name =
        values.length > 0 && values.length <= MAX_PARAMETERS ? names.nameOf(config.text) : undefined;
      if (name !== undefined) return query({ ...config, name }, ...rest);
    }
    return query(first, ...rest);
  };
  client.query = named as typeof client.query;
}
