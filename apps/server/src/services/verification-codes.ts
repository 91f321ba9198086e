// The one verification-code mechanism (WIRE.md §5.1) behind every e-mailed code and every challenge: create a code,
// check it without using it, or use it once, with a per-nonce attempt limit.
import { randomUUID } from "node:crypto";
import { KnownErrors } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import { randomCrockford } from "../crypto/random.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { createVerificationCodesRepo, type VerificationCodeRow } from "../db/verification-codes-repo.ts";

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

/**
 * Lifetime and attempt limit per purpose. Sign-in and MFA codes are short and allow 5 attempts (Stack Auth: 7 days
 * and 20): a 6-character OTP has only 30 bits, so guesses must be few and the window short.
 */
export const VERIFICATION_CODE_PURPOSES = {
  sign_in: { lifetimeMs: 10 * MINUTE, maxAttempts: 5 },
  mfa_attempt: { lifetimeMs: 5 * MINUTE, maxAttempts: 5 },
  password_reset: { lifetimeMs: 7 * DAY, maxAttempts: 20 },
  email_verification: { lifetimeMs: 7 * DAY, maxAttempts: 20 },
  team_invitation: { lifetimeMs: 7 * DAY, maxAttempts: 20 },
  passkey_registration: { lifetimeMs: 65 * 1000, maxAttempts: 20 },
  passkey_authentication: { lifetimeMs: 65 * 1000, maxAttempts: 20 },
  /** [GO] A pending OAuth sign-in, keyed by the inner state sent to the provider (WIRE.md §4.5). */
  oauth_flow: { lifetimeMs: 10 * MINUTE, maxAttempts: 20 },
  /** The code the OAuth callback hands to the app for `POST /auth/oauth/token` (WIRE.md §3.5). */
  oauth_authorization_code: { lifetimeMs: 5 * MINUTE, maxAttempts: 20 },
  /** [GO] A pending SSO sign-in (sso/flow.ts), keyed by the state sent to the identity provider. */
  sso_flow: { lifetimeMs: 10 * MINUTE, maxAttempts: 20 },
} as const satisfies Record<string, { lifetimeMs: number; maxAttempts: number }>;

export type VerificationCodePurpose = keyof typeof VERIFICATION_CODE_PURPOSES;

/** 45 characters = 225 random bits; the last 39 are the nonce the SDK gets back from send-sign-in-code. */
export const CODE_LENGTH = 45;
const NONCE_LENGTH = 39;
const OTP_LENGTH = 6;

export type CreateCodeInput = {
  projectId: string;
  purpose: VerificationCodePurpose;
  /** Purpose data: e-mail, user id, team id, challenge… */
  data: Record<string, unknown>;
  /** Already checked against the project's trusted domains by the caller. */
  callbackUrl?: string;
};

export type SubmittedCode = { projectId: string; purpose: VerificationCodePurpose; code: string };

/** What the magic_link e-mail shows as `otp`: the first 6 characters in upper case. */
export function otpOf(code: string): string {
  return code.slice(0, OTP_LENGTH).toUpperCase();
}

/** `callbackUrl` with `code=<code>` set: an existing `code` parameter is replaced, the others are kept. */
export function buildCodeLink(callbackUrl: string, code: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set("code", code);
  return url.toString();
}

/**
 * Input is lower-cased. For sign-in the user types the 6-character OTP, so there `o` reads as `0` and `i`, `l` as
 * `1` (Crockford's substitutions; generated codes never contain those letters, so no valid code is lost).
 */
export function normaliseCode(purpose: VerificationCodePurpose, code: string): string {
  const lower = code.toLowerCase();
  if (purpose !== "sign_in") return lower;
  const otp = lower.slice(0, OTP_LENGTH).replace(/o/g, "0").replace(/[il]/g, "1");
  return otp + lower.slice(OTP_LENGTH);
}

/**
 * Transaction contract:
 * - `create` takes the caller's transaction, so the code exists only if the change that sent it commits.
 * - `check` and `use` take no transaction and must not be called inside one. The attempt count is bumped in its own
 *   autocommitted statement first, because it must persist even when the check (or the caller) fails: a rolled-back
 *   count would give unlimited guesses. (On PGlite, with one connection, a call inside a transaction would also
 *   deadlock.) `use` then opens its own transaction, consumes the code with a conditional UPDATE and runs `action`
 *   in it: if `action` throws, the code stays unused, and of two concurrent uses only one gets the row.
 */
