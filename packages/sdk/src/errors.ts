// The errors an app sees: known errors of the wire catalogue (rebuilt from responses, matched by code and parent
// code), `Result` for the calls whose failures are expected, and the SDK's own assertion error.
export { isKnownError, KnownError, knownErrorIs } from "@gatehouse/contract/known-error";
export { type KnownErrorCode, KnownErrors } from "@gatehouse/contract/known-errors";

import { type KnownError, knownErrorIs } from "@gatehouse/contract/known-error";

/** Something that should not happen: a bug in the SDK or the server, or a misuse the types could not prevent. */
export class StackAssertionError extends Error {
  constructor(
    message: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "StackAssertionError";
  }
}

/** The outcome of a call whose failures are part of normal use (a wrong password, an expired code). */
export type Result<T, E = KnownError> = { status: "ok"; data: T } | { status: "error"; error: E };

export const Result = {
  ok: <T>(data: T): Result<T, never> => ({ status: "ok", data }),
  error: <E>(error: E): Result<never, E> => ({ status: "error", error }),
};

/**
 * Runs `action`; a known error of one of `codes` (or their descendants) becomes `Result.error`, anything else is
 * thrown. What a call returns as a Result is thus exactly what its signature names.
 */
export async function expectingErrors<T>(
  codes: readonly string[],
  action: () => Promise<T>,
): Promise<Result<T>> {
  try {
    return Result.ok(await action());
  } catch (error) {
    if (codes.some((code) => knownErrorIs(error, code))) return Result.error(error as KnownError);
    throw error;
  }
}
