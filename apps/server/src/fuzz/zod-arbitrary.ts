// fast-check arbitraries from the contract's zod schemas: values that mostly pass a schema, with hostile values
// (wrong types, NUL, lone surrogates, huge strings, deep nesting, unknown and missing fields) mixed in at every node.
// zod-fast-check does not support zod 4, so this reads zod 4's schema definitions (`_zod.def`) itself.
import fc from "fast-check";
import type { z } from "zod";

/** Values the fixture knows (real ids of its project, user, team, …) and fixed answers for fields that reach out. */
export type FuzzContext = {
  /** Real uuids of the fixture, so that some requests get past "not found". */
  ids: string[];
  /** Field names whose value is always this one: hosts and ports of SMTP tests must never leave the machine. */
  fixed: Record<string, unknown>;
};

type Def = {
  type: string;
  format?: string;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  [key: string]: unknown;
};
const defOf = (schema: unknown) => (schema as { _zod: { def: Def } })._zod.def;

/** Strings a database, a parser or a template may choke on. */
const NASTY_STRINGS = [
  "a\u0000b",
  "\u0000",
  "\ud800",
  "x\udfffy",
  "\udbff\ud800",
  "",
  " ",
  "me",
  "x",
  "%00",
  "../../etc/passwd",
  "' OR 1=1 --",
  "\\",
  '"',
  "\u2028\u2029",
  "\r\nX-Injected: 1",
  "🦄".repeat(300),
  "ﷺ",
  "NaN",
  "1e9999",
  "-1",
  "00000000-0000-0000-0000-000000000000",
  "$read_members",
  "internal",
  "{{ user.display_name }}",
  "<script>alert(1)</script>",
];

/** A JSON value nested `depth` levels deep (the body parser admits 1,000). */
export const deepArray = (depth: number): unknown => {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

/** Hostile JSON values of every type, for any node of a body. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, [], {}),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 300_000 }).map((n) => "x".repeat(n)) },
    { weight: 1, arbitrary: fc.constantFrom(999, 1000, 1001).map(deepArray) },
    {
      weight: 1,
      arbitrary: fc.constantFrom({ "a\u0000": 1 }, { "\ud800": "x" }, JSON.parse('{"__proto__":{"x":1}}')),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  );
}

/** A uuid: one of the fixture's, a fresh one, or `me` where the schema allows it. */
const idArbitrary = (ctx: FuzzContext) =>
  fc.oneof(
    { weight: 3, arbitrary: ctx.ids.length > 0 ? fc.constantFrom(...ctx.ids) : fc.uuid() },
    { weight: 1, arbitrary: fc.uuid() },
  );

/** Candidates for a string of the given format; the caller keeps the ones the schema accepts. */
function stringCandidates(def: Def, ctx: FuzzContext): fc.Arbitrary<string> {
  switch (def.format) {
    case "uuid":
    case "guid":
      return idArbitrary(ctx);
    case "email":
      return fc.constantFrom("fuzz@example.com", "Fuzz.User+tag@Example.org", "a@b.co");
    case "url":
      // Local only: a fuzzed webhook, callback or issuer URL must never reach another machine.
      return fc.constantFrom(
        "http://localhost:3000/handler/callback",
        "http://127.0.0.1:9/x",
        "https://localhost/a",
      );
    case "base64":
      return fc.uint8Array({ minLength: 10, maxLength: 64 }).map((b) => Buffer.from(b).toString("base64"));
  }
  const pattern = def.checks
    ?.map((c) => c._zod.def)
    .find((c) => c.check === "string_format" && c.format === "regex")?.pattern;
  if (pattern instanceof RegExp) return fc.stringMatching(pattern);
  return fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom("me", "github", "google", "legacy", "S256", "code", "team_member", "$read_members"),
    fc.constantFrom(...ctx.ids, "x"),
    fc.string({ minLength: 45, maxLength: 45, unit: fc.constantFrom(..."0123456789abcdefghjkmnpqrstvwxyz") }),
  );
}

