// The known-error mechanism: a catalogue entry is a factory that builds a KnownError from typed arguments.
// Errors are recognised by their `code` (and the parent chain), never by instanceof, because the SDK rebuilds
// them from the wire and several copies of this module may be loaded in one process.

import { ancestorsOf, leafParents } from "./known-error-table.ts";

export type KnownErrorDetails = Record<string, unknown>;

export class KnownError extends Error {
  readonly isKnownError = true;
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details: KnownErrorDetails | undefined,
    readonly ancestors: readonly string[],
  ) {
    super(message);
    this.name = "KnownError";
  }

  /** Stack Auth's SDK names for the code, status and message; apps written against it read these. */
  get errorCode(): string {
    return this.code;
  }
  get statusCode(): number {
    return this.status;
  }
  get humanReadableMessage(): string {
    return this.message;
  }

  /** The JSON body of the wire response (WIRE.md §1.7): `details` is omitted when it has no keys. */
  toBody(): { code: string; message: string; error: string; details?: KnownErrorDetails } {
    const body = { code: this.code, message: this.message, error: this.message };
    return this.details && Object.keys(this.details).length > 0 ? { ...body, details: this.details } : body;
  }
}

export function isKnownError(value: unknown): value is KnownError {
  return (
    typeof value === "object" && value !== null && (value as { isKnownError?: unknown }).isKnownError === true
  );
}

/** True when the error is `code` or one of its descendants (the SDK matches parents the same way). */
export function knownErrorIs(error: unknown, code: string): boolean {
  return isKnownError(error) && (error.code === code || error.ancestors.includes(code));
}

export type EntrySpec<A> = {
  message: (args: A) => string;
  details?: (args: A) => KnownErrorDetails;
};

export type KnownErrorFactory<A> = ((...args: A extends undefined ? [] : [A]) => KnownError) & {
  readonly code: string;
  readonly status: number;
  readonly parent: string | undefined;
};

/**
 * One catalogue entry as its own factory with the status given: what `define` (known-errors.ts) builds once it has
 * looked the status up, and what the few entries a browser raises itself (client-errors.ts) use directly, so a
 * client's first load carries no status column. The catalogue test checks each status against known-error-status.ts.
 */
export function defineWithStatus<A = undefined>(
  code: string,
  status: number,
  spec: EntrySpec<A>,
): KnownErrorFactory<A> {
  const parent = leafParents[code];
  const ancestors = ancestorsOf(code);
  const factory = (args?: A) =>
    new KnownError(code, status, spec.message(args as A), spec.details?.(args as A), ancestors);
  return Object.assign(factory, { code, status, parent }) as KnownErrorFactory<A>;
}

/**
 * A known error as the SDK receives it (WIRE.md §1.7): rebuilt from the response's status and the body's code, message
 * and details, with the code's ancestry from the parent table (known-error-table.ts, not the catalogue, so a client
 * bundle holds no messages) so parents match (`knownErrorIs`). A code this catalogue does not know keeps its code and
 * message and has no ancestors.
 */
export function knownErrorFromWire(
  status: number,
  body: { code: string; message?: string; details?: KnownErrorDetails },
): KnownError {
  return new KnownError(body.code, status, body.message ?? body.code, body.details, ancestorsOf(body.code));
}
