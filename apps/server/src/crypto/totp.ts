// TOTP (RFC 6238) as WIRE.md §4.3 fixes it: HMAC-SHA-1, 30-second time steps, 6 digits, the current step and the one
// before accepted (a code typed just before its step ended still works; a code from the future never does). Time
// always comes from the caller, i.e. the injected clock.
import { HOTP, Secret } from "otpauth";
import { constantTimeEqual } from "./hash.ts";

export const TOTP_STEP_SECONDS = 30;
const TOTP_DIGITS = 6;

/** The RFC 6238 time step (T) at `now`. */
export function totpStepAt(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_STEP_SECONDS);
}

/** The 6-digit value of a base64 secret (as `totp_secret_base64` carries it) at a time step. */
export function totpAt(secretBase64: string, step: number): string {
  // A copy: a small Buffer is a view into a shared pool, and `Secret` takes the whole underlying ArrayBuffer.
  const secret = new Secret({ buffer: new Uint8Array(Buffer.from(secretBase64, "base64")).buffer });
  return HOTP.generate({ secret, algorithm: "SHA1", digits: TOTP_DIGITS, counter: step });
}

/** The time step `token` belongs to (the current one or the one before), or null when it matches neither. */
export function matchTotp(secretBase64: string, token: string, now: Date): number | null {
  if (!/^[0-9]{6}$/.test(token)) return null;
  const current = totpStepAt(now);
  for (const step of [current, current - 1]) {
    if (constantTimeEqual(totpAt(secretBase64, step), token)) return step;
  }
  return null;
}
