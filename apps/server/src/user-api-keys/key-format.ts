// The text of user and team API keys, in Stack Auth's format so secret scanners that know Stack's keys know ours:
// `sk_` (or `pk_` when public), 45 random characters, the key id, `user`/`team`, a flag, a marker, a CRC-32.
import { crc32 } from "node:zlib";
import type { OwnedApiKeyType } from "@gatehouse/contract";
import { CROCKFORD_ALPHABET, randomCrockford } from "../crypto/random.ts";

/** Stack's fixed marker ("stackauth" in leetspeak): what scanners look for. */
const MARKER = "574ck4u7h";

const KEY_PATTERN = new RegExp(
  `^(sk|pk)_([0-9a-z]{45})([0-9a-f]{32})(user|team)([0-9a-z])${MARKER}([0-9a-f]{8})$`,
);

/** CRC-32 of the key's body in 8 hex digits: lets a scanner reject look-alikes without asking anyone. */
const checksumOf = (body: string) => crc32(body).toString(16).padStart(8, "0");

/**
 * A new key for key `id`. The flag character is Stack's: bit 0 set for a self-hosted (not Stack-cloud) key, which
 * every Gatehouse key is, bit 1 set for a public key. The 45 random characters carry 225 bits.
 */
export function formatOwnedApiKey(options: { id: string; type: OwnedApiKeyType; isPublic: boolean }): string {
  const flag = CROCKFORD_ALPHABET[1 + (options.isPublic ? 2 : 0)];
  const body = `${options.isPublic ? "pk" : "sk"}_${randomCrockford(45)}${options.id.replace(/-/g, "")}${options.type}${flag}${MARKER}`;
  return `${body}${checksumOf(body)}`;
}

/** The key id and type a well-formed key names, or undefined when the text is not one (or its checksum is wrong). */
export function parseOwnedApiKey(text: string): { id: string; type: OwnedApiKeyType } | undefined {
  const match = KEY_PATTERN.exec(text);
  if (!match) return undefined;
  const [, , , hex = "", type, , checksum] = match;
  if (checksumOf(text.slice(0, -8)) !== checksum) return undefined;
  const id = hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
  return { id, type: type as OwnedApiKeyType };
}
