// For the sign-in pages' tests: users made through the admin API (with a password, optionally with TOTP), the
// authenticator app's current code (otpauth, at the test server's fixed clock), and unique e-mail addresses.
import { Secret, TOTP } from "otpauth";
import type { LiveSetup } from "../../test-support/live.ts";

export const PASSWORD = "correct horse battery";

let counter = 0;
export const uniqueEmail = (name: string) => `${name}-${Date.now()}-${++counter}@example.com`;

/** A TOTP secret as `totp_secret_base64` carries it (20 bytes). */
export const TOTP_SECRET = Buffer.from("0123456789abcdefghij").toString("base64");

/** A user with a verified, sign-in e-mail and a password (and TOTP when `totp`). */
export async function createUser(live: LiveSetup, email: string, options: { totp?: boolean } = {}) {
  const user = await live.admin("POST", "/users", {
    primary_email: email,
    primary_email_verified: true,
    primary_email_auth_enabled: true,
    password: PASSWORD,
    ...(options.totp ? { totp_secret_base64: TOTP_SECRET } : {}),
  });
  return user as { id: string };
}

/** The authenticator app's code now (by the server's clock), `offsetSteps` 30-second steps away. */
export function totpNow(live: LiveSetup, offsetSteps = 0): string {
  return TOTP.generate({
    secret: Secret.fromHex(Buffer.from(TOTP_SECRET, "base64").toString("hex")),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
    timestamp: live.server.clock.now().getTime() + offsetSteps * 30_000,
  });
}

/** A code that is not the current one nor the one before (the server accepts both). */
export function wrongTotp(live: LiveSetup): string {
  const taken = new Set([totpNow(live), totpNow(live, -1)]);
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!taken.has(candidate)) return candidate;
  }
}
