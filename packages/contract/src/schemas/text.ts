// Text every input must be storable as: no NUL characters and no unpaired UTF-16 surrogates, in any string or object
// key at any depth (WIRE.md §1.1: bodies are UTF-8). Checked once over each whole input part, so no field is missed.

/**
 * NUL, a high surrogate without its low half, or a low surrogate without its high half. PostgreSQL refuses NUL in
 * text and `\u0000` in jsonb, and refuses unpaired surrogate escapes in jsonb; a lone surrogate in text would be
 * silently replaced by U+FFFD. Refusing both at the boundary keeps such input from reaching a query at all.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this pattern is for.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSTORABLE_TEXT_MESSAGE = "must not contain NUL characters or unpaired surrogates";

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

export type TextProblem = { path: (string | number)[]; message: string };

/** Problems reported at most: a megabyte of bad strings should not make a megabyte of error message. */
const MAX_PROBLEMS = 10;

/**
 * The places (at most ten) in a JSON-like value where a string or an object key is not storable text. Walks with an
 * explicit stack, never recursion, so no input is deep enough to overflow it. The offending key is not put into the
 * path: problem lines are echoed to the caller and should not carry the bad text back.
 */
export function findUnstorableText(value: unknown): TextProblem[] {
  // Each node points at its parent; a path is built only for a problem, so deep values cost linear time.
  type Node = { value: unknown; parent: Node | undefined; key: string | number };
  const pathOf = (node: Node | undefined): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let n = node; n?.parent !== undefined; n = n.parent) path.push(n.key);
    return path.reverse();
  };
  const problems: TextProblem[] = [];
  const stack: Node[] = [{ value, parent: undefined, key: "" }];
  for (let node = stack.pop(); node !== undefined && problems.length < MAX_PROBLEMS; node = stack.pop()) {
    const current = node.value;
    if (typeof current === "string") {
      if (!isStorableText(current)) problems.push({ path: pathOf(node), message: UNSTORABLE_TEXT_MESSAGE });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], parent: node, key: i });
    } else if (typeof current === "object" && current !== null) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        if (isStorableText(key)) stack.push({ value: child, parent: node, key });
        else problems.push({ path: pathOf(node), message: `has a key that ${UNSTORABLE_TEXT_MESSAGE}` });
      }
    }
  }
  return problems;
}
