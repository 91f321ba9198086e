// SCIM filters (RFC 7644 §3.4.2.2): parsed into a tree and evaluated against a resource's SCIM representation.
// Supported: the comparison operators, `pr`, `and`, `or`, `not (…)`, parentheses and value paths (`emails[type eq
// "work"]`). Attribute names ignore case; string values ignore case except for case-exact attributes (id, externalId).
import { KnownErrors } from "@gatehouse/contract";

type Value = string | number | boolean | null;
export type Filter =
  | { op: "and" | "or"; left: Filter; right: Filter }
  | { op: "not"; filter: Filter }
  | { op: "pr"; path: string }
  | { op: "cmp"; path: string; cmp: string; value: Value }
  | { op: "valuePath"; path: string; filter: Filter };

const COMPARATORS = new Set(["eq", "ne", "co", "sw", "ew", "gt", "ge", "lt", "le"]);
const CASE_EXACT = new Set(["id", "externalid"]);
const MAX_FILTER = 2048;

const invalid = (reason: string) => KnownErrors.SCIM_INVALID_FILTER({ reason });

/** Splits a filter into tokens: strings, parentheses and brackets, and words (names, operators, literals). */
function tokenize(input: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i] as string;
    if (/\s/.test(ch)) {
      i++;
    } else if ("()[]".includes(ch)) {
      tokens.push(ch);
      i++;
    } else if (ch === '"') {
      let j = i + 1;
      while (j < input.length && input[j] !== '"') j += input[j] === "\\" ? 2 : 1;
      if (j >= input.length) throw invalid("a string is not closed.");
      tokens.push(input.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < input.length && !/[\s()[\]"]/.test(input[j] as string)) j++;
      tokens.push(input.slice(i, j));
      i = j;
    }
  }
  return tokens;
}

function literal(token: string | undefined): Value {
  if (token === undefined) throw invalid("a comparison has no value.");
  if (token.startsWith('"')) {
    try {
      return JSON.parse(token) as string;
    } catch {
      throw invalid(`${token} is not a valid string.`);
    }
  }
  if (token === "true") return true;
  if (token === "false") return false;
  if (token === "null") return null;
  if (/^-?\d+(\.\d+)?$/.test(token)) return Number(token);
  throw invalid(`${token} is not a value.`);
}

export function parseFilter(input: string): Filter {
  if (input.length > MAX_FILTER) throw invalid(`it is longer than ${MAX_FILTER} characters.`);
  const tokens = tokenize(input);
  let pos = 0;
  const peek = () => tokens[pos]?.toLowerCase();
  const next = () => tokens[pos++];
  const expect = (token: string) => {
    if (next() !== token) throw invalid(`"${token}" expected.`);
  };

  function or(): Filter {
    let left = and();
    while (peek() === "or") {
      pos++;
      left = { op: "or", left, right: and() };
    }
    return left;
  }
  function and(): Filter {
    let left = unary();
    while (peek() === "and") {
      pos++;
      left = { op: "and", left, right: unary() };
    }
    return left;
  }
  function unary(): Filter {
    if (peek() === "not") {
      pos++;
      expect("(");
      const filter = or();
      expect(")");
      return { op: "not", filter };
    }
    if (peek() === "(") {
      pos++;
      const filter = or();
      expect(")");
      return filter;
    }
    const path = next();
    if (!path || !/^[A-Za-z][\w:.$-]*$/.test(path))
      throw invalid(`${path ?? "the end"} is not an attribute.`);
    if (peek() === "[") {
      pos++;
      const filter = or();
      expect("]");
      return { op: "valuePath", path, filter };
    }
    const operator = peek();
    pos++;
    if (operator === "pr") return { op: "pr", path };
    if (!operator || !COMPARATORS.has(operator))
      throw invalid(`${operator ?? "the end"} is not an operator.`);
    return { op: "cmp", path, cmp: operator, value: literal(next()) };
  }

  const filter = or();
  if (pos !== tokens.length) throw invalid(`unexpected ${tokens[pos]}.`);
  return filter;
}

/** An attribute of an object by name, ignoring case. */
export function attribute(resource: unknown, name: string): unknown {
  if (typeof resource !== "object" || resource === null || Array.isArray(resource)) return undefined;
  const key = Object.keys(resource).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : (resource as Record<string, unknown>)[key];
}

/** The values a dotted path reaches, flattening multi-valued attributes; a core schema URN prefix is ignored. */
function valuesAt(resource: unknown, path: string): unknown[] {
  const bare = path.replace(/^urn:ietf:params:scim:schemas:core:2\.0:\w+:/i, "");
  let current: unknown[] = [resource];
  for (const part of bare.split(".")) {
    current = current.flatMap((item) => {
      const value = attribute(item, part);
      return Array.isArray(value) ? value : value === undefined ? [] : [value];
    });
  }
  return current;
}

function compare(actual: unknown, cmp: string, expected: Value, caseExact: boolean): boolean {
  if (typeof actual === "string" && typeof expected === "string") {
    const a = caseExact ? actual : actual.toLowerCase();
    const b = caseExact ? expected : expected.toLowerCase();
    switch (cmp) {
      case "eq":
        return a === b;
      case "ne":
        return a !== b;
      case "co":
        return a.includes(b);
      case "sw":
        return a.startsWith(b);
      case "ew":
        return a.endsWith(b);
      case "gt":
        return a > b;
      case "ge":
        return a >= b;
      case "lt":
        return a < b;
      case "le":
        return a <= b;
    }
  }
  if (cmp === "eq") return actual === expected;
  if (cmp === "ne") return actual !== expected;
  if (typeof actual === "number" && typeof expected === "number") {
    if (cmp === "gt") return actual > expected;
    if (cmp === "ge") return actual >= expected;
    if (cmp === "lt") return actual < expected;
    if (cmp === "le") return actual <= expected;
  }
  return false;
}

export function matches(resource: unknown, filter: Filter): boolean {
  switch (filter.op) {
    case "and":
      return matches(resource, filter.left) && matches(resource, filter.right);
    case "or":
      return matches(resource, filter.left) || matches(resource, filter.right);
    case "not":
      return !matches(resource, filter.filter);
    case "pr":
      return valuesAt(resource, filter.path).some((v) => v !== null && v !== "");
    case "valuePath":
      return valuesAt(resource, filter.path).some((item) => matches(item, filter.filter));
    case "cmp": {
      const values = valuesAt(resource, filter.path);
      const last = filter.path.split(".").at(-1)?.toLowerCase() ?? "";
      // `ne` holds when no value equals: an absent attribute is "not equal".
      if (filter.cmp === "ne")
        return !values.some((v) => compare(v, "eq", filter.value, CASE_EXACT.has(last)));
      return values.some((v) => compare(v, filter.cmp, filter.value, CASE_EXACT.has(last)));
    }
  }
}
