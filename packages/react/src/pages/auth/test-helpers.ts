// For the sign-in pages' tests (and the components' and team invitation's): the live server of a suite with the
// clean-up after each test, users made through the admin API (with a password, optionally with TOTP), the
// authenticator app's current code (otpauth, at the test server's fixed clock), and unique e-mail addresses.
import { cleanup } from "@testing-library/react";
import { Secret, TOTP } from "otpauth";
import { afterAll, afterEach, beforeAll, vi } from "vitest";
import { createLive, type LiveProjectConfig, type LiveSetup } from "../../test-support/live.ts";

/**
 * The live server of the enclosing file or describe: made before its tests (a project with `config`), closed after
 * them; after each test the screen is cleaned up, spies restored and the recorded navigations cleared. Called where
 * the suite is declared, it answers an object that stands for the server once the suite's hooks have started it.
 */
export function liveSuite(config?: LiveProjectConfig): LiveSetup {
  let live: LiveSetup | undefined;
  beforeAll(async () => {
    live = await createLive(config);
  });
  afterAll(() => live?.close());
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    if (live) live.navigations.length = 0;
  });
  return new Proxy({} as LiveSetup, {
    get(_, key) {
      if (!live)
        throw new Error("The live server is started by the suite's beforeAll: use it in hooks and tests.");
      return Reflect.get(live, key);
    },
  });
}

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