export function createVerificationCodeService(deps: { db: Db; clock: Clock }) {
  const repo = createVerificationCodesRepo();

  /** Counts the submission against its nonce, then finds the code and rejects it in WIRE.md's order. */
  async function validate(input: SubmittedCode): Promise<VerificationCodeRow> {
    const code = normaliseCode(input.purpose, input.code);
    const now = deps.clock.now();
    await repo.bumpAttempts(deps.db, input.projectId, sha256Hex(code.slice(-NONCE_LENGTH)), now);
    const row = await repo.find(deps.db, input.projectId, input.purpose, sha256Hex(code));
    if (!row) throw KnownErrors.VERIFICATION_CODE_NOT_FOUND();
    // expires_at is the first instant the code is no longer valid.
    if (row.expiresAt.getTime() <= now.getTime()) throw KnownErrors.VERIFICATION_CODE_EXPIRED();
    if (row.usedAt) throw KnownErrors.VERIFICATION_CODE_ALREADY_USED();
    if (row.attempts > VERIFICATION_CODE_PURPOSES[input.purpose].maxAttempts) {
      throw KnownErrors.VERIFICATION_CODE_MAX_ATTEMPTS_REACHED();
    }
    return row;
  }

  return {
    /** Creates a code. The returned code, nonce and link are the only time the plaintext exists. */
    async create(tx: Db, input: CreateCodeInput) {
      const code = randomCrockford(CODE_LENGTH);
      const nonce = code.slice(-NONCE_LENGTH);
      const now = deps.clock.now();
      const row = await repo.insert(tx, {
        id: randomUUID(),
        projectId: input.projectId,
        purpose: input.purpose,
        // Only hashes are stored: a database leak must not hand out working codes.
        codeHash: sha256Hex(code),
        nonceHash: sha256Hex(nonce),
        redirectUrl: input.callbackUrl ?? null,
        data: input.data,
        createdAt: now,
        expiresAt: new Date(now.getTime() + VERIFICATION_CODE_PURPOSES[input.purpose].lifetimeMs),
      });
      const link = input.callbackUrl === undefined ? undefined : buildCodeLink(input.callbackUrl, code);
      return { id: row.id, code, nonce, link };
    },

    /** The code's record if it could be used now; does not use it. Not inside a transaction (see above). */
    check(input: SubmittedCode): Promise<VerificationCodeRow> {
      return validate(input);
    },

    /**
     * The code's record by its hash alone, in any project and state, without counting an attempt. Only for codes
     * of 225 random bits that cannot be guessed, where the project is not known yet (the OAuth callback's state) or
     * a used code must be read (a replayed authorization code).
     */
    find(purpose: VerificationCodePurpose, code: string): Promise<VerificationCodeRow | undefined> {
      return repo.findAnywhere(deps.db, purpose, sha256Hex(normaliseCode(purpose, code)));
    },

    /** Records what using a code produced, in the transaction that uses it. */
    annotate(tx: Db, id: string, data: Record<string, unknown>): Promise<void> {
      return repo.mergeData(tx, id, data);
    },

    /**
     * Uses the code once and runs `action` in the transaction that marks it used. Not inside a transaction (see
     * above).
     */
    async use<T>(
      input: SubmittedCode,
      action: (tx: Db, code: VerificationCodeRow) => Promise<T>,
      /** Runs on the valid code before its transaction opens: a check that must persist whatever `action` does. */
      before?: (code: VerificationCodeRow) => Promise<void>,
    ): Promise<T> {
      const row = await validate(input);
      await before?.(row);
      return inTransaction(deps.db, async (tx) => {
        const used = await repo.markUsed(tx, row.id, deps.clock.now());
        // Another use consumed it between our read and this update.
        if (!used) throw KnownErrors.VERIFICATION_CODE_ALREADY_USED();
        return action(tx, used);
      });
    },
  };
}

export type VerificationCodeService = ReturnType<typeof createVerificationCodeService>;
