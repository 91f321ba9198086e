// Streaming readers under every importer: NDJSON by line, CSV by record, JSON arrays by element. Each yields one item
// at a time with its line (or record) number, so a file of a million users never sits in memory.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parse } from "csv-parse";
import chain from "stream-chain";
import { parser } from "stream-json";
import { pick } from "stream-json/filters/pick.js";
import { streamArray } from "stream-json/streamers/stream-array.js";

export type Row<T> = { line: number; value: T } | { line: number; fatal: string };

export async function* ndjsonRows(path: string): AsyncGenerator<Row<unknown>> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (!text.trim()) continue;
    try {
      yield { line, value: JSON.parse(text) };
    } catch (error) {
      yield { line, fatal: `malformed JSON (${(error as Error).message})` };
      return;
    }
  }
}

/** CSV with a header row; values keyed by column name, line = the line the record starts on. */
export async function* csvRows(path: string): AsyncGenerator<Row<Record<string, string>>> {
  const records = createReadStream(path).pipe(
    parse({ columns: true, bom: true, info: true, skip_empty_lines: true, relax_column_count: false }),
  );
  try {
    for await (const { record, info } of records as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      yield { line: info.lines, value: record };
    }
  } catch (error) {
    const err = error as Error & { lines?: number };
    yield { line: err.lines ?? 0, fatal: `malformed CSV (${err.message})` };
  }
}

/**
 * Elements of a JSON array: the whole document (`key` undefined) or the array under a top-level key (Firebase's
 * `{"users": [...]}`). The number is the element's position (1-based): the streaming parser does not count lines.
 */
export async function* jsonArrayRows(path: string, key?: string): AsyncGenerator<Row<unknown>> {
  const stages = [createReadStream(path), parser(), ...(key ? [pick({ filter: key })] : []), streamArray()];
  const pipeline = chain(stages as Parameters<typeof chain>[0]);
  let index = 0;
  try {
    for await (const item of pipeline as AsyncIterable<{ key: number; value: unknown }>) {
      index = item.key + 1;
      yield { line: index, value: item.value };
    }
  } catch (error) {
    yield { line: index + 1, fatal: `malformed JSON (${(error as Error).message})` };
  }
}

/** NDJSON unless the file's first non-blank character opens a JSON array or object. */
export async function* jsonOrNdjsonRows(path: string, key?: string): AsyncGenerator<Row<unknown>> {
  const first = await firstCharacter(path);
  if (first === "[" || (first === "{" && key && (await looksLikeWrapper(path, key))))
    yield* jsonArrayRows(path, first === "[" ? undefined : key);
  else yield* ndjsonRows(path);
}

async function firstCharacter(path: string): Promise<string | undefined> {
  for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: 4096 })) {
    const match = /\S/.exec(chunk as string);
    if (match) return match[0];
  }
}

/**
 * `{"users": [...]}` rather than NDJSON: a first line that is not a complete JSON value (`{\n "users": [`), or one
 * that is an object holding the array under `key` (a wrapper written on one line).
 */
async function looksLikeWrapper(path: string, key: string): Promise<boolean> {
  const lines = createInterface({ input: createReadStream(path) });
  for await (const text of lines) {
    lines.close();
    try {
      const value = JSON.parse(text) as Record<string, unknown>;
      return Array.isArray(value?.[key]);
    } catch {
      return text.includes(`"${key}"`) || text.trim() === "{";
    }
  }
  return false;
}

/** A database table exported as CSV (by extension) or as JSON / NDJSON rows. */
export function tableRows(path: string, key?: string): AsyncGenerator<Row<unknown>> {
  return /\.csv$/i.test(path) ? csvRows(path) : jsonOrNdjsonRows(path, key);
}

/** A whole side table in memory, grouped by one column (identities, accounts: a few small rows per user). */
export async function groupRows(path: string, by: string): Promise<Map<string, Record<string, unknown>[]>> {
  const groups = new Map<string, Record<string, unknown>[]>();
  for await (const row of tableRows(path)) {
    if ("fatal" in row) throw new Error(`${path}: line ${row.line}: ${row.fatal}`);
    const value = row.value as Record<string, unknown>;
    const id = String(value[by] ?? "");
    groups.set(id, [...(groups.get(id) ?? []), value]);
  }
  return groups;
}
