// Runs import jobs in the background (issue 23), on the poller every background worker uses. Each run claims the
// oldest waiting job (or one whose process died: its lease ran out) and writes its records in batches through the
// same `importBatch` the CLI's requests reach, recording after each batch the counters, the position and a renewed
// lease. A job cancelled meanwhile stops after the batch in hand; one taken over by another process stops here.
// Re-writing a batch after a crash is safe: records imported before answer as existing.
import { randomUUID } from "node:crypto";
import type { ImportUserRecord } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import { type Db, inTransaction } from "../db/client.ts";
import type { ProjectsRepo } from "../db/projects-repo.ts";
import type { BulkImport } from "../importers/bulk.ts";
import type { Logger } from "../logger.ts";
import { createPoller } from "../poller.ts";
import { type BatchCounts, createImportJobStore, type JobRow, type RecordRow } from "./store.ts";

export type ImportJobWorkerOptions = {
  db: Db;
  clock: Clock;
  logger: Logger;
  bulkImport: BulkImport;
  projectsRepo: Pick<ProjectsRepo, "find">;
  pollMs?: number;
  batchSize?: number;
  /** How long a claimed job is reserved without news; far longer than one batch takes. */
  leaseMs?: number;
};

export function createImportJobWorker(options: ImportJobWorkerOptions) {
  const { db, clock, logger } = options;
  const store = createImportJobStore(db);
  const batchSize = options.batchSize ?? 500;
  const leaseMs = options.leaseMs ?? 60_000;
  const leaseFromNow = () => new Date(clock.now().getTime() + leaseMs);

  /** Writes one batch; answers the counters it adds and the records the server skipped. */
  async function writeBatch(job: JobRow, rows: RecordRow[]) {
    const counts: BatchCounts = { processed: rows.length, created: 0, existing: 0, skipped: 0 };
    const skips: { seq: number; reason: string }[] = [];
    const toWrite = rows.filter((row) => row.skipReason === null && row.record !== null);
    counts.skipped = rows.length - toWrite.length;
    if (job.dryRun || toWrite.length === 0) {
      counts.created = toWrite.length;
      return { counts, skips };
    }
    const project = await options.projectsRepo.find(job.projectId);
    if (!project) throw new Error("the project is gone");
    const answer = await options.bulkImport.importBatch(
      project,
      job.provider,
      toWrite.map((row) => row.record as ImportUserRecord),
    );
    answer.items.forEach((item, i) => {
      const row = toWrite[i];
      if (item.result === "created") counts.created++;
      else if (item.result === "existing") counts.existing++;
      else {
        counts.skipped++;
        if (row) skips.push({ seq: row.seq, reason: item.reason ?? "not imported" });
      }
    });
    return { counts, skips };
  }

  /** Runs a claimed job until it ends, is cancelled, or another process holds it. */
  async function run(claimed: JobRow, token: string): Promise<void> {
    let job = claimed;
    try {
      for (;;) {
        const rows = await store.nextRecords(job, batchSize);
        if (rows.length === 0) {
          await inTransaction(db, (tx) =>
            store.finish(tx, job.id, token, { status: "succeeded" }, clock.now()),
          );
          return;
        }
        const { counts, skips } = await writeBatch(job, rows);
        const now = await inTransaction(db, (tx) =>
          store.recordBatch(tx, job.id, token, counts, skips, leaseFromNow()),
        );
        if (now?.status !== "running") return;
        job = now;
      }
    } catch (error) {
      logger.error("import job failed", { job_id: job.id }, error);
      await inTransaction(db, (tx) =>
        store.finish(tx, job.id, token, { status: "failed", error: (error as Error).message }, clock.now()),
      );
    }
  }

  /** Claims and runs jobs until none is waiting. */
  async function drain(): Promise<void> {
    for (;;) {
      const token = randomUUID();
      const job = await store.claim(clock.now(), leaseFromNow(), token);
      if (!job) return;
      await run(job, token);
    }
  }

  const poller = createPoller({ name: "import jobs", pollMs: options.pollMs ?? 2000, logger, drain });
  return { ...poller, drain };
}

export type ImportJobWorker = ReturnType<typeof createImportJobWorker>;
