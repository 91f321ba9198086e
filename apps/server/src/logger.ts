// Structured logging: one JSON object per line on stdout. Callers must never pass secrets as fields.

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export type Logger = {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
};

export function createLogger(write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const log = (level: string) => (msg: string, fields?: LogFields) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  return { info: log("info"), warn: log("warn"), error: log("error") };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
