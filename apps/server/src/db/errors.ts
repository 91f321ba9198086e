// Recognising database errors by their SQLSTATE, whichever driver (pg or PGlite) and wrapper (drizzle) raised them.

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
