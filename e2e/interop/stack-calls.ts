// The inventory of issue 16: every method + path that a published Stack SDK can call, read from its installed dist
// (the interface classes' send{Client,Server,Admin}Request calls and the fetches built elsewhere in @stackframe/js).
// A scanner over the compiled JavaScript, not a parser: it understands the few shapes the dist files use.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type StackCall = { method: string; path: string; file: string };

/**
 * Values of path pieces that live in a parameter rather than in the file: `checkProjectApiKey(type, …)` builds
 * `/${type}-api-keys/check`, and its callers pass "user" or "team" (see the SDK's checkApiKey methods).
 */
const PARAMETER_VALUES: Record<string, string[]> = { type: ["user", "team"] };

/** Paths the SDK builds outside the request helpers: the OAuth redirect and the token exchange (oauth4webapi). */
const BUILT_ELSEWHERE: Omit<StackCall, "file">[] = [
  { method: "GET", path: "/api/v1/auth/oauth/authorize/{p}" },
  { method: "POST", path: "/api/v1/auth/oauth/token" },
];

const REQUEST_CALL =
  /(?:\bsend(?:Client|Server|Admin)Request(?:AndCatchKnownError)?|\bsendRequest|\.bind\(this\))\(/g;
const FETCH_CALL = /\bfetch\(/g;

/** Index just past the JS token that starts at `i` (string, template, or bracketed group), else i + 1. */
function skipToken(src: string, i: number): number {
  const c = src[i];
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < src.length && src[j] !== c) j += src[j] === "\\" ? 2 : 1;
    return j + 1;
  }
  if (c === "`") {
    let j = i + 1;
    while (j < src.length && src[j] !== "`") {
      if (src[j] === "\\") j += 2;
      else if (src[j] === "$" && src[j + 1] === "{") j = skipGroup(src, j + 1);
      else j += 1;
    }
    return j + 1;
  }
  if (c === "(" || c === "[" || c === "{") return skipGroup(src, i);
  return i + 1;
}

/** Index just past the bracket group opening at `i`. */
function skipGroup(src: string, i: number): number {
  const close = { "(": ")", "[": "]", "{": "}" }[src[i] as "(" | "[" | "{"];
  let j = i + 1;
  while (j < src.length && src[j] !== close) j = skipToken(src, j);
  return j + 1;
}

/** The top-level comma-separated arguments of the call whose "(" is at `open`. */
function callArguments(src: string, open: number): string[] {
  const end = skipGroup(src, open) - 1;
  const args: string[] = [];
  let start = open + 1;
  for (let j = start; j <= end; ) {
    if (j === end || src[j] === ",") {
      args.push(src.slice(start, j).trim());
      start = j + 1;
      j += 1;
    } else j = skipToken(src, j);
  }
  return args;
}

/** Splits `expr` at top-level occurrences of one of `chars`, returning the pieces. */
function splitTop(expr: string, chars: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let j = 0; j < expr.length; ) {
    if (chars.includes(expr[j] as string)) {
      parts.push(expr.slice(start, j).trim());
      start = j + 1;
      j += 1;
    } else j = skipToken(expr, j);
  }
  parts.push(expr.slice(start).trim());
  return parts;
}

/** The expression bound to `name` nearest before `at` (`const name = …;` or `name: …,`), if any. */
function binding(src: string, name: string, at: number): string | undefined {
  const before = src.slice(Math.max(0, at - 3000), at);
  const found = [...before.matchAll(new RegExp(`(?:const ${name} = |\\b${name}: )`, "g"))].pop();
  if (!found) return undefined;
  const abs = at - before.length + (found.index ?? 0) + found[0].length;
  let j = abs;
  while (j < src.length && !";,\n".includes(src[j] as string)) j = skipToken(src, j);
  return src.slice(abs, j).trim();
}

