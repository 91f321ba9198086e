// Storable text: NUL and unpaired surrogates are found in strings and keys at any depth; paired surrogates pass.
import { describe, expect, it } from "vitest";
import { findUnstorableText, isStorableText, UNSTORABLE_TEXT_MESSAGE } from "./text.ts";

describe("isStorableText", () => {
  it.each([
    ["plain text", "hello", true],
    ["a surrogate pair (an emoji)", "a😀b", true],
    ["other control characters", "\u0001\t\n\u001f", true],
    ["U+FFFD", "\ufffd", true],
    ["NUL", "a\u0000b", false],
    ["a lone high surrogate", "a\ud800b", false],
    ["a lone high surrogate at the end", "a\udbff", false],
    ["a lone low surrogate", "\udc00a", false],
    ["a pair in the wrong order", "\udc00\ud800", false],
  ])("%s", (_what, text, storable) => {
    expect(isStorableText(text)).toBe(storable);
  });
});

describe("findUnstorableText", () => {
  it("names the path of each bad value, and the object holding a bad key (not the key)", () => {
    expect(findUnstorableText({ a: ["ok", "x\u0000"], b: { "k\ud800": 1 }, c: 1, d: null })).toEqual([
      { path: ["a", 1], message: UNSTORABLE_TEXT_MESSAGE },
      { path: ["b"], message: `has a key that ${UNSTORABLE_TEXT_MESSAGE}` },
    ]);
    expect(findUnstorableText("\u0000")).toEqual([{ path: [], message: UNSTORABLE_TEXT_MESSAGE }]);
    expect(findUnstorableText({ a: ["😀", { b: "ok" }] })).toEqual([]);
  });

  it("walks any depth without recursion", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep)).toHaveLength(1);
  });

  it("reports at most ten problems", () => {
    expect(findUnstorableText(Array.from({ length: 1000 }, () => "\u0000"))).toHaveLength(10);
  });
});
