// The TOTP helpers against the RFC 6238 appendix B vectors (SHA-1) and RFC 4648 base32 vectors.
import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, otpauthUri, totpAt, verifyTotp } from "./totp.ts";

const secret = new TextEncoder().encode("12345678901234567890");

describe("totp", () => {
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ])("RFC 6238 vector at %i s is %s", async (seconds, expected) => {
    expect(await totpAt(secret, seconds * 1000, 8)).toBe(expected);
    expect(await totpAt(secret, seconds * 1000)).toBe(expected.slice(2));
  });

  it("accepts the current step and one step either side, nothing further", async () => {
    const now = 1111111111 * 1000;
    expect(await verifyTotp(secret, "050471", now)).toBe(true);
    expect(await verifyTotp(secret, await totpAt(secret, now - 30_000), now)).toBe(true);
    expect(await verifyTotp(secret, await totpAt(secret, now + 30_000), now)).toBe(true);
    expect(await verifyTotp(secret, await totpAt(secret, now - 60_000), now)).toBe(false);
    expect(await verifyTotp(secret, "05047", now)).toBe(false);
    expect(await verifyTotp(secret, "abcdef", now)).toBe(false);
  });
});

describe("base32", () => {
  it.each([
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ])("RFC 4648 vector %j", (plain, encoded) => {
    expect(base32Encode(new TextEncoder().encode(plain))).toBe(encoded);
    expect(new TextDecoder().decode(base32Decode(`${encoded.toLowerCase()}==`) ?? undefined)).toBe(plain);
  });

  it("round-trips 20 random bytes and refuses foreign characters", () => {
    const bytes = crypto.getRandomValues(new Uint8Array(20));
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(base32Decode("ABC1")).toBeNull();
  });
});

describe("otpauthUri", () => {
  it("names issuer and account and carries the base32 secret", () => {
    const uri = new URL(otpauthUri({ secret, issuer: "My App", label: "a@b.c" }));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/My App:a@b.c");
    expect(uri.searchParams.get("secret")).toBe(base32Encode(secret));
    expect(uri.searchParams.get("issuer")).toBe("My App");
  });
});
