// Stack's config-override algebra: override replaces a key and its descendants, reset removes them (dotted or
// nested), normalise nests dotted keys. Cases follow Stack's own examples in stack-shared config/format.
import { describe, expect, it } from "vitest";
import {
  applyOverride,
  deepMerge,
  leafPaths,
  normalize,
  parseConfigString,
  removeKeys,
} from "./config-format.ts";

describe("applyOverride", () => {
  it("replaces a key and every key below it, keeps the others, ignores undefined", () => {
    expect(applyOverride({ a: 1, "a.b": 2, ab: 3, c: 4 }, { a: 5, d: undefined })).toEqual({
      ab: 3,
      c: 4,
      a: 5,
    });
    expect(applyOverride({ "a.b.c": 1, "a.d": 2 }, { "a.b": { x: 1 } })).toEqual({
      "a.d": 2,
      "a.b": { x: 1 },
    });
  });
});

describe("removeKeys", () => {
  it("removes dotted and nested keys with their descendants, dropping emptied objects", () => {
    expect(removeKeys({ a: 1, b: 2 }, ["a"])).toEqual({ b: 2 });
    expect(removeKeys({ "a.b": 1, "a.c": 2, d: 3 }, ["a"])).toEqual({ d: 3 });
    expect(removeKeys({ a: { b: 1, c: 2 } }, ["a.b"])).toEqual({ a: { c: 2 } });
    expect(removeKeys({ a: { b: 1 } }, ["a.b"])).toEqual({});
    expect(removeKeys({ a: 1 }, [])).toEqual({ a: 1 });
  });
});

describe("normalize", () => {
  it("nests dotted keys and merges them with nested ones, later keys winning", () => {
    expect(normalize({ "a.b": 1, a: { c: 2 }, "a.b.x": 3 })).toEqual({ a: { b: { x: 3 }, c: 2 } });
    expect(normalize({ x: { "y.z": true } })).toEqual({ x: { y: { z: true } } });
  });
});

describe("helpers", () => {
  it("merges deeply, lists leaves, parses only JSON objects", () => {
    expect(deepMerge({ a: { b: 1, c: 2 } }, { a: { c: 3 }, d: [1] })).toEqual({ a: { b: 1, c: 3 }, d: [1] });
    expect(leafPaths({ a: { b: 1, c: {} }, d: null })).toEqual(["a.b", "a.c", "d"]);
    expect(parseConfigString('{"a":1}')).toEqual({ a: 1 });
    expect(parseConfigString("[1]")).toBeUndefined();
    expect(parseConfigString("{")).toBeUndefined();
  });
});
