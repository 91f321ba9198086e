// Start-up waits for the database: a server started before PostgreSQL (compose, a reboot, a failover) retries with a
// visible log line instead of exiting at once, and gives up after a bounded time so a wrong URL still ends the start.
import type { Logger } from "../logger.ts";
import type { Database } from "./client.ts";

export async function waitForDatabase(
  database: Pick<Database, "ping">,
  options: { waitMs: number; logger: Pick<Logger, "warn">; sleep?: (ms: number) => Promise<void> },
): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = Date.now() + options.waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await database.ping();
      return;
    } catch (error) {
      const left = deadline - Date.now();
      if (left <= 0) throw error;
      // Backs off to 5 s between attempts: quick when the database is seconds away, quiet when it is minutes away.
      const delay = Math.min(left, 5_000, 250 * 2 ** Math.min(attempt - 1, 5));
      options.logger.warn(
        "database not reachable yet, retrying",
        { attempt, retry_in_ms: delay, gives_up_in_ms: left },
        error,
      );
      await sleep(delay);
    }
  }
}
