// Strict input validation against contract schemas, reported as SCHEMA_ERROR in the wire's format (WIRE.md §1.6).
import { KnownErrors } from "@gatehouse/contract";
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

export function validatePart<S extends z.ZodType>(
  schema: S,
  part: InputPart,
  value: unknown,
): { ok: true; value: z.output<S> } | { ok: false; problem: ValidationProblem } {
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
