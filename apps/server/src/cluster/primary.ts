// The primary of GATEHOUSE_WORKERS=N: it forks N server processes that share one port (node:cluster hands each new
// connection to the next worker), opens no database itself, restarts a worker that dies (with backoff, logged), and
// on SIGTERM or SIGINT has every worker drain (finish its requests, close its database) before it exits.
import cluster, { type Worker } from "node:cluster";
import type { Logger } from "../logger.ts";

/** Tells a worker its slot, 1 to N, which a restarted worker keeps: its metrics carry it (worker="2"). */
const SLOT_ENV = "GATEHOUSE_WORKER_SLOT";

/** This worker's slot; undefined outside a cluster's worker. */
export const workerSlot = (): string | undefined => (cluster.isWorker ? process.env[SLOT_ENV] : undefined);

export type PrimaryOptions = {
  count: number;
  logger: Logger;
  /** Called once, when every worker of the first start listens (the banner goes out then). */
  onAllListening: () => void;
  /** How long workers may drain on shutdown before they are killed. */
  drainTimeoutMs?: number;
};

/** The first restart waits 100 ms, each further one twice as long, up to 30 s; a worker up a minute resets it. */
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 30_000;
const STABLE_AFTER_MS = 60_000;

type Slot = { worker: Worker | undefined; crashes: number; startedAt: number; listening: boolean };

export function runPrimary({ count, logger, onAllListening, drainTimeoutMs = 30_000 }: PrimaryOptions): void {
  const slots: Slot[] = Array.from({ length: count }, () => ({
    worker: undefined,
    crashes: 0,
    startedAt: 0,
    listening: false,
  }));
  const restarts = new Set<NodeJS.Timeout>();
  let announced = false;
  let stopping = false;
  let exitCode = 0;

  const live = () => slots.flatMap((s) => (s.worker && !s.worker.isDead() ? [s.worker] : []));

  const fork = (slot: Slot) => {
    const worker = cluster.fork({ [SLOT_ENV]: String(slots.indexOf(slot) + 1) });
    Object.assign(slot, { worker, startedAt: Date.now(), listening: false });
    worker.once("online", () =>
      logger.info("worker started", { worker: worker.id, pid: worker.process.pid }),
    );
    worker.once("listening", () => {
      slot.listening = true;
      if (!announced && slots.every((s) => s.listening)) {
        announced = true;
        logger.info("all workers listening", { workers: count });
        onAllListening();
      }
    });
    worker.once("exit", (code, signal) => exited(slot, worker, code, signal));
  };

  const exited = (slot: Slot, worker: Worker, code: number | null, signal: string | null) => {
    const fields = { worker: worker.id, pid: worker.process.pid, code, signal };
    if (stopping) {
      if (live().length === 0) finish();
      return;
    }
    // A worker that fails before the cluster ever listened would fail the same way again (a bad setting, a port in
    // use): the start fails, as a single process would, instead of restarting forever.
    if (!announced) {
      logger.error("a worker stopped before the server started; stopping", fields);
      stop("start-up failure", 1);
      return;
    }
    if (Date.now() - slot.startedAt > STABLE_AFTER_MS) slot.crashes = 0;
    const delay = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** slot.crashes);
    slot.crashes++;
    logger.warn("worker exited; restarting it", { ...fields, restart_in_ms: delay });
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork(slot);
    }, delay);
    restarts.add(timer);
  };

  const finish = () => {
    logger.info("stopped");
    process.exit(exitCode);
  };

  const stop = (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info("shutting down", { signal: reason, workers: live().length });
    for (const timer of restarts) clearTimeout(timer);
    const workers = live();
    if (workers.length === 0) return finish();
    // Each worker drains on SIGTERM (main.ts): it stops accepting, finishes its requests, closes its database.
    for (const worker of workers) worker.process.kill("SIGTERM");
    setTimeout(() => {
      const left = live();
      logger.warn("workers still draining; killing them", { workers: left.length, after_ms: drainTimeoutMs });
      for (const worker of left) worker.process.kill("SIGKILL");
    }, drainTimeoutMs).unref();
  };

  process.on("SIGINT", () => stop("SIGINT", 0));
  process.on("SIGTERM", () => stop("SIGTERM", 0));
  logger.info("starting workers", { workers: count, pid: process.pid });
  for (const slot of slots) fork(slot);
}
