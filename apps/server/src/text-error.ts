// Plain-text errors (WIRE.md §1.9): failures that are not known errors, answered as text/plain. Shared by the
// services (which raise them) and the HTTP layer (which renders them), so it sits beside both.

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
