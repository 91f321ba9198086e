// The known-error mechanism: a catalogue entry is a factory that builds a KnownError from typed arguments.
// Errors are recognised by their `code` (and the parent chain), never by instanceof, because the SDK rebuilds
// them from the wire and several copies of this module may be loaded in one process.

import { ancestorsOf, leafParents, statusOf } from "./known-error-table.ts";

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

type EntrySpec<A> = {
  message: (args: A) => string;
  details?: (args: A) => KnownErrorDetails;
};

export type KnownErrorFactory<A> = ((...args: A extends undefined ? [] : [A]) => KnownError) & {
  readonly code: string;
  readonly status: number;
  readonly parent: string | undefined;
};

/**
 * Declares one catalogue entry as its own factory, its status and parent taken from known-error-table.ts. One call per code (not
 * one object built in a loop) so a bundler drops every entry an app does not name: a client bundle ships none.
 */
export function define<A = undefined>(code: string, spec: EntrySpec<A>): KnownErrorFactory<A> {
  const status = statusOf(code);
  if (status === undefined) throw new Error(`Known error ${code} has no status in known-error-table.ts`);
  const parent = leafParents[code];
  const ancestors = ancestorsOf(code);
  const factory = (args?: A) =>
    new KnownError(code, status, spec.message(args as A), spec.details?.(args as A), ancestors);
  return Object.assign(factory, { code, status, parent }) as KnownErrorFactory<A>;
}
