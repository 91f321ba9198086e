// Recognising database errors by their SQLSTATE, whichever driver (pg or PGlite) and wrapper (drizzle) raised them,
// and the failures that mean the database is out of reach for now.

function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error; typeof e === "object" && e !== null; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown) => sqlState(error) === "23505";

/** The constraint a violation names; pg and PGlite both put it on the error (drizzle wraps it as `cause`). */
export function constraintOf(error: unknown): string | undefined {
  for (let e: unknown = error; typeof e === "object" && e !== null; e = (e as { cause?: unknown }).cause) {
    const constraint = (e as { constraint?: unknown }).constraint;
    if (typeof constraint === "string") return constraint;
  }
  return undefined;
}

/** Socket failures Node reports while reaching or talking to the database server. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/**
 * SQLSTATEs of a database that is going away, starting up, full, or too slow: class 08 (connection exception),
 * 57P01-57P03 (shut down by an administrator or a crash, not yet accepting connections), 53300 (too many
 * connections) and 57014 (cancelled, which is what the statement timeout does).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300|57014)$/;

/** pg raises these without a code when the socket closes under a query or the pool cannot get a connection. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|Connection ended/i;

/**
 * Whether a failure means the database is out of reach for now (restart, failover, overload) rather than a bug:
 * such requests answer DATABASE_UNAVAILABLE (503) and may be retried, where anything else is a 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error; typeof e === "object" && e !== null; e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true;
    // AggregateError (a host name resolving to several addresses, all refused) holds the real causes in `errors`.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
