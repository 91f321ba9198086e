// Imported password hashes: each supported format, made here with the real algorithm, verifies its password and
// refuses a wrong one; malformed strings, unsupported algorithms and excessive parameters do not parse.
import { pbkdf2Sync, randomBytes, scryptSync } from "node:crypto";
import { hash as argon2Hash } from "@node-rs/argon2";
import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { parsePasswordHash, verifyPasswordHash } from "./imported-hash.ts";

const PASSWORD = "correct horse battery staple";
const WRONG = "correct horse battery stapler";
const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");

function scryptPhc(password: string, ln: number, r: number, p: number, salt = randomBytes(16)) {
  const key = scryptSync(password, salt, 32, { N: 2 ** ln, r, p });
  return `$scrypt$ln=${ln},r=${r},p=${p}$${b64(salt)}$${b64(key)}`;
}

function pbkdf2Phc(
  password: string,
  digest: "sha256" | "sha512",
  iterations: number,
  salt = randomBytes(16),
) {
  const key = pbkdf2Sync(password, salt, iterations, digest === "sha256" ? 32 : 64, digest);
  return `$pbkdf2-${digest}$i=${iterations}$${b64(salt)}$${b64(key)}`;
}

async function expectVerifies(stored: string, kind: string) {
  expect(parsePasswordHash(stored)?.kind).toBe(kind);
  expect(await verifyPasswordHash(stored, PASSWORD)).toBe(true);
  expect(await verifyPasswordHash(stored, WRONG)).toBe(false);
  expect(await verifyPasswordHash(stored, "")).toBe(false);
}

describe("bcrypt", () => {
  it("verifies $2a$, $2b$ and $2y$ hashes", async () => {
    const made = await bcrypt.hash(PASSWORD, 6);
    expect(made.startsWith("$2b$06$")).toBe(true);
    for (const prefix of ["$2a$", "$2b$", "$2y$"]) {
      await expectVerifies(prefix + made.slice(4), "bcrypt");
    }
  });

  it("refuses costs outside 4-16 and broken strings", async () => {
    const made = await bcrypt.hash(PASSWORD, 4);
    expect(parsePasswordHash(made.replace("$04$", "$17$"))).toBeUndefined();
    expect(parsePasswordHash(made.replace("$04$", "$03$"))).toBeUndefined();
    expect(parsePasswordHash(`$2x$${made.slice(4)}`)).toBeUndefined();
    expect(parsePasswordHash(made.slice(0, -1))).toBeUndefined();
    expect(parsePasswordHash(`${made}A`)).toBeUndefined();
  });
});

