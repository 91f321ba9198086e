// The method references a sign-in method leaves on its session (RFC 8176), and the acr derived from them.
import { describe, expect, it } from "vitest";
import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR, acrOf, amrOf } from "./amr.ts";

describe("amr of a sign-in", () => {
  it("names the first factor, and a second factor as otp + mfa", () => {
    expect(amrOf("password")).toEqual(["pwd"]);
    expect(amrOf("otp")).toEqual(["otp"]);
    expect(amrOf("passkey")).toEqual(["hwk"]);
    expect(amrOf("oauth")).toEqual(["fed"]);
    expect(amrOf("password+totp")).toEqual(["pwd", "otp", "mfa"]);
    expect(amrOf("otp+recovery_code")).toEqual(["otp", "mfa"]);
    expect(amrOf("oauth+totp")).toEqual(["fed", "otp", "mfa"]);
  });

  it("names nothing for sessions nobody proved themselves for", () => {
    for (const method of [
      undefined,
      "",
      "server_api",
      "cli",
      "cli_anonymous",
      "anonymous",
      "test",
      "unknown+totp",
    ])
      expect(amrOf(method)).toEqual([]);
  });

  it("derives acr: multi-factor only with mfa, none without any method", () => {
    expect(acrOf(["pwd"])).toBe(ACR_SINGLE_FACTOR);
    expect(acrOf(["pwd", "otp", "mfa"])).toBe(ACR_MULTI_FACTOR);
    expect(acrOf([])).toBeUndefined();
  });
});
