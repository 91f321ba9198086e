// Import jobs for project admins (issue 23): an uploaded export file becomes a job the worker (worker.ts) runs in the
// background. The file is kept on disk only while the request lasts: it is read twice through the CLI's readers
// (importers/), first whole to refuse a broken file with its line before anything is kept, then into the job's
// records. Keeping normalised records rather than the file lets any server process run the job (PostgreSQL with
// several processes) without a shared disk or a second parse, and lets a job resume from a record number.
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import {
  type ImportJob,
  type ImportJobDetail,
  type ImportProvider,
  KnownErrors,
  MAX_IMPORT_FILE_BYTES,
} from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { createImportJobStore, type JobRow, type NewRecordRow } from "./store.ts";

const INSERT_CHUNK = 500;

/** Writes the request body to `path`, refusing it past the size limit (declared or counted as it arrives). */
async function saveUpload(request: Request, path: string, maxBytes: number): Promise<void> {
  const tooLarge = () => KnownErrors.IMPORT_FILE_TOO_LARGE({ max_bytes: maxBytes });
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  if (!request.body) throw KnownErrors.IMPORT_FILE_INVALID({ line: 0, reason: "the file is empty" });
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(size > maxBytes ? tooLarge() : null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(request.body as WebReadableStream), counter, createWriteStream(path));
}

export function importJobView(row: JobRow, now: Date): ImportJob {
  const end = row.finishedAt ?? now;
  const seconds = row.startedAt ? Math.max(0.001, (end.getTime() - row.startedAt.getTime()) / 1000) : 0;
  const rate = row.startedAt ? row.processed / seconds : null;
  return {
    id: row.id,
    provider: row.provider,
    file_name: row.fileName,
    dry_run: row.dryRun,
    status: row.status,
    total: row.total,
    processed: row.processed,
    created: row.created,
    existing: row.existing,
    skipped: row.skipped,
    rate_per_second: rate === null ? null : Math.round(rate * 10) / 10,
    eta_seconds: row.status === "running" && rate ? Math.ceil((row.total - row.processed) / rate) : null,
    error: row.error,
    created_at_millis: row.createdAt.getTime(),
    started_at_millis: row.startedAt?.getTime() ?? null,
    finished_at_millis: row.finishedAt?.getTime() ?? null,
  };
}

export function createImportJobs(deps: { db: Db; clock: Clock; maxFileBytes?: number }) {
  const store = createImportJobStore(deps.db);
  const maxFileBytes = deps.maxFileBytes ?? MAX_IMPORT_FILE_BYTES;

  async function detail(row: JobRow): Promise<ImportJobDetail> {
    const skips = await store.skips(row.id);
    return {
      ...importJobView(row, deps.clock.now()),
      skipped_records: skips.map((skip) => ({
        line: skip.line,
        id: skip.sourceId,
        reason: skip.skipReason ?? "",
      })),
    };
  }

  async function found(projectId: string, jobId: string): Promise<JobRow> {
    const row = await store.find(projectId, jobId);
    if (!row) throw KnownErrors.IMPORT_JOB_NOT_FOUND({ job_id: jobId });
    return row;
  }

  return {
    /** Reads the uploaded file whole (a broken one is refused with its line), then records it as a queued job. */
    async create(
      projectId: string,
      input: { provider: ImportProvider; fileName: string; dryRun: boolean },
      request: Request,
    ): Promise<ImportJobDetail> {
      const dir = await mkdtemp(join(tmpdir(), "gatehouse-import-"));
      try {
        // Table exports (Supabase, Better Auth) are read as CSV or JSON by the name's extension, as the CLI does.
        const extension = /\.[a-z0-9]{1,8}$/i.exec(input.fileName)?.[0] ?? "";
        const file = join(dir, `upload${extension}`);
        await saveUpload(request, file, maxFileBytes);
        // The readers (and their CSV and streaming-JSON parsers) load with the first upload, not at start.
        const { importReader } = await import("../importers/index.ts");
        const read = await importReader(input.provider, file, {});
        let total = 0;
        for await (const item of read()) {
          if ("fatal" in item) throw KnownErrors.IMPORT_FILE_INVALID({ line: item.line, reason: item.fatal });
          total++;
        }
        const row = await inTransaction(deps.db, async (tx) => {
          const job = await store.insertJob(tx, {
            id: randomUUID(),
            projectId,
            provider: input.provider,
            fileName: input.fileName,
            dryRun: input.dryRun,
            status: "queued",
            total,
            createdAt: deps.clock.now(),
          });
          let chunk: NewRecordRow[] = [];
          let seq = 0;
          for await (const item of read()) {
            chunk.push({
              jobId: job.id,
              seq: ++seq,
              line: item.line,
              sourceId: "user" in item ? item.user.id : null,
              record: "user" in item ? item.user : null,
              skipReason: "skip" in item ? item.skip : null,
            });
            if (chunk.length >= INSERT_CHUNK) {
              await store.insertRecords(tx, chunk);
              chunk = [];
            }
          }
          await store.insertRecords(tx, chunk);
          return job;
        });
        return detail(row);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    async list(projectId: string): Promise<ImportJob[]> {
      const now = deps.clock.now();
      return (await store.list(projectId)).map((row) => importJobView(row, now));
    },

    async get(projectId: string, jobId: string): Promise<ImportJobDetail> {
      return detail(await found(projectId, jobId));
    },

    async cancel(projectId: string, jobId: string): Promise<ImportJobDetail> {
      await found(projectId, jobId);
      await inTransaction(deps.db, (tx) => store.cancel(tx, projectId, jobId, deps.clock.now()));
      return detail(await found(projectId, jobId));
    },
  };
}

export type ImportJobs = ReturnType<typeof createImportJobs>;
