// Structured logging: one JSON object per line on stdout. Callers must never pass secrets as fields.
// Lines are written in batches (one write per turn of the event loop): a write per request costs more than the
// request itself under load. Nothing is lost on exit: the batch is flushed synchronously then.

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export type Logger = {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
};

export function createLogger(write: (text: string) => void = (text) => process.stdout.write(text)): Logger {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    write(text);
  };
  process.once("exit", flush);
  const log = (level: string) => (msg: string, fields?: LogFields) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  };
  return { info: log("info"), warn: log("warn"), error: log("error") };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
