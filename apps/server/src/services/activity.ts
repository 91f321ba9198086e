// Last-use times, written behind: a refresh records its session's use in memory and a flush (every second, and at
// shutdown) writes all pending uses in one statement. Refreshes then cost no write of their own; a crash loses at
// most a second of timestamps, which are informational. Readers in other processes see them up to a second late.

import type { SessionsRepo } from "../db/sessions-repo.ts";
import type { Logger } from "../logger.ts";

export function createActivityRecorder(deps: { repo: SessionsRepo; logger: Logger; intervalMs?: number }) {
  let pending = new Map<string, Date>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<boolean> = Promise.resolve(false);

  async function write(batch: Map<string, Date>) {
    try {
      await deps.repo.touchMany([...batch].map(([sessionId, at]) => ({ sessionId, at })));
    } catch (error) {
      // Keep the uses for the next flush rather than lose them to a passing database error.
      for (const [id, at] of batch) if (!pending.has(id)) pending.set(id, at);
      deps.logger.warn("could not record session activity; will retry", {}, error);
    }
  }

  return {
    record(sessionId: string, at: Date): void {
      const known = pending.get(sessionId);
      if (!known || known < at) pending.set(sessionId, at);
    },

    /**
     * Writes what is pending; resolves, once it is stored, to whether there was anything to write (readers call it
     * to see their own process's uses, and read again only when it wrote).
     */
    flush(): Promise<boolean> {
      flushing = flushing.then(async () => {
        if (pending.size === 0) return false;
        const batch = pending;
        pending = new Map();
        await write(batch);
        return true;
      });
      return flushing;
    },

    start(): void {
      timer ??= setInterval(() => void this.flush(), deps.intervalMs ?? 1000);
      timer.unref();
    },

    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await this.flush();
    },
  };
}

export type ActivityRecorder = ReturnType<typeof createActivityRecorder>;
