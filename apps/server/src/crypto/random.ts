// Random secrets in the wire's formats. Every value comes from the OS CSPRNG.
import { randomBytes, randomInt } from "node:crypto";

/** Crockford base32 in lowercase: no i, l, o, u, so keys survive being read aloud or retyped. */
export const CROCKFORD_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** `length` characters of Crockford base32, each drawn uniformly (no modulo bias). */
export function randomCrockford(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += CROCKFORD_ALPHABET[randomInt(CROCKFORD_ALPHABET.length)];
  return out;
}

/** Crockford base32 of `bytes`, 5 bits a character, cut to `length` (for tokens derived from a MAC). */
export function crockfordOf(bytes: Uint8Array, length: number): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += CROCKFORD_ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

export type ApiKeyKind = "pck" | "ssk" | "sak";

/** A project key: its prefix and 45 Crockford characters (225 bits), as WIRE.md §4.14 specifies. */
export function generateApiKey(kind: ApiKeyKind): string {
  return `${kind}_${randomCrockford(45)}`;
}

/** A 256-bit server secret, hex encoded. */
export function generateServerSecret(): string {
  return randomBytes(32).toString("hex");
}
