// User and team API key text: Stack's format (a vector made by Stack's own code), and Stack's parser reads ours.
import { parseProjectApiKey } from "@stackframe/stack-shared/dist/utils/api-keys";
import { describe, expect, it } from "vitest";
import { formatOwnedApiKey, parseOwnedApiKey } from "./key-format.ts";

const ID = "123e4567-e89b-42d3-a456-426614174000";
/** Made by Stack's createProjectApiKey({ id: ID, isPublic: false, isCloudVersion: false, type: "user" }). */
const STACK_VECTOR =
  "sk_68nat9a0v3xkwhgnhacsb8y7cpkkzrhnvsamzwyxxvpzr123e4567e89b42d3a456426614174000user1574ck4u7h407c84f2";

describe("owned API key format", () => {
  it("reads a key Stack made: its id and type", () => {
    expect(parseOwnedApiKey(STACK_VECTOR)).toEqual({ id: ID, type: "user" });
  });

  it("rejects a wrong checksum, a wrong marker, a wrong type and stray text", () => {
    const flip = (i: number) =>
      STACK_VECTOR.slice(0, i) + (STACK_VECTOR[i] === "a" ? "b" : "a") + STACK_VECTOR.slice(i + 1);
    expect(parseOwnedApiKey(flip(10))).toBeUndefined();
    expect(parseOwnedApiKey(flip(STACK_VECTOR.length - 1))).toBeUndefined();
    expect(parseOwnedApiKey(STACK_VECTOR.replace("574ck4u7h", "574ck4u7x"))).toBeUndefined();
    expect(parseOwnedApiKey(STACK_VECTOR.replace("user", "uses"))).toBeUndefined();
    expect(parseOwnedApiKey(`${STACK_VECTOR} `)).toBeUndefined();
    expect(parseOwnedApiKey("")).toBeUndefined();
  });

  it("makes keys Stack's parser accepts: self-hosted, secret or public, user or team", () => {
    for (const type of ["user", "team"] as const) {
      for (const isPublic of [false, true]) {
        const key = formatOwnedApiKey({ id: ID, type, isPublic });
        expect(key).toMatch(isPublic ? /^pk_/ : /^sk_/);
        expect(key).toHaveLength(STACK_VECTOR.length);
        expect(parseProjectApiKey(key)).toMatchObject({ id: ID, type, isPublic, isCloudVersion: false });
        expect(parseOwnedApiKey(key)).toEqual({ id: ID, type });
      }
    }
  });

  it("draws a new secret each time", () => {
    const a = formatOwnedApiKey({ id: ID, type: "team", isPublic: false });
    const b = formatOwnedApiKey({ id: ID, type: "team", isPublic: false });
    expect(a).not.toBe(b);
  });
});
