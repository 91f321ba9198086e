// Strict input validation against contract schemas, reported as SCHEMA_ERROR in the wire's format (WIRE.md §1.6).
import { findUnstorableText, KnownErrors } from "@gatehouse/contract";
import type { z } from "zod";

export type InputPart = "params" | "query" | "body";

/** One problem line per issue: unknown properties and missing fields in the wire's wording, the rest as zod says. */
function problemLine(part: InputPart, issue: z.core.$ZodIssue): string {
  const where = [part, ...issue.path.map(String)].join(".");
  if (issue.code === "unrecognized_keys")
    return `${where} contains unknown properties: ${issue.keys.join(", ")}`;
  if (issue.code === "invalid_type" && issue.input === undefined) return `${where} must be defined`;
  return `${where}: ${issue.message}`;
}

export type ValidationProblem = { part: InputPart; issues: z.core.$ZodIssue[] };

/**
 * Text the database cannot store (NUL, unpaired surrogates) anywhere in a raw input part, declared field or not, is
 * a SCHEMA_ERROR before any schema or handler sees it: such text made queries fail with a 500 (contract
 * schemas/text.ts). Checked on every part of every route, so no field, metadata value or key can be missed.
 */
export function unstorableTextProblem(part: InputPart, value: unknown): ValidationProblem | undefined {
  const found = findUnstorableText(value);
  if (found.length === 0) return undefined;
  return {
    part,
    issues: found.map(
      (p): z.core.$ZodIssue => ({ code: "custom", path: p.path, message: p.message, input: undefined }),
    ),
  };
}

export function validatePart<S extends z.ZodType>(
  schema: S,
  part: InputPart,
  value: unknown,
): { ok: true; value: z.output<S> } | { ok: false; problem: ValidationProblem } {
  // First, so that zod's own problem lines (unknown keys) never echo unstorable text back.
  const unstorable = unstorableTextProblem(part, value);
  if (unstorable) return { ok: false, problem: unstorable };
  const result = schema.safeParse(value, { reportInput: true });
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, problem: { part, issues: result.error.issues } };
}

export function schemaError(method: string, path: string, problems: ValidationProblem[]) {
  const lines = problems.flatMap((p) => p.issues.map((issue) => `  - ${problemLine(p.part, issue)}`));
  return KnownErrors.SCHEMA_ERROR({
    message: `Request validation failed on ${method} ${path}:\n${lines.join("\n")}`,
  });
}
