// Plain-text errors (WIRE.md §1.9): client failures that are not known errors, answered as text/plain.

export class TextError extends Error {
  readonly isTextError = true;
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "TextError";
  }
}

export function isTextError(value: unknown): value is TextError {
  return (
    typeof value === "object" && value !== null && (value as { isTextError?: unknown }).isTextError === true
  );
}
