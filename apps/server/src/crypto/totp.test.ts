// TOTP against the SHA-1 test vectors of RFC 6238 Appendix B (8 digits there, so the last 6 here) and the window
// of WIRE.md §4.3: the current step and the one before.
import { describe, expect, it } from "vitest";
import { matchTotp, totpAt, totpStepAt } from "./totp.ts";

/** The RFC's SHA-1 seed, the ASCII string "12345678901234567890", in base64 as `totp_secret_base64` carries it. */
const RFC_SECRET = Buffer.from("12345678901234567890", "ascii").toString("base64");

const RFC_VECTORS: [seconds: number, step: number, eightDigits: string][] = [
  [59, 0x1, "94287082"],
  [1111111109, 0x23523ec, "07081804"],
  [1111111111, 0x23523ed, "14050471"],
  [1234567890, 0x273ef07, "89005924"],
  [2000000000, 0x3f940aa, "69279037"],
  [20000000000, 0x27bc86aa, "65353130"],
];

const at = (seconds: number) => new Date(seconds * 1000);

describe("RFC 6238 Appendix B (SHA-1)", () => {
  it.each(RFC_VECTORS)("at %i s: step %i, value %s", (seconds, step, eightDigits) => {
    expect(totpStepAt(at(seconds))).toBe(step);
    expect(totpAt(RFC_SECRET, step)).toBe(eightDigits.slice(-6));
    expect(matchTotp(RFC_SECRET, eightDigits.slice(-6), at(seconds))).toBe(step);
  });
});

describe("matchTotp", () => {
  const now = at(1111111111);
  const step = totpStepAt(now);

  it("accepts the current step and the one before, and nothing else", () => {
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step), now)).toBe(step);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step - 1), now)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step - 2), now)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step + 1), now)).toBeNull();
  });

  it("counts steps from the epoch: a step ends at each multiple of 30 seconds", () => {
    const value = totpAt(RFC_SECRET, 2);
    expect(matchTotp(RFC_SECRET, value, at(60))).toBe(2);
    expect(matchTotp(RFC_SECRET, value, at(119.999))).toBe(2);
    expect(matchTotp(RFC_SECRET, value, at(59.999))).toBeNull();
    expect(matchTotp(RFC_SECRET, value, at(120))).toBeNull();
  });

  it("refuses anything but six digits", () => {
    const value = totpAt(RFC_SECRET, step);
    for (const token of ["", value.slice(0, 5), `${value}0`, ` ${value}`, "abcdef", "12 456"]) {
      expect(matchTotp(RFC_SECRET, token, now), JSON.stringify(token)).toBeNull();
    }
  });

  it("depends on the secret", () => {
    const other = Buffer.from("another secret of 20b", "ascii").toString("base64");
    expect(matchTotp(other, totpAt(RFC_SECRET, step), now)).toBeNull();
  });
});
