// The known-error mechanism: a catalogue entry is a factory that builds a KnownError from typed arguments.
// Errors are recognised by their `code` (and the parent chain), never by instanceof, because the SDK rebuilds
// them from the wire and several copies of this module may be loaded in one process.

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
  status: number;
  parent?: string;
  message: (args: A) => string;
  details?: (args: A) => KnownErrorDetails;
};

export type KnownErrorFactory<A> = ((...args: A extends undefined ? [] : [A]) => KnownError) & {
  readonly code: string;
  readonly status: number;
  readonly parent: string | undefined;
};

/** Declares one catalogue entry; the code is filled in by `buildCatalogue` from the entry's key. */
export function entry(spec: EntrySpec<undefined>): EntrySpec<undefined>;
export function entry<A>(spec: EntrySpec<A>): EntrySpec<A>;
export function entry<A>(spec: EntrySpec<A>): EntrySpec<A> {
  return spec;
}

/**
 * Turns `{CODE: entry(...)}` into `{CODE: factory}`. `abstractParents` maps each abstract parent class to its own
 * parent so a leaf knows its whole ancestry.
 */
export function buildCatalogue<T extends Record<string, EntrySpec<never>>>(
  specs: T,
  abstractParents: Record<string, string | undefined>,
): { [K in keyof T]: T[K] extends EntrySpec<infer A> ? KnownErrorFactory<A> : never } {
  const ancestry = (parent: string | undefined): string[] => {
    const chain: string[] = [];
    for (let p = parent; p !== undefined; p = abstractParents[p]) chain.push(p);
    return chain;
  };
  const out: Record<string, unknown> = {};
  for (const [code, spec] of Object.entries(specs)) {
    const s = spec as EntrySpec<unknown>;
    const ancestors = ancestry(s.parent);
    const factory = (args?: unknown) =>
      new KnownError(code, s.status, s.message(args), s.details?.(args), ancestors);
    out[code] = Object.assign(factory, { code, status: s.status, parent: s.parent });
  }
  return out as never;
}
