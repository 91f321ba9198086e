// RFC 6238 TOTP (HMAC-SHA1, 30-second steps, 6 digits) with WebCrypto, and the base32 text and otpauth:// URI an
// authenticator app reads: the account settings check a new secret against a code before saving it, so a person
// whose app was set up wrongly is not locked out by a second factor they cannot produce.
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const STEP_SECONDS = 30;

/** RFC 4648 base32 without padding (what authenticator apps expect). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** The bytes of base32 text (case, spaces and padding ignored); null when it has other characters. */
export function base32Decode(text: string): Uint8Array | null {
  const clean = text.toUpperCase().replace(/[\s=]/g, "");
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/** The TOTP value of `secret` at `timeMs` (HOTP of the 30-second step counter, RFC 4226 dynamic truncation). */
export async function totpAt(secret: Uint8Array, timeMs: number, digits = 6): Promise<string> {
  const counter = Math.floor(timeMs / 1000 / STEP_SECONDS);
  const message = new DataView(new ArrayBuffer(8));
  message.setUint32(0, Math.floor(counter / 2 ** 32));
  message.setUint32(4, counter >>> 0);
  const key = await crypto.subtle.importKey(
    "raw",
    new Uint8Array(secret),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message.buffer));
  const offset = (mac[19] as number) & 15;
  const binary = new DataView(mac.buffer).getUint32(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** True when `code` is the value of the step at `nowMs` or of the step before or after (clock drift). */
export async function verifyTotp(secret: Uint8Array, code: string, nowMs: number): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  for (const drift of [0, -1, 1]) {
    if ((await totpAt(secret, nowMs + drift * STEP_SECONDS * 1000)) === code) return true;
  }
  return false;
}

/** The otpauth:// URI of the key URI format (what the QR code holds). */
export function otpauthUri(options: { secret: Uint8Array; issuer: string; label: string }): string {
  const label = `${encodeURIComponent(options.issuer)}:${encodeURIComponent(options.label)}`;
  const query = new URLSearchParams({
    secret: base32Encode(options.secret),
    issuer: options.issuer,
    algorithm: "SHA1",
    digits: "6",
    period: String(STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query}`;
}
