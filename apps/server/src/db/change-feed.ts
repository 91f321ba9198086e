// Changes one server process announces to all (PostgreSQL LISTEN/NOTIFY), so that what a process caches in memory
// is dropped everywhere within the notification's delay when another process changes it. Announced inside the
// changing transaction, a notification reaches listeners only if and when it commits.
import type { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import pg from "pg";

export const CHANGES_CHANNEL = "gatehouse_changes";

/** A change's payload; undefined when changes may have been missed (the listening connection was lost). */
export type ChangeHandler = (payload: string | undefined) => void;

export type ChangeFeed = {
  subscribe(handler: ChangeHandler): void;
  /** Whether changes are being heard now: a cache must not be trusted while this is false. */
  live(): boolean;
  close(): Promise<void>;
};

/** Announces a change to every process (this one included) when `tx` commits. */
export async function announceChange(
  // Structural (any drizzle database or transaction): client.ts imports this module.
  tx: { execute(query: SQL): PromiseLike<unknown> },
  payload: string,
): Promise<void> {
  await tx.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${payload})`);
}

/** Embedded PGlite: one process, its own notifications heard in process. */
export function pgliteChangeFeed(client: PGlite): ChangeFeed {
  const handlers = new Set<ChangeHandler>();
  let listening = false;
  let live = false;
  return {
    subscribe(handler) {
      handlers.add(handler);
      if (listening) return;
      listening = true;
      void client
        .listen(CHANGES_CHANNEL, (payload) => {
          for (const h of handlers) h(payload);
        })
        .then(() => {
          live = true;
        });
    },
    live: () => live,
    close: async () => {
      live = false;
    },
  };
}

const RETRY_MS = { first: 100, max: 5000 };

/**
 * PostgreSQL: a connection of its own outside the pool, which LISTENs (a pooled connection may be handed to anyone).
 * When it drops, handlers hear `undefined` on reconnection, since notifications sent meanwhile are lost, and
 * `live()` is false until then, so caches are bypassed rather than trusted for as long as the outage lasts.
 */
export function postgresChangeFeed(url: string): ChangeFeed {
  const handlers = new Set<ChangeHandler>();
  let client: pg.Client | undefined;
  let live = false;
  let started = false;
  let closed = false;
  let retryMs = RETRY_MS.first;

  const retry = () => {
    if (closed) return;
    setTimeout(connect, retryMs).unref();
    retryMs = Math.min(retryMs * 2, RETRY_MS.max);
  };

  async function connect(): Promise<void> {
    const connection = new pg.Client({ connectionString: url });
    connection.on("error", () => {}); // "end" follows, and reconnects
    try {
      await connection.connect();
      await connection.query(`listen ${CHANGES_CHANNEL}`);
    } catch {
      connection.end().catch(() => {});
      return retry();
    }
    if (closed) return void (await connection.end());
    connection.on("notification", (message) => {
      if (message.channel === CHANGES_CHANNEL) for (const h of handlers) h(message.payload);
    });
    connection.once("end", () => {
      live = false;
      client = undefined;
      retry();
    });
    client = connection;
    live = true;
    retryMs = RETRY_MS.first;
    for (const h of handlers) h(undefined);
  }

  return {
    subscribe(handler) {
      handlers.add(handler);
      if (!started) {
        started = true;
        void connect();
      }
    },
    live: () => live,
    async close() {
      closed = true;
      live = false;
      await client?.end();
    },
  };
}
