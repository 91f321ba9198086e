// Runs one import: a first pass reads the whole file (a broken file stops here, before anything is written, with
// its line), counts records and notes every skip; the second pass writes in batches (one request each), keeps a checkpoint after each
// batch so an interrupted run resumes where it stopped, and reports progress with rate and ETA.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { Sink } from "./http-sink.ts";
import type { SourceItem } from "./record.ts";

export type ImportReport = {
  provider: string;
  dry_run: boolean;
  records: number;
  created: number;
  existing: number;
  /** Every record not imported, with its line (or array position) and why; the first 10,000 of them. */
  skipped: { line: number; reason: string }[];
  skipped_count: number;
  resumed_from_line: number;
};

export class ImportFileError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

export type Progress = { done: number; total: number; ratePerSecond: number; etaSeconds: number };

type Checkpoint = { file: string; size: number; mtimeMs: number; line: number };
const MAX_LISTED_SKIPS = 10_000;

export async function runImport(options: {
  provider: string;
  file: string;
  read: () => AsyncIterable<SourceItem>;
  sink?: Sink;
  dryRun?: boolean;
  /** Users per request (one transaction on the server each). */
  batchSize?: number;
  /** The checkpoint file (default `<file>.gatehouse-import.json`); resuming needs the same, unchanged input. */
  checkpointPath?: string;
  onProgress?: (progress: Progress) => void;
  now?: () => number;
}): Promise<ImportReport> {
  const now = options.now ?? Date.now;
  const report: ImportReport = {
    provider: options.provider,
    dry_run: options.dryRun ?? false,
    records: 0,
    created: 0,
    existing: 0,
    skipped: [],
    skipped_count: 0,
    resumed_from_line: 0,
  };
  const skip = (line: number, reason: string) => {
    report.skipped_count++;
    if (report.skipped.length < MAX_LISTED_SKIPS) report.skipped.push({ line, reason });
  };

  let total = 0;
  for await (const item of options.read()) {
    if ("fatal" in item) throw new ImportFileError(item.line, item.fatal);
    if ("skip" in item) skip(item.line, item.skip);
    total++;
  }
  report.records = total;

  const checkpointPath = options.checkpointPath ?? `${options.file}.gatehouse-import.json`;
  const stat = statSync(options.file);
  const checkpoint: Checkpoint = { file: options.file, size: stat.size, mtimeMs: stat.mtimeMs, line: 0 };
  if (!report.dry_run && existsSync(checkpointPath)) {
    const saved = JSON.parse(readFileSync(checkpointPath, "utf8")) as Checkpoint;
    if (saved.size === stat.size && saved.mtimeMs === stat.mtimeMs) checkpoint.line = saved.line;
  }
  report.resumed_from_line = checkpoint.line;

  const started = now();
  let done = 0;
  let lastReport = 0;
  const progress = (force = false) => {
    const elapsed = (now() - started) / 1000;
    if (!options.onProgress || (!force && now() - lastReport < 250)) return;
    lastReport = now();
    const rate = elapsed > 0 ? done / elapsed : 0;
    options.onProgress({
      done,
      total,
      ratePerSecond: rate,
      etaSeconds: rate > 0 ? (total - done) / rate : 0,
    });
  };

  const batchSize = Math.max(1, options.batchSize ?? 500);
  let batch: SourceItem[] = [];
  // One batch in flight while the next is read: the server writes one while this process parses the other. The
  // checkpoint advances in order, after the server answered.
  let inFlight: Promise<void> = Promise.resolve();
  const write = async (items: SourceItem[]) => {
    // Skips were noted in the first pass; the records go to the server in one request.
    const records = items.flatMap((item) => ("user" in item ? [item] : []));
    if (report.dry_run || !options.sink) report.created += records.length;
    else if (records.length > 0) {
      const written = await options.sink.writeBatch(records.map((item) => item.user));
      written.forEach((result, i) => {
        if (result.result === "created") report.created++;
        else if (result.result === "exists") report.existing++;
        else skip(records[i]?.line ?? 0, result.reason);
      });
    }
    done += items.length;
    checkpoint.line = items.at(-1)?.line ?? checkpoint.line;
    if (!report.dry_run) writeFileSync(checkpointPath, JSON.stringify(checkpoint));
    progress();
  };
  const flush = async () => {
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    await inFlight;
    inFlight = write(items);
    // Awaited by the next flush or at the end; this only keeps a failure from counting as unhandled meanwhile.
    inFlight.catch(() => {});
  };

  for await (const item of options.read()) {
    if (item.line <= report.resumed_from_line) {
      done++;
      continue;
    }
    batch.push(item);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  await inFlight;
  progress(true);
  // Finished: a later run starts over and finds every user already there (the server is the record of what exists).
  if (!report.dry_run && existsSync(checkpointPath)) rmSync(checkpointPath);
  return report;
}

/** `12,345/100,000  812/s  ETA 1m 35s` — for stderr. */
export function formatProgress(p: Progress): string {
  const eta = Math.round(p.etaSeconds);
  const etaText = eta >= 60 ? `${Math.floor(eta / 60)}m ${eta % 60}s` : `${eta}s`;
  const percent = p.total ? Math.floor((100 * p.done) / p.total) : 100;
  const width = 24;
  const filled = Math.round((width * percent) / 100);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${percent}% ${p.done.toLocaleString("en")}/${p.total.toLocaleString("en")}  ${Math.round(p.ratePerSecond)}/s  ETA ${etaText}`;
}