/**
 * Mostly-valid values for `schema`: a generated candidate where the schema accepts it, else a fixed valid one
 * found when the arbitrary is built (or the candidate itself, when nothing valid is known: a schema error is fine).
 */
function validString(schema: z.ZodType, def: Def, ctx: FuzzContext): fc.Arbitrary<unknown> {
  const candidates = stringCandidates(def, ctx);
  const known = fc.sample(candidates, { numRuns: 50, seed: 1 }).find((s) => schema.safeParse(s).success);
  return candidates.map((s) => (known === undefined || schema.safeParse(s).success ? s : known));
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  let min = -1e9;
  let max = 1e9;
  let integer = false;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === "number_format") integer = true;
    if (c.check === "greater_than") min = Math.max(min, Number(c.value) + (c.inclusive ? 0 : 1));
    if (c.check === "less_than") max = Math.min(max, Number(c.value) - (c.inclusive ? 0 : 1));
  }
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER)) })
    : fc.double({ min, max, noNaN: true });
}

/**
 * An arbitrary for `schema` where every node is hostile with probability about `hostility`, and objects sometimes
 * lose a required field or gain an unknown one. With hostility 0, values aim to pass the schema, so that requests
 * reach the handlers and the database.
 */
export function fuzzArbitrary(schema: z.ZodType, ctx: FuzzContext, hostility = 0.15): fc.Arbitrary<unknown> {
  const node = (s: z.ZodType): fc.Arbitrary<unknown> => {
    const valid = validArbitrary(s);
    const hostileWeight = Math.round(hostility * 100);
    if (hostileWeight === 0) return valid;
    return fc.oneof(
      { weight: 100 - hostileWeight, arbitrary: valid },
      { weight: hostileWeight, arbitrary: hostileValue() },
    );
  };

  const validArbitrary = (s: z.ZodType): fc.Arbitrary<unknown> => {
    const def = defOf(s);
    const inner = (key: string) => def[key] as z.ZodType;
    switch (def.type) {
      case "string":
        return validString(s, def, ctx);
      case "number":
        return numberArbitrary(def);
      case "boolean":
        return fc.boolean();
      case "literal":
        return fc.constantFrom(...(def.values as unknown[]));
      case "enum":
        return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
      case "optional":
      case "default":
      case "prefault":
      case "readonly":
      case "catch":
        return validArbitrary(inner("innerType"));
      case "nullable":
        return fc.oneof({ weight: 4, arbitrary: validArbitrary(inner("innerType")) }, fc.constant(null));
      case "pipe":
        return validArbitrary(inner("in"));
      case "union":
        return fc.oneof(...(def.options as z.ZodType[]).map(validArbitrary));
      case "array":
        return fc.array(node(inner("element")), { maxLength: 3 });
      case "record":
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), node(inner("valueType")), {
          maxKeys: 3,
        });
      case "object":
        return objectArbitrary(def.shape as Record<string, z.ZodType>);
      default:
        // unknown, any, and whatever else: any JSON value.
        return fc.jsonValue({ maxDepth: 3 });
    }
  };

  const objectArbitrary = (shape: Record<string, z.ZodType>): fc.Arbitrary<unknown> => {
    const fields: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const [key, field] of Object.entries(shape)) {
      fields[key] = key in ctx.fixed ? fc.constant(ctx.fixed[key]) : node(field);
      const type = defOf(field).type;
      if (type !== "optional" && type !== "default" && !field.safeParse(undefined).success)
        required.push(key);
    }
    if (hostility === 0) return fc.record(fields, { requiredKeys: required });
    // Most objects keep their required fields; some lose one, some gain a field no schema declares.
    return fc
      .tuple(
        fc.record(fields, { requiredKeys: required }),
        fc.oneof(
          { weight: 8, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constantFrom(...(required.length > 0 ? required : ["-"])) },
        ),
        fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostileValue() }),
      )
      .map(([value, drop, extra]) => {
        const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
        if (drop !== undefined) delete out[drop];
        if (extra !== undefined) out.unknown_fuzz_field = extra;
        return out;
      });
  };

  return node(schema);
}
