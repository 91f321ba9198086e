// How every command answers: JSON on stdout with --json (for scripts), a short human text otherwise; errors on
// stderr with one of the documented exit codes (docs/cli.md).
import { ApiError } from "./api-client.ts";

export const EXIT = {
  ok: 0,
  /** Anything unexpected. */
  failure: 1,
  /** Unknown command, missing argument, bad option (commander's own usage errors). */
  usage: 2,
  /** The server answered with an error (a known error's code is printed). */
  api: 3,
  /** The server could not be reached. */
  unreachable: 4,
  /** The input file is malformed; nothing was written. */
  badFile: 5,
  /** `config apply --check`: the file differs from the project. */
  differs: 6,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export type Output = { json: boolean };

export function print(output: Output, data: unknown, human: () => string): void {
  process.stdout.write(output.json ? `${JSON.stringify(data, null, 2)}\n` : `${human()}\n`);
}

/** A table of rows for people: columns padded to their widest value. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return "(none)";
  const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => text(row[column]).length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [
    line(columns.map((c) => c.toUpperCase())),
    ...rows.map((row) => line(columns.map((c) => text(row[c])))),
  ].join("\n");
}

/** The exit code and message for an error thrown by a command. */
export function describeError(error: unknown): { code: number; message: string } {
  if (error instanceof CliError) return { code: error.exitCode, message: error.message };
  if (error instanceof ApiError) return { code: EXIT.api, message: `server error: ${error.message}` };
  // fetch fails with a TypeError whose cause says why (refused, unknown host, a port fetch will not use).
  if (error instanceof TypeError && error.message === "fetch failed") {
    const cause = error.cause as { code?: string; message?: string } | undefined;
    return {
      code: EXIT.unreachable,
      message: `cannot reach the server (${cause?.code ?? cause?.message ?? "unknown"})`,
    };
  }
  return { code: EXIT.failure, message: error instanceof Error ? error.message : String(error) };
}
