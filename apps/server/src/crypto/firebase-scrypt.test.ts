// Firebase's modified scrypt: the published example vector of Firebase's scrypt tool, and hashes made by an
// independent implementation (the firebase-scrypt package), verify; wrong passwords, altered parameters, malformed
// strings and excessive work parameters do not.
import { randomBytes } from "node:crypto";
import { FirebaseScrypt } from "firebase-scrypt";
import { describe, expect, it } from "vitest";
import { formatFirebaseScrypt, parseFirebaseScrypt } from "./firebase-scrypt.ts";
import { parsePasswordHash, verifyPasswordHash } from "./imported-hash.ts";

// The example in the README of github.com/firebase/scrypt.
const EXAMPLE = {
  signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
  saltSeparator: "Bw==",
  rounds: 8,
  memCost: 14,
  salt: "42xEC+ixf3L2lw==",
  passwordHash: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
};

describe("Firebase scrypt", () => {
  it("verifies the published example vector", async () => {
    const stored = formatFirebaseScrypt(EXAMPLE);
    expect(parsePasswordHash(stored)?.kind).toBe("firebase-scrypt");
    expect(await verifyPasswordHash(stored, "user1password")).toBe(true);
    expect(await verifyPasswordHash(stored, "user1passwore")).toBe(false);
  });

  it("verifies hashes made by an independent implementation, with other project parameters", async () => {
    const params = {
      memCost: 12,
      rounds: 6,
      signerKey: randomBytes(64).toString("base64"),
      saltSeparator: randomBytes(1).toString("base64"),
    };
    const reference = new FirebaseScrypt(params);
    const salt = randomBytes(12).toString("base64");
    const passwordHash: string = await reference.hash("hunter2 but longer", salt);
    const stored = formatFirebaseScrypt({ ...params, salt, passwordHash });
    expect(await verifyPasswordHash(stored, "hunter2 but longer")).toBe(true);
    expect(await verifyPasswordHash(stored, "hunter2 but longer!")).toBe(false);
    // Another project's parameters give another hash.
    const otherRounds = formatFirebaseScrypt({ ...params, rounds: 7, salt, passwordHash });
    expect(await verifyPasswordHash(otherRounds, "hunter2 but longer")).toBe(false);
  });

  it("refuses malformed strings and excessive work", () => {
    const good = formatFirebaseScrypt(EXAMPLE);
    expect(parseFirebaseScrypt(good)).toBeDefined();
    expect(parseFirebaseScrypt(good.replace("m=14", "m=30"))).toBeUndefined();
    expect(parseFirebaseScrypt(good.replace("m=14", "m=0"))).toBeUndefined();
    expect(parseFirebaseScrypt(`${good}=`)).toBeUndefined();
    expect(parseFirebaseScrypt(good.split("$").slice(0, -1).join("$"))).toBeUndefined();
    // A truncated hash is not the signer key's length.
    const parts = good.split("$");
    parts[parts.length - 1] = (parts.at(-1) ?? "").slice(0, 22);
    expect(parseFirebaseScrypt(parts.join("$"))).toBeUndefined();
  });
});
