// Stored password hashes of every kind Gatehouse reads (WIRE.md §4.8 `password_hash`): its own argon2id, and hashes
// imported from other systems — bcrypt, argon2i/argon2id, scrypt and PBKDF2 PHC strings, and
// Firebase's modified scrypt (firebase-scrypt.ts). Parsing decides what an
// import may store; verification checks a password with the hash's own algorithm until sign-in rehashes it.
import { pbkdf2, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { verify as verifyArgon2 } from "@node-rs/argon2";
import bcrypt from "bcryptjs";
import { type FirebaseScryptHash, parseFirebaseScrypt, verifyFirebaseScrypt } from "./firebase-scrypt.ts";

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/**
 * Upper bounds on the work parameters, so that a hostile or mistaken import cannot make one sign-in take minutes or
 * gigabytes. They sit well above what real systems use (bcrypt 10-14, scrypt ln 14-17, argon2 m up to 1 GiB).
 */
const LIMITS = {
  bcryptCost: 16,
  argon2MemoryKiB: 1024 * 1024,
  argon2Time: 32,
  argon2Lanes: 16,
  scryptMemoryBytes: 256 * 1024 * 1024,
  scryptLanes: 16,
  pbkdf2Iterations: 10_000_000,
};
/** Shorter derived keys make guessing feasible; 16 bytes is what the weakest common configurations use. */
const MIN_KEY_BYTES = 16;
const MIN_SALT_BYTES = 8;

export type ParsedHash =
  | { kind: "bcrypt" }
  | { kind: "argon2" }
  | { kind: "scrypt"; cost: number; blockSize: number; parallelization: number; salt: Buffer; key: Buffer }
  | { kind: "pbkdf2"; digest: "sha256" | "sha512"; iterations: number; salt: Buffer; key: Buffer }
  | FirebaseScryptHash;

const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const B64 = "([A-Za-z0-9+/]+)";
const ARGON2 = new RegExp(
  `^\\$argon2(?:id|i)\\$v=(?:16|19)\\$m=(\\d{1,8}),t=(\\d{1,3}),p=(\\d{1,3})\\$${B64}\\$${B64}$`,
);
const SCRYPT = new RegExp(`^\\$scrypt\\$ln=(\\d{1,2}),r=(\\d{1,3}),p=(\\d{1,3})\\$${B64}\\$${B64}$`);
const PBKDF2 = new RegExp(`^\\$pbkdf2-(sha256|sha512)\\$i=(\\d{1,8})\\$${B64}\\$${B64}$`);

/** Unpadded base64 in its one canonical spelling (so a stray character cannot be silently dropped). */
function unpaddedBase64(text: string | undefined): Buffer | undefined {
  if (text === undefined) return undefined;
  const bytes = Buffer.from(text, "base64");
  return bytes.toString("base64").replace(/=+$/, "") === text ? bytes : undefined;
}

const saltAndKey = (salt: string | undefined, key: string | undefined) => {
  const saltBytes = unpaddedBase64(salt);
  const keyBytes = unpaddedBase64(key);
  if (!saltBytes || !keyBytes || saltBytes.length < MIN_SALT_BYTES || keyBytes.length < MIN_KEY_BYTES) return;
  return { salt: saltBytes, key: keyBytes };
};

const inRange = (value: number, min: number, max: number) => value >= min && value <= max;

function parseArgon2(match: RegExpExecArray): ParsedHash | undefined {
  const [memory, time, lanes] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!inRange(lanes, 1, LIMITS.argon2Lanes) || !inRange(time, 1, LIMITS.argon2Time)) return;
  if (!inRange(memory, 8 * lanes, LIMITS.argon2MemoryKiB)) return;
  return saltAndKey(match[4], match[5]) && { kind: "argon2" };
}

function parseScrypt(match: RegExpExecArray): ParsedHash | undefined {
  const [logCost, blockSize, parallelization] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const cost = 2 ** logCost;
  if (logCost < 1 || blockSize < 1 || !inRange(parallelization, 1, LIMITS.scryptLanes)) return;
  if (128 * cost * blockSize > LIMITS.scryptMemoryBytes) return;
  const parts = saltAndKey(match[4], match[5]);
  return parts && { kind: "scrypt", cost, blockSize, parallelization, ...parts };
}

function parsePbkdf2(match: RegExpExecArray): ParsedHash | undefined {
  const iterations = Number(match[2]);
  if (!inRange(iterations, 1, LIMITS.pbkdf2Iterations)) return;
  const parts = saltAndKey(match[3], match[4]);
  return parts && { kind: "pbkdf2", digest: match[1] as "sha256" | "sha512", iterations, ...parts };
}

/** The hash's algorithm and parameters, or undefined when Gatehouse cannot (or will not) verify it. */
export function parsePasswordHash(hash: string): ParsedHash | undefined {
  const bcryptMatch = BCRYPT.exec(hash);
  if (bcryptMatch)
    return inRange(Number(bcryptMatch[1]), 4, LIMITS.bcryptCost) ? { kind: "bcrypt" } : undefined;
  const argon2 = ARGON2.exec(hash);
  if (argon2) return parseArgon2(argon2);
  const scryptMatch = SCRYPT.exec(hash);
  if (scryptMatch) return parseScrypt(scryptMatch);
  const pbkdf2Match = PBKDF2.exec(hash);
  if (pbkdf2Match) return parsePbkdf2(pbkdf2Match);
  return parseFirebaseScrypt(hash);
}

/** Whether `password` matches the stored hash. False for a wrong password and for a hash it cannot read. */
export async function verifyPasswordHash(stored: string, password: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  switch (parsed?.kind) {
    case undefined:
      return false;
    case "bcrypt":
      return bcrypt.compare(password, stored);
    case "argon2":
      // The library reads variant, version and parameters from the PHC string itself.
      return verifyArgon2(stored, password);
    case "scrypt": {
      const { cost, blockSize, parallelization, salt, key } = parsed;
      // Node refuses above 32 MiB by default; the parameters were bounded when parsed.
      const maxmem = 128 * blockSize * (cost + parallelization + 2) + 1024 * 1024;
      const derived = await scryptAsync(password, salt, key.length, {
        N: cost,
        r: blockSize,
        p: parallelization,
        maxmem,
      });
      return timingSafeEqual(derived, key);
    }
    case "pbkdf2": {
      const { digest, iterations, salt, key } = parsed;
      return timingSafeEqual(await pbkdf2Async(password, salt, iterations, key.length, digest), key);
    }
    case "firebase-scrypt":
      return verifyFirebaseScrypt(parsed, password);
  }
}
