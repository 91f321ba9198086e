// The human-readable log format, for a person at a terminal: pino's JSON line turned into one short line by
// pino-pretty, a request as "GET /path 200 3ms", and a link (a development inbox e-mail's) on a line of its own.
import type { DestinationStream } from "pino";
import { isColorSupported, type MessageFormatFunc, prettyFactory } from "pino-pretty";

type Line = Record<string, unknown>;
type Colors = Parameters<MessageFormatFunc>[3]["colors"];

/** Fields shown on lines of their own after the message. */
const OWN_LINE_FIELDS = ["link", "error", "error_query", "error_stack"];

/**
 * A value as the terminal shows it. Control characters are escaped, never written: a value can come from a user (a
 * path, an e-mail subject naming a project) and an escape sequence in it could rewrite what the terminal shows.
 */
function plain(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this pattern is for.
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** `key=value`, quoted when the value has a space, so a line still reads as pairs. */
function pair(key: string, value: unknown, colors: Colors): string {
  const text = plain(value);
  return colors.gray(`${key}=${/[\s"=]/.test(text) ? `"${text.replace(/"/g, '\\"')}"` : text}`);
}

function statusColor(status: number, colors: Colors): string {
  if (status >= 500) return colors.red(String(status));
  if (status >= 400) return colors.yellow(String(status));
  return colors.green(String(status));
}

function requestLine(log: Line, colors: Colors): string {
  const status = typeof log.status === "number" ? statusColor(log.status, colors) : plain(log.status);
  return `${colors.gray(plain(log.method))} ${plain(log.path)} ${status} ${colors.gray(`${plain(log.ms)}ms`)}`;
}

function message(log: Line, colors: Colors): string {
  if (log.msg === "request") return requestLine(log, colors);
  const skip = new Set(["msg", "level", "time", ...OWN_LINE_FIELDS]);
  const pairs = Object.entries(log)
    .filter(([key, value]) => !skip.has(key) && value !== undefined)
    .map(([key, value]) => pair(key, value, colors));
  const link = typeof log.link === "string" ? log.link : undefined;
  const lines = [[link ? colors.bold(plain(log.msg)) : plain(log.msg), ...pairs].join(" ")];
  // The link a developer clicks in a development inbox e-mail: alone on its line (a terminal can open it) and
  // coloured, so it stands out among the lines around it.
  if (link) lines.push(`    ${colors.cyan("→")} ${colors.bold(colors.cyan(colors.underline(plain(link))))}`);
  if (log.error !== undefined) lines.push(`    ${colors.red(plain(log.error))}`);
  if (typeof log.error_query === "string") lines.push(colors.gray(`    query: ${plain(log.error_query)}`));
  if (typeof log.error_stack === "string") {
    for (const frame of log.error_stack.split("\n")) lines.push(colors.gray(`  ${plain(frame)}`));
  }
  return lines.join("\n");
}

/** A destination that writes each of pino's JSON lines to `destination` as a readable line. */
export function prettyDestination(
  destination: DestinationStream,
  colors = isColorSupported,
): DestinationStream {
  // In this thread, not pino-pretty's worker-thread transport: one line is formatted as it is logged and goes to
  // the same asynchronous stdout as JSON does, so the exit flush covers it too and no thread is started.
  const format = prettyFactory({
    colorize: colors,
    translateTime: "SYS:HH:MM:ss",
    hideObject: true,
    // The message in the terminal's own colour: colour is kept for what should catch the eye.
    customColors: "message:reset,debug:gray",
    useOnlyCustomProps: false,
    messageFormat: (log, _key, _label, extras) => message(log, extras.colors),
  });
  return { write: (line: string) => destination.write(format(line)) };
}