describe("argon2", () => {
  it("verifies argon2id and argon2i PHC strings with their own parameters", async () => {
    // `algorithm`: 1 = Argon2i, 2 = Argon2id (const enum values).
    const argon2i = await argon2Hash(PASSWORD, {
      algorithm: 1,
      memoryCost: 4096,
      timeCost: 3,
      parallelism: 1,
    });
    expect(argon2i.startsWith("$argon2i$v=19$m=4096,t=3,p=1$")).toBe(true);
    await expectVerifies(argon2i, "argon2");
    const argon2id = await argon2Hash(PASSWORD, {
      algorithm: 2,
      memoryCost: 8192,
      timeCost: 1,
      parallelism: 2,
    });
    expect(argon2id.startsWith("$argon2id$v=19$m=8192,t=1,p=2$")).toBe(true);
    await expectVerifies(argon2id, "argon2");
  });

  it("refuses argon2d, excessive parameters and mangled base64", async () => {
    const made = await argon2Hash(PASSWORD, { algorithm: 2, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    expect(parsePasswordHash(made.replace("$argon2id$", "$argon2d$"))).toBeUndefined();
    expect(parsePasswordHash(made.replace("m=4096", "m=2097152"))).toBeUndefined();
    expect(parsePasswordHash(made.replace("t=1", "t=33"))).toBeUndefined();
    expect(parsePasswordHash(made.replace("p=1", "p=0"))).toBeUndefined();
    expect(parsePasswordHash(made.replace("v=19", "v=20"))).toBeUndefined();
    expect(parsePasswordHash(`${made}=`)).toBeUndefined();
    expect(parsePasswordHash(made.replace(/\$[^$]+\$([^$]+)$/, "$$c2FsdA$$$1"))).toBeUndefined();
  });
});

describe("scrypt", () => {
  it("verifies PHC strings with their cost, block size and parallelism", async () => {
    await expectVerifies(scryptPhc(PASSWORD, 10, 8, 1), "scrypt");
    await expectVerifies(scryptPhc(PASSWORD, 8, 4, 2), "scrypt");
  });

  it("verifies a key of any length from 16 bytes, and a password with non-ASCII characters", async () => {
    const salt = randomBytes(12);
    const key = scryptSync("pässwörd ✓", salt, 16, { N: 2 ** 6, r: 8, p: 1 });
    const stored = `$scrypt$ln=6,r=8,p=1$${b64(salt)}$${b64(key)}`;
    expect(await verifyPasswordHash(stored, "pässwörd ✓")).toBe(true);
    expect(await verifyPasswordHash(stored, "passwort ✓")).toBe(false);
  });

  it("refuses memory above 256 MiB, short keys and padded base64", () => {
    const good = scryptPhc(PASSWORD, 4, 8, 1);
    expect(parsePasswordHash(good.replace("ln=4,r=8", "ln=19,r=8"))).toBeUndefined();
    expect(parsePasswordHash(good.replace("ln=4", "ln=0"))).toBeUndefined();
    expect(parsePasswordHash(good.replace("p=1", "p=17"))).toBeUndefined();
    const salt = randomBytes(16);
    const short = scryptSync(PASSWORD, salt, 8, { N: 16, r: 8, p: 1 });
    expect(parsePasswordHash(`$scrypt$ln=4,r=8,p=1$${b64(salt)}$${b64(short)}`)).toBeUndefined();
    expect(parsePasswordHash(`${good}==`)).toBeUndefined();
  });
});

describe("PBKDF2", () => {
  it("verifies sha256 and sha512 PHC strings", async () => {
    await expectVerifies(pbkdf2Phc(PASSWORD, "sha256", 1000), "pbkdf2");
    await expectVerifies(pbkdf2Phc(PASSWORD, "sha512", 2000), "pbkdf2");
  });

  it("refuses other digests, zero or excessive iterations and other spellings", () => {
    const good = pbkdf2Phc(PASSWORD, "sha256", 1000);
    expect(parsePasswordHash(good.replace("pbkdf2-sha256", "pbkdf2-sha1"))).toBeUndefined();
    expect(parsePasswordHash(good.replace("i=1000", "i=0"))).toBeUndefined();
    expect(parsePasswordHash(good.replace("i=1000", "i=10000001"))).toBeUndefined();
    // passlib's own spelling: rounds without `i=`.
    expect(parsePasswordHash(good.replace("i=1000", "1000"))).toBeUndefined();
    expect(parsePasswordHash(good.replace(/\$([^$]+)$/, "$$not base64!"))).toBeUndefined();
  });
});

describe("anything else", () => {
  it("does not parse and never verifies", async () => {
    for (const stored of [
      "",
      PASSWORD,
      "$1$saltsalt$abcdefghijklmnopqrstuv",
      "$5$rounds=5000$salt$hash",
      "5f4dcc3b5aa765d61d8327deb882cf99",
      "$argon2id$v=19$m=19456,t=2,p=1",
      "$scrypt$ln=4,r=8,p=1$$",
    ]) {
      expect(parsePasswordHash(stored), stored).toBeUndefined();
      expect(await verifyPasswordHash(stored, PASSWORD), stored).toBe(false);
    }
  });
});
