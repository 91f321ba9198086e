// Import job rows (issue 23): the job with its counters, and the records of its file in file order. A process runs a
// job while it holds the job's lease (`claimed_by` until `lease_until`), renewed with every batch; claiming skips
// locked rows, so several processes never take the same job, and a job whose process died is claimed again once its
// lease has run out. Methods that run inside a caller's transaction take it as their first argument.
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { importJobRecords, importJobs } from "../db/schema.ts";

export type JobRow = typeof importJobs.$inferSelect;
export type NewJobRow = typeof importJobs.$inferInsert;
export type RecordRow = typeof importJobRecords.$inferSelect;
export type NewRecordRow = typeof importJobRecords.$inferInsert;

/** What one batch adds to a job's counters. */
export type BatchCounts = { processed: number; created: number; existing: number; skipped: number };

const LISTED_JOBS = 50;
const LISTED_SKIPS = 1000;

/** Deletes a job's records that are not skips: written ones, or ones a cancelled job will never write. */
const dropUnwritten = (tx: Db, jobId: string) =>
  tx
    .delete(importJobRecords)
    .where(and(eq(importJobRecords.jobId, jobId), isNull(importJobRecords.skipReason)));

export function createImportJobStore(db: Db) {
  const inProject = (projectId: string, jobId: string) =>
    and(eq(importJobs.projectId, projectId), eq(importJobs.id, jobId));
  const heldBy = (jobId: string, token: string) =>
    and(eq(importJobs.id, jobId), eq(importJobs.claimedBy, token));

  return {
    async insertJob(tx: Db, job: NewJobRow): Promise<JobRow> {
      const [row] = await tx.insert(importJobs).values(job).returning();
      if (!row) throw new Error("import job not inserted");
      return row;
    },

    async insertRecords(tx: Db, records: NewRecordRow[]): Promise<void> {
      if (records.length > 0) await tx.insert(importJobRecords).values(records);
    },

    list(projectId: string): Promise<JobRow[]> {
      return db
        .select()
        .from(importJobs)
        .where(eq(importJobs.projectId, projectId))
        .orderBy(desc(importJobs.createdAt), desc(importJobs.id))
        .limit(LISTED_JOBS);
    },

    async find(projectId: string, jobId: string): Promise<JobRow | undefined> {
      const [row] = await db.select().from(importJobs).where(inProject(projectId, jobId));
      return row;
    },

    /** The records not imported, in file order. */
    skips(jobId: string): Promise<RecordRow[]> {
      return db
        .select()
        .from(importJobRecords)
        .where(and(eq(importJobRecords.jobId, jobId), isNotNull(importJobRecords.skipReason)))
        .orderBy(asc(importJobRecords.seq))
        .limit(LISTED_SKIPS);
    },

    /**
     * Cancels a job not finished yet and deletes its records still to write (they carry password hashes); the
     * process running it stops after the batch in hand. Answers whether it did.
     */
    async cancel(tx: Db, projectId: string, jobId: string, now: Date): Promise<boolean> {
      const rows = await tx
        .update(importJobs)
        .set({ status: "cancelled", finishedAt: now, leaseUntil: null })
        .where(and(inProject(projectId, jobId), inArray(importJobs.status, ["queued", "running"])))
        .returning({ id: importJobs.id });
      if (rows.length > 0) await dropUnwritten(tx, jobId);
      return rows.length > 0;
    },

    /** Takes the oldest job waiting, or running under a lease that ran out (its process is gone), for `token`. */
    async claim(now: Date, leaseUntil: Date, token: string): Promise<JobRow | undefined> {
      const waiting = db
        .select({ id: importJobs.id })
        .from(importJobs)
        .where(
          or(
            eq(importJobs.status, "queued"),
            and(
              eq(importJobs.status, "running"),
              or(isNull(importJobs.leaseUntil), lt(importJobs.leaseUntil, now)),
            ),
          ),
        )
        .orderBy(asc(importJobs.createdAt))
        .limit(1)
        .for("update", { skipLocked: true });
      const [row] = await db
        .update(importJobs)
        .set({
          status: "running",
          claimedBy: token,
          leaseUntil,
          startedAt: sql`coalesce(${importJobs.startedAt}, ${now})`,
        })
        .where(and(inArray(importJobs.id, waiting), inArray(importJobs.status, ["queued", "running"])))
        .returning();
      return row;
    },

    /** The next records after those processed. */
    nextRecords(job: JobRow, limit: number): Promise<RecordRow[]> {
      return db
        .select()
        .from(importJobRecords)
        .where(and(eq(importJobRecords.jobId, job.id), gt(importJobRecords.seq, job.processed)))
        .orderBy(asc(importJobRecords.seq))
        .limit(limit);
    },

    /**
     * Records a written batch: the reasons of records the server skipped, the counters, the new position, and a
     * renewed lease, in one transaction. Answers the job as it is now, or undefined when another process holds it.
     */
    async recordBatch(
      tx: Db,
      jobId: string,
      token: string,
      counts: BatchCounts,
      skips: { seq: number; reason: string }[],
      leaseUntil: Date,
    ): Promise<JobRow | undefined> {
      for (const skip of skips) {
        await tx
          .update(importJobRecords)
          .set({ skipReason: skip.reason })
          .where(and(eq(importJobRecords.jobId, jobId), eq(importJobRecords.seq, skip.seq)));
      }
      const [row] = await tx
        .update(importJobs)
        .set({
          processed: sql`${importJobs.processed} + ${counts.processed}`,
          created: sql`${importJobs.created} + ${counts.created}`,
          existing: sql`${importJobs.existing} + ${counts.existing}`,
          skipped: sql`${importJobs.skipped} + ${counts.skipped}`,
          leaseUntil,
        })
        .where(heldBy(jobId, token))
        .returning();
      return row;
    },

    /**
     * Ends a job the caller holds (a cancelled one stays cancelled) and deletes the records it no longer needs: the
     * written ones carried password hashes; the skipped ones stay for the report.
     */
    async finish(
      tx: Db,
      jobId: string,
      token: string,
      end: { status: "succeeded" | "failed"; error?: string },
      now: Date,
    ): Promise<void> {
      await tx
        .update(importJobs)
        .set({ status: end.status, error: end.error ?? null, finishedAt: now, leaseUntil: null })
        .where(and(heldBy(jobId, token), eq(importJobs.status, "running")));
      await dropUnwritten(tx, jobId);
    },
  };
}

export type ImportJobStore = ReturnType<typeof createImportJobStore>;
