// Unsubscribe tokens: what they name survives the round trip; a changed, foreign-keyed or expired token is refused.
import { describe, expect, it } from "vitest";
import { createUnsubscribeTokens, UNSUBSCRIBE_LINK_LIFETIME_MS } from "./unsubscribe.ts";

const claims = { projectId: "p1", userId: "00000000-0000-4000-8000-000000000001", categoryId: "c1" };

describe("unsubscribe tokens", () => {
  let now = 1_000_000;
  const tokens = createUnsubscribeTokens({ key: Buffer.alloc(32, 1), now: () => now });

  it("verifies its own token until 30 days have passed", () => {
    const token = tokens.create(claims);
    expect(tokens.verify(token)).toEqual(claims);
    now += UNSUBSCRIBE_LINK_LIFETIME_MS + 1;
    expect(() => tokens.verify(token)).toThrow(
      expect.objectContaining({ code: "VERIFICATION_CODE_EXPIRED" }),
    );
  });

  it("refuses a changed payload, a token of another key and garbage", () => {
    const token = tokens.create(claims);
    const [payload, signature] = token.split(".");
    const forged = Buffer.from(JSON.stringify(["p1", claims.userId, "c2", Number.MAX_SAFE_INTEGER])).toString(
      "base64url",
    );
    const other = createUnsubscribeTokens({ key: Buffer.alloc(32, 2), now: () => now }).create(claims);
    for (const bad of [`${forged}.${signature}`, other, `${payload}.`, "", "a.b.c"]) {
      expect(() => tokens.verify(bad)).toThrow(
        expect.objectContaining({ code: "VERIFICATION_CODE_NOT_FOUND" }),
      );
    }
  });
});
