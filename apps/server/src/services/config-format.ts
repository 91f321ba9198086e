// Stack Auth's config-override algebra, as pure functions over JSON objects: overrides are objects whose keys may be
// dotted paths; applying one replaces each of its keys and every key below it; resetting keys removes them and
// their descendants; normalising turns dotted keys into nested objects.

export type ConfigObject = Record<string, unknown>;

export const isPlainObject = (value: unknown): value is ConfigObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `base` with `next` applied: a key of `next` drops the same key and the keys below it (`k.…`) from `base`. */
export function applyOverride(base: ConfigObject, next: ConfigObject): ConfigObject {
  const sent = Object.entries(next).filter(([, value]) => value !== undefined);
  const kept = Object.entries(base).filter(
    ([key]) => !sent.some(([k]) => key === k || key.startsWith(`${k}.`)),
  );
  return Object.fromEntries([...kept, ...sent]);
}

/** `config` without `keys` and their descendants, whether written dotted or nested (Stack's removeKeysFromConfig). */
export function removeKeys(config: ConfigObject, keys: readonly string[]): ConfigObject {
  const result: ConfigObject = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined || keys.some((k) => key === k || key.startsWith(`${k}.`))) continue;
    const below = keys.filter((k) => k.startsWith(`${key}.`)).map((k) => k.slice(key.length + 1));
    if (below.length > 0 && isPlainObject(value)) {
      const cleaned = removeKeys(value, below);
      if (Object.keys(cleaned).length > 0) result[key] = cleaned;
    } else {
      result[key] = value;
    }
  }
  return result;
}

/** Deep merge: objects merge key by key, anything else in `top` replaces what is in `bottom`. */
export function deepMerge(bottom: unknown, top: unknown): unknown {
  if (top === undefined) return bottom;
  if (!isPlainObject(bottom) || !isPlainObject(top)) return top;
  const result: ConfigObject = { ...bottom };
  for (const [key, value] of Object.entries(top)) result[key] = deepMerge(bottom[key], value);
  return result;
}

/** The nested form of an override: `{"a.b": 1, a: {c: 2}}` becomes `{a: {b: 1, c: 2}}`, later keys winning. */
export function normalize(config: ConfigObject): ConfigObject {
  const result: ConfigObject = {};
  for (const [key, raw] of Object.entries(config)) {
    if (raw === undefined) continue;
    const value = isPlainObject(raw) ? normalize(raw) : raw;
    const path = key.split(".");
    const last = path.pop() as string;
    let node = result;
    for (const part of path) {
      if (!isPlainObject(node[part])) node[part] = {};
      node = node[part] as ConfigObject;
    }
    node[last] = deepMerge(node[last], value);
  }
  return result;
}

/** The value at a dotted path of a nested object, or undefined. */
export function getPath(config: unknown, path: string): unknown {
  let node = config;
  for (const part of path.split(".")) {
    if (!isPlainObject(node)) return undefined;
    node = node[part];
  }
  return node;
}

/** `config` with the value at a dotted path set, creating objects on the way. */
export function setPath(config: ConfigObject, path: string, value: unknown): void {
  const parts = path.split(".");
  const last = parts.pop() as string;
  let node = config;
  for (const part of parts) {
    if (!isPlainObject(node[part])) node[part] = {};
    node = node[part] as ConfigObject;
  }
  node[last] = value;
}

/** The dotted paths of the leaves of a nested object (an empty object counts as a leaf). */
export function leafPaths(config: ConfigObject, prefix = ""): string[] {
  return Object.entries(config).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return isPlainObject(value) && Object.keys(value).length > 0 ? leafPaths(value, path) : [path];
  });
}

/** Parses a config string: a JSON object, or undefined. */
export function parseConfigString(text: string): ConfigObject | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