/** The path templates an expression can evaluate to, with unknown whole segments as `{p}`. */
function pathsOf(src: string, expr: string, at: number, depth = 0): string[] {
  const ternary = splitTop(expr, "?:");
  if (ternary.length === 3)
    return [...pathsOf(src, ternary[1] ?? "", at, depth), ...pathsOf(src, ternary[2] ?? "", at, depth)];
  const first = (splitTop(expr, "+")[0] ?? "").replace(/^[\w$.]*urlString(?=`)/, "");
  if (/^["']/.test(first)) return [first.slice(1, -1).split("?")[0] ?? ""];
  if (/^[\w$]+$/.test(first)) {
    const bound = depth < 3 ? binding(src, first, at) : undefined;
    return bound ? pathsOf(src, bound, at, depth + 1) : (PARAMETER_VALUES[first] ?? []);
  }
  if (!first.startsWith("`")) return [];
  // A template literal: literal text and `${…}` pieces; a piece that starts the query string ends the path.
  let results = [""];
  for (let j = 1; j < first.length - 1; ) {
    if (first[j] === "$" && first[j + 1] === "{") {
      const end = skipGroup(first, j + 1);
      const inner = first.slice(j + 2, end - 1).trim();
      j = end;
      const last = results[0] ?? "";
      if (/["'`]\?/.test(inner) || last.includes("?")) break;
      const values = /^[\w$]+$/.test(inner) && !last.endsWith("/") ? pathsOf(src, inner, at, depth + 1) : [];
      const whole = last.endsWith("/") && (first[j] === "/" || first[j] === "`" || first[j] === "?");
      const pieces = values.length > 0 ? values : whole ? ["{p}"] : (PARAMETER_VALUES[inner] ?? ["{p}"]);
      results = results.flatMap((r) => pieces.map((p) => r + p));
    } else {
      results = results.map((r) => r + first[j]);
      j += first[j] === "\\" ? 2 : 1;
    }
  }
  return results.map((r) => r.split("?")[0] ?? r);
}

/** The HTTP method in a request-options argument: `method: "X"`, GET when absent, undefined when not a literal. */
function methodOf(options: string | undefined): string | undefined {
  if (options === undefined) return "GET";
  // A variable or a spread of the caller's options: a pass-through helper, not a call site.
  if (!options.startsWith("{") || /^\{\s*\.\.\./.test(options)) return undefined;
  return /method:\s*"(\w+)"/.exec(options)?.[1]?.toUpperCase() ?? "GET";
}

/** The calls in one compiled file. Interface paths are relative to `/api/v1`; fetches carry their own prefix. */
export function callsInSource(src: string, file: string): StackCall[] {
  const calls: StackCall[] = [];
  for (const match of src.matchAll(REQUEST_CALL)) {
    const open = (match.index ?? 0) + match[0].length - 1;
    if (/async\s+$/.test(src.slice(Math.max(0, (match.index ?? 0) - 8), match.index))) continue; // a definition
    const [pathArg, optionsArg] = callArguments(src, open);
    const method = methodOf(optionsArg);
    if (!pathArg || !method) continue;
    for (const path of pathsOf(src, pathArg, match.index ?? 0))
      if (path.startsWith("/")) calls.push({ method, path: `/api/v1${path}`, file });
  }
  for (const match of src.matchAll(FETCH_CALL)) {
    const open = (match.index ?? 0) + match[0].length - 1;
    const [urlArg, optionsArg] = callArguments(src, open);
    const method = methodOf(optionsArg);
    if (!urlArg || !method) continue;
    for (const url of pathsOf(src, urlArg, match.index ?? 0)) {
      const path = /\/api\/(?:v1|latest)\/.*/.exec(url)?.[0];
      if (path) calls.push({ method, path, file });
    }
  }
  return calls;
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "esm" ? [] : jsFiles(full);
    return entry.name.endsWith(".js") && !entry.name.endsWith(".test.js") ? [full] : [];
  });
}

/** Every distinct call of one installed SDK: its stack-shared interfaces plus @stackframe/js's own dist. */
export function stackCalls(jsPackageDir: string, sharedPackageDir: string): StackCall[] {
  const files = [
    ...jsFiles(join(sharedPackageDir, "dist", "interface")),
    ...jsFiles(join(jsPackageDir, "dist")),
  ];
  const all = [
    ...files.flatMap((file) => callsInSource(readFileSync(file, "utf8"), file)),
    ...BUILT_ELSEWHERE.map((call) => ({ ...call, file: "(built elsewhere)" })),
  ];
  const seen = new Map<string, StackCall>();
  for (const call of all)
    seen.set(`${call.method} ${call.path}`, seen.get(`${call.method} ${call.path}`) ?? call);
  return [...seen.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** Whether a route path with `{param}` placeholders answers a call path (whose unknown segments are `{p}`). */
export function routeMatches(routePath: string, callPath: string): boolean {
  const route = routePath.split("/");
  const call = callPath.split("/");
  if (route.length !== call.length) return false;
  return route.every((seg, i) => seg === call[i] || /^\{\w+\}$/.test(seg));
}
