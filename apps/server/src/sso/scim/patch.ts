// SCIM PATCH (RFC 7644 §3.5.2) applied to a resource's SCIM representation; the caller then stores the result as a
// replacement. Covers the shapes Okta and Entra ID send: ops in any case ("Replace"), a value object without a path,
// dotted keys in it ("name.givenName"), value paths (`emails[type eq "work"].value`, `members[value eq "…"]`), and
// Entra's `remove` of `members` with the members to remove as its value.
import { KnownErrors } from "@gatehouse/contract";
import { type Filter, matches, parseFilter } from "./filter.ts";

type Json = Record<string, unknown>;
type Mode = "add" | "replace" | "remove";

const MAX_OPERATIONS = 1000;
const invalidValue = (reason: string) => KnownErrors.SCIM_INVALID_VALUE({ reason });

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The existing key spelled as the resource spells it (attribute names ignore case), or the given one. */
function keyOf(resource: Json, name: string): string {
  return Object.keys(resource).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
}

type Path = { name: string; filter?: Filter; sub?: string };

function parsePath(raw: string): Path {
  const path = raw.replace(/^urn:ietf:params:scim:schemas:core:2\.0:\w+:/i, "");
  const match = /^([A-Za-z][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z][\w$-]*))?$/.exec(path);
  if (!match?.[1]) throw KnownErrors.SCIM_INVALID_PATH({ path: raw.slice(0, 256) });
  try {
    return {
      name: match[1],
      ...(match[2] ? { filter: parseFilter(match[2]) } : {}),
      ...(match[3] ? { sub: match[3] } : {}),
    };
  } catch {
    throw KnownErrors.SCIM_INVALID_PATH({ path: raw.slice(0, 256) });
  }
}

/** Two multi-valued items are the same when their `value`s are (members, emails), else when equal as JSON. */
const sameItem = (a: unknown, b: unknown) =>
  isObject(a) && isObject(b) && a.value !== undefined
    ? a.value === b.value
    : JSON.stringify(a) === JSON.stringify(b);

/** The item a value path's equality conditions describe, for `add` to a value path that matches nothing. */
function itemFromFilter(filter: Filter): Json {
  if (filter.op === "cmp" && filter.cmp === "eq") return { [filter.path]: filter.value };
  if (filter.op === "and") return { ...itemFromFilter(filter.left), ...itemFromFilter(filter.right) };
  throw invalidValue("a value path to add to must be made of `eq` conditions.");
}

function apply(resource: Json, path: Path, mode: Mode, value: unknown): void {
  const key = keyOf(resource, path.name);
  const current = resource[key];
  if (path.filter) {
    const filter = path.filter;
    const items = Array.isArray(current) ? [...current] : [];
    const hits = items.filter((item) => matches(item, filter));
    if (mode === "remove") {
      if (path.sub) for (const hit of hits) if (isObject(hit)) delete hit[keyOf(hit, path.sub)];
      resource[key] = path.sub ? items : items.filter((item) => !hits.includes(item));
      return;
    }
    if (hits.length === 0) {
      if (!path.sub) throw KnownErrors.SCIM_INVALID_PATH({ path: path.name });
      items.push({ ...itemFromFilter(filter), [path.sub]: value });
    } else {
      for (const hit of hits) {
        if (!isObject(hit)) continue;
        if (path.sub) hit[keyOf(hit, path.sub)] = value;
        else if (isObject(value)) Object.assign(hit, value);
      }
    }
    resource[key] = items;
    return;
  }
  if (path.sub) {
    const container = isObject(current) ? current : {};
    apply(container, { name: path.sub }, mode, value);
    resource[key] = container;
    return;
  }
  if (mode === "remove") {
    // Entra ID removes group members by naming them in `value` rather than in a value path.
    if (Array.isArray(current) && Array.isArray(value)) {
      resource[key] = current.filter((item) => !value.some((gone) => sameItem(item, gone)));
    } else {
      delete resource[key];
    }
    return;
  }
  if (mode === "add" && Array.isArray(current)) {
    const additions = Array.isArray(value) ? value : [value];
    resource[key] = [
      ...current,
      ...additions.filter((item) => !current.some((have) => sameItem(have, item))),
    ];
    return;
  }
  if (mode === "add" && isObject(current) && isObject(value)) {
    Object.assign(current, value);
    return;
  }
  resource[key] = value;
}

/** The resource after the PatchOp request's operations, in order; the input is not changed. */
export function applyPatch(resource: Json, body: unknown): Json {
  if (!isObject(body)) throw invalidValue("the body must be a PatchOp message.");
  const operations = attributeOf(body, "Operations");
  if (!Array.isArray(operations) || operations.length === 0)
    throw invalidValue("`Operations` must be a non-empty list.");
  if (operations.length > MAX_OPERATIONS) throw invalidValue(`at most ${MAX_OPERATIONS} operations.`);
  const result = structuredClone(resource);
  for (const operation of operations) {
    if (!isObject(operation)) throw invalidValue("an operation must be an object.");
    const mode = String(attributeOf(operation, "op") ?? "").toLowerCase();
    if (mode !== "add" && mode !== "replace" && mode !== "remove")
      throw invalidValue("`op` must be add, replace or remove.");
    const path = attributeOf(operation, "path");
    const value = attributeOf(operation, "value");
    if (path !== undefined && typeof path !== "string") throw invalidValue("`path` must be a string.");
    if (path) {
      if (mode !== "remove" && value === undefined) throw invalidValue(`${mode} needs a value.`);
      apply(result, parsePath(path), mode, value);
      continue;
    }
    // Without a path, the value holds the attributes to add or replace (Okta's `{"active": false}`).
    if (mode === "remove") throw KnownErrors.SCIM_INVALID_PATH({ path: "" });
    if (!isObject(value)) throw invalidValue("an operation without a path needs an object value.");
    for (const [name, item] of Object.entries(value)) apply(result, parsePath(name), mode, item);
  }
  return result;
}

function attributeOf(object: Json, name: string): unknown {
  return object[keyOf(object, name)];
}
