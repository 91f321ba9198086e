// Logging through pino: JSON lines for log collectors, or human-readable lines for a person at a terminal
// (logger-pretty.ts). Callers never pass secrets as fields; an error goes in the third argument, and the logger alone
// decides what of it may be written (summarizeError), so redaction is one place.
import pino, { type DestinationStream } from "pino";
import { prettyDestination } from "./logger-pretty.ts";

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export type Logger = {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields, error?: unknown): void;
  error(msg: string, fields?: LogFields, error?: unknown): void;
};

const SQLSTATE = /^[0-9A-Z]{5}$/;
/** Codes such as ECONNREFUSED or EAUTH: constants chosen by code, never data. */
const SYMBOLIC_CODE = /^[A-Z][A-Z0-9_]{1,39}$/;
const MAX_CAUSES = 5;
const MAX_TEXT = 1000;
const MAX_FRAMES = 10;

type ErrorLike = { name?: unknown; message?: unknown; code?: unknown; constraint?: unknown; query?: unknown };

function causes(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current = error;
  while (current !== null && current !== undefined && chain.length < MAX_CAUSES) {
    chain.push(typeof current === "object" ? (current as ErrorLike) : { message: String(current) });
    current = typeof current === "object" ? (current as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

const text = (value: unknown) => (typeof value === "string" ? value : String(value ?? ""));
const isDatabaseError = (e: ErrorLike) =>
  (typeof e.code === "string" && SQLSTATE.test(e.code)) ||
  typeof e.query === "string" ||
  // drizzle's wrapper, recognised by its message too, so a copy of that message in another error is caught as well.
  /^Failed query: /.test(text(e.message)) ||
  /\nparams: /.test(text(e.message));
/** PGlite's error class is minified and pg's is named "error": both are PostgreSQL's error report. */
const className = (e: ErrorLike) =>
  typeof e.code === "string" && SQLSTATE.test(e.code) ? "DatabaseError" : (e.constructor?.name ?? typeof e);

/**
 * What a log line may say about an error. A failed query is the dangerous case: drizzle's message appends the
 * parameters (password hashes, token hashes, metadata, personal data) and PostgreSQL's message and `detail` quote
 * values (`invalid input syntax for type uuid: "…"`, `Key (email)=(…) already exists`, `Failing row contains (…)`).
 * So for a database error only the class, the SQLSTATE, the constraint name and the query text with its $n
 * placeholders are kept; PostgreSQL too leaves parameters out of its error log by default
 * (`log_parameter_max_length_on_error = 0`).
 * Other errors (SMTP, network, a bug) keep their message, which their code writes, not their data; stack frames are
 * code locations and are kept without the message line that heads them.
 */
export function summarizeError(error: unknown): LogFields & { error: string } {
  const chain = causes(error);
  const classes = chain.map(className).join(" <- ");
  const database = chain.some(isDatabaseError);
  const code = chain
    .map((e) => e.code)
    .find((c) => typeof c === "string" && (SQLSTATE.test(c) || SYMBOLIC_CODE.test(c)));
  const constraint = chain.map((e) => e.constraint).find((c) => typeof c === "string" && c !== "");
  const query = chain.map((e) => e.query).find((q) => typeof q === "string");
  const message = database
    ? `database error${code ? ` ${code}` : ""}${constraint ? ` (constraint ${constraint})` : ""}`
    : chain
        .map((e) => text(e.message))
        .filter((m) => m !== "")
        .join(": ");
  const stack = (error instanceof Error ? (error.stack ?? "") : "")
    .split("\n")
    .filter((line) => line.startsWith("    at "))
    .slice(0, MAX_FRAMES)
    .join("\n");
  return {
    error: message.slice(0, MAX_TEXT),
    error_class: classes,
    error_code: typeof code === "string" ? code : undefined,
    error_constraint: typeof constraint === "string" ? constraint : undefined,
    error_query: typeof query === "string" ? query.slice(0, MAX_TEXT) : undefined,
    error_stack: stack || undefined,
  };
}

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
export type LogFormat = "json" | "pretty";

export type LoggerOptions = {
  /** Lines below it are dropped. Default info. */
  level?: LogLevel;
  /** Default: pretty when stdout is a terminal, JSON otherwise (a pipe, a file, a log collector). */
  format?: LogFormat;
  /** Where lines go. Default stdout (see `stdout`). */
  destination?: DestinationStream;
  /** Fields on every line (a cluster worker's number). */
  fields?: LogFields;
  /** Pretty format only. Default: what the terminal supports (NO_COLOR and FORCE_COLOR are honoured). */
  colors?: boolean;
};

/**
 * stdout. For JSON without a write per line: sonic-boom sends what gathered while the previous write was under way
 * in one go (a write per request costs more than the request itself under load), and pino flushes it synchronously
 * when the process exits, so nothing is lost. For a person at a terminal each line at once, as Node writes to a
 * terminal anyway: lines then stay in order with what the server prints itself (the start-up banner comes last).
 */
const stdout = (pretty: boolean) => pino.destination({ dest: 1, sync: pretty });

export function createLogger(options: LoggerOptions = {}): Logger {
  const pretty = (options.format ?? (process.stdout.isTTY ? "pretty" : "json")) === "pretty";
  const destination = options.destination ?? stdout(pretty);
  const base = pino(
    {
      level: options.level ?? "info",
      // The line's own fields (and a cluster worker's number) only: no pid or hostname, ISO time, the level by name, as
      // the JSON format always had.
      base: options.fields,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pretty ? prettyDestination(destination, options.colors) : destination,
  );
  const log = (level: "info" | "warn" | "error") => (msg: string, fields?: LogFields, error?: unknown) => {
    const summary = error === undefined ? {} : summarizeError(error);
    base[demoted(pretty, level, msg, fields)]({ ...fields, ...summary }, msg);
  };
  return { info: log("info"), warn: log("warn"), error: log("error") };
}

/**
 * The level a line is written at. At a terminal a request that succeeded is debug: a person there reads start-up,
 * e-mail links, warnings and failures, which hundreds of 200s would bury (GATEHOUSE_LOG_LEVEL=debug shows them).
 * JSON keeps every request at info: a log collector filters for itself.
 */
function demoted(pretty: boolean, level: "info" | "warn" | "error", msg: string, fields?: LogFields) {
  const succeeded = typeof fields?.status === "number" && fields.status < 400;
  return pretty && level === "info" && msg === "request" && succeeded ? "debug" : level;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
