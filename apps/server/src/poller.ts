// The loop behind the background workers (e-mail outbox, webhook deliveries): run a batch, wait, run again, until
// stopped, or woken early when new work is announced. Runs are chained, so a poll and a test's `runOnce` never claim
// or settle rows concurrently in one process.
import type { Logger } from "./logger.ts";

export function createPoller(options: {
  name: string;
  pollMs: number;
  logger: Logger;
  drain: () => Promise<void>;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  /** A poll's batch is running now (its timer has fired). */
  let polling = false;
  /** Woken while a batch ran: the next batch starts right after it instead of a poll later. */
  let wokenMeanwhile = false;
  let chain: Promise<void> = Promise.resolve();

  /** One batch, after any batch in flight; rejects with the batch's error. */
  function runOnce(): Promise<void> {
    const run = chain.then(options.drain);
    chain = run.catch(() => {});
    return run;
  }

  function schedule(delay: number) {
    timer = setTimeout(async () => {
      polling = true;
      wokenMeanwhile = false;
      try {
        await runOnce();
      } catch (err) {
        options.logger.error(`${options.name} run failed`, {}, err);
      }
      polling = false;
      if (running) schedule(wokenMeanwhile ? 0 : options.pollMs);
    }, delay);
    // The poll alone must not keep the process alive; the HTTP server does that.
    timer.unref();
  }

  return {
    runOnce,
    start(): void {
      if (running) return;
      running = true;
      schedule(0);
    },
    /**
     * Runs a batch now rather than at the next poll (new work was announced), or right after the batch in flight;
     * one loop either way, so wakes never stack up into parallel polls.
     */
    wake(): void {
      if (!running) return;
      if (polling) {
        wokenMeanwhile = true;
        return;
      }
      clearTimeout(timer);
      schedule(0);
    },
    /** Stops polling and waits for the batch in flight. */
    async stop(): Promise<void> {
      running = false;
      clearTimeout(timer);
      await chain;
    },
  };
}
