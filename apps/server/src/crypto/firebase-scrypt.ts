// Firebase Auth's modified scrypt, as its `auth:export` hashes are made: scrypt(password, salt + salt separator,
// N = 2^mem_cost, r = rounds, p = 1, 32 bytes), then that key AES-256-CTR-encrypts the project's signer key (zero IV);
// the ciphertext is the stored hash. Gatehouse stores it as one PHC-like string that carries the project parameters:
// `$firebase-scrypt$m=<mem_cost>,r=<rounds>$<signer key>$<salt separator>$<salt>$<hash>` (unpadded base64).
import { createCipheriv, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

export type FirebaseScryptHash = {
  kind: "firebase-scrypt";
  memCost: number;
  rounds: number;
  signerKey: Buffer;
  saltSeparator: Buffer;
  salt: Buffer;
  hash: Buffer;
};

const B64 = "([A-Za-z0-9+/]*)";
const FORMAT = new RegExp(
  `^\\$firebase-scrypt\\$m=(\\d{1,2}),r=(\\d{1,2})\\$${B64}\\$${B64}\\$${B64}\\$${B64}$`,
);
/** Firebase's own parameters are mem_cost 14, rounds 8; the bounds keep one verification under 256 MiB. */
const MAX_MEMORY_BYTES = 256 * 1024 * 1024;

/** Firebase exports standard or URL-safe base64, padded; this reads both. */
export const firebaseBase64 = (text: string) =>
  Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
const unpadded = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");

/** The stored string for one exported user, with the project's hash parameters from the Firebase console. */
export function formatFirebaseScrypt(input: {
  memCost: number;
  rounds: number;
  signerKey: string;
  saltSeparator: string;
  salt: string;
  passwordHash: string;
}): string {
  const parts = [input.signerKey, input.saltSeparator, input.salt, input.passwordHash].map((part) =>
    unpadded(firebaseBase64(part)),
  );
  return `$firebase-scrypt$m=${input.memCost},r=${input.rounds}$${parts.join("$")}`;
}

/** Strict: canonical unpadded base64, a 32-byte hash and key-sized signer key, bounded work. */
export function parseFirebaseScrypt(stored: string): FirebaseScryptHash | undefined {
  const match = FORMAT.exec(stored);
  if (!match) return;
  const [memCost, rounds] = [Number(match[1]), Number(match[2])];
  if (memCost < 1 || rounds < 1 || 128 * 2 ** memCost * rounds > MAX_MEMORY_BYTES) return;
  const decoded = match.slice(3, 7).map((part) => {
    const bytes = Buffer.from(part ?? "", "base64");
    return unpadded(bytes) === part ? bytes : undefined;
  });
  const [signerKey, saltSeparator, salt, hash] = decoded;
  if (!signerKey || !saltSeparator || !salt || !hash) return;
  // A hash shorter than 16 bytes would make guessing cheap; Firebase's signer keys are 64 bytes.
  if (signerKey.length < 16 || hash.length !== signerKey.length || salt.length < 8) return;
  return { kind: "firebase-scrypt", memCost, rounds, signerKey, saltSeparator, salt, hash };
}

export async function verifyFirebaseScrypt(parsed: FirebaseScryptHash, password: string): Promise<boolean> {
  const N = 2 ** parsed.memCost;
  const derived = await scryptAsync(password, Buffer.concat([parsed.salt, parsed.saltSeparator]), 32, {
    N,
    r: parsed.rounds,
    p: 1,
    maxmem: 128 * parsed.rounds * (N + 3) + 1024 * 1024,
  });
  const cipher = createCipheriv("aes-256-ctr", derived, Buffer.alloc(16, 0));
  const computed = Buffer.concat([cipher.update(parsed.signerKey), cipher.final()]);
  return computed.length === parsed.hash.length && timingSafeEqual(computed, parsed.hash);
}
