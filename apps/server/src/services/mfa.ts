// Multi-factor sign-in with TOTP (WIRE.md §4.3): the gate every sign-in passes, the second step that completes a
// paused sign-in, and single-use recovery codes [GO].
//
// THE GATE. Every sign-in path, once its first factor is proven, opens its session with `mfa.open` (in its
// transaction) and mints the tokens with `mfa.issue` (after the commit), never with `sessions.open`/`sessions.issue`
// directly: password and one-time-code sign-in today, passkey sign-in and the OAuth code exchange when they arrive.
// For a user without a TOTP secret these are exactly `sessions.open`/`sessions.issue`. For a user with one, `open`
// writes an MFA attempt code (5 minutes, 5 submissions; data: the user and whether this sign-in created the user)
// instead of a session, and `issue` answers MULTI_FACTOR_AUTHENTICATION_REQUIRED with it. The error comes from
// `issue`, after the commit, so the attempt code and whatever the first step consumed (a one-time code) persist.
// Sessions that are not sign-ins (`POST /auth/sessions` by a server) do not pass the gate, and neither do users
// created by the sign-in itself, who cannot have a secret yet.
//
// THE SECOND STEP. `POST /auth/mfa/sign-in` uses the attempt code with a TOTP value or a recovery code. A wrong one
// leaves the code unused but counts as a submission of it, so five wrong tries use it up. [GF] Each TOTP value signs
// in once: the user's last used time step is recorded, and only a later step is accepted after it. [GF] Failed
// second factors also count per user across IPs and attempt codes (the `mfa_user` rate-limit bucket).
//
// RECOVERY CODES. `POST /auth/mfa/recovery-codes` makes ten new codes and voids the previous ones. Only their
// SHA-256 hashes are stored, bound to the secret they were made for: setting another secret or removing it voids
// them, whichever endpoint does it.
import { KnownErrors } from "@gatehouse/contract";
import type { AuditLog } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import { randomCrockford } from "../crypto/random.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { matchTotp } from "../crypto/totp.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { createMfaRepo } from "../db/mfa-repo.ts";
import type { UserRecord, UsersRepo } from "../db/users-repo.ts";
import { TextError } from "../text-error.ts";
import type { Project } from "./projects.ts";
import type { RateLimiter, Slots } from "./rate-limits.ts";
import type { IssuedSession, SessionService, SignInMethod } from "./sessions.ts";
import type { VerificationCodeService } from "./verification-codes.ts";

export const RECOVERY_CODE_COUNT = 10;

/** A session opened by `open`, or the attempt code that stands in for it. */
export type OpenedSignIn =
  | { session: Awaited<ReturnType<SessionService["open"]>>; isNewUser: boolean }
  | { attemptCode: string };

export type SignedIn = IssuedSession & { isNewUser: boolean };

export type MfaSignInInput = { code: string } & (
  | { type: "totp"; totp: string }
  | { type: "recovery_code"; recovery_code: string }
);

/** `xxxxx-xxxxx` in Crockford base32: 50 random bits, easy to read off a printout and to type. */
function newRecoveryCode(): string {
  const raw = randomCrockford(10);
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/** What is hashed: lower case without separators, Crockford's misreads corrected (o → 0; i, l → 1). */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "").replace(/o/g, "0").replace(/[il]/g, "1");
}

/** Identifies the secret as set: a new `seal` (even of the same secret) is a new enrolment. */
const secretHashOf = (user: UserRecord) => user.sealedTotpSecret && sha256Hex(user.sealedTotpSecret);

export function createMfaService(deps: {
  db: Db;
  clock: Clock;
  codes: VerificationCodeService;
  sessions: SessionService;
  usersRepo: UsersRepo;
  totpBox: SecretBox;
  rateLimits: RateLimiter;
  audit: AuditLog;
}) {
  const repo = createMfaRepo();

  async function proveTotp(tx: Db, user: UserRecord, token: string): Promise<void> {
    const secret = user.sealedTotpSecret && deps.totpBox.open(user.sealedTotpSecret);
    const step = secret ? matchTotp(secret, token, deps.clock.now()) : null;
    if (step === null || !(await repo.claimTotpStep(tx, user.id, step)))
      throw KnownErrors.INVALID_TOTP_CODE();
  }

  async function proveRecoveryCode(tx: Db, user: UserRecord, code: string): Promise<void> {
    const totpSecretHash = secretHashOf(user);
    const used =
      totpSecretHash !== null &&
      (await repo.markRecoveryCodeUsed(tx, {
        userId: user.id,
        totpSecretHash,
        codeHash: sha256Hex(normaliseRecoveryCode(code)),
        now: deps.clock.now(),
      }));
    if (!used) throw new TextError(400, "Invalid recovery code.");
  }

  /** The gate, first half: a session, or for a TOTP user an attempt code. In the caller's transaction. */
  async function open(tx: Db, user: UserRecord, options: SignInMethod): Promise<OpenedSignIn> {
    if (user.sealedTotpSecret === null) {
      return {
        session: await deps.sessions.open(tx, user, { signIn: options }),
        isNewUser: options.isNewUser,
      };
    }
    // The first factor is proven: a banned user learns it now, not after a second factor that leads nowhere.
    deps.sessions.assertMaySignIn(user);
    const { code } = await deps.codes.create(tx, {
      projectId: user.projectId,
      purpose: "mfa_attempt",
      data: { user_id: user.id, is_new_user: options.isNewUser, method: options.method },
    });
    return { attemptCode: code };
  }

  /** The gate, second half, after the commit: the tokens, or MULTI_FACTOR_AUTHENTICATION_REQUIRED. */
  async function issue(opened: OpenedSignIn, project?: Project): Promise<SignedIn> {
    if ("attemptCode" in opened) {
      throw KnownErrors.MULTI_FACTOR_AUTHENTICATION_REQUIRED({ attempt_code: opened.attemptCode });
    }
    return { ...(await deps.sessions.issue(opened.session, project)), isNewUser: opened.isNewUser };
  }

  return {
    open,
    issue,

    /** Completes a paused sign-in: uses the attempt code, proves the second factor and opens the session. */
    async signIn(project: Project, input: MfaSignInInput): Promise<SignedIn> {
      let slots: Slots = { keys: [] };
      const opened = await deps.codes.use(
        { projectId: project.id, purpose: "mfa_attempt", code: input.code },
        async (tx, row) => {
          const userId = row.data.user_id;
          const user =
            typeof userId === "string" ? await deps.usersRepo.find(project.id, userId, tx) : undefined;
          // The user was deleted after the first step.
          if (!user) throw KnownErrors.VERIFICATION_CODE_NOT_FOUND();
          if (input.type === "totp") await proveTotp(tx, user, input.totp);
          else await proveRecoveryCode(tx, user, input.recovery_code);
          const isNewUser = row.data.is_new_user === true;
          const method = `${typeof row.data.method === "string" ? row.data.method : "unknown"}+${input.type}`;
          return {
            session: await deps.sessions.open(tx, user, { signIn: { method, isNewUser } }),
            isNewUser,
          };
        },
        // A slot of the user's second-factor bucket, taken outside the transaction so a wrong code that rolls it
        // back still counts; a right one gives it back below.
        async (row) => {
          if (typeof row.data.user_id === "string")
            slots = await deps.rateLimits.hit("mfa_user", `${project.id}:${row.data.user_id}`);
        },
      );
      await deps.rateLimits.giveBack(slots);
      return issue(opened);
    },

    /** Ten new recovery codes for the user's current TOTP secret, replacing any earlier ones. */
    async generateRecoveryCodes(user: UserRecord): Promise<string[]> {
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await inTransaction(deps.db, async (tx) => {
        // Locked, then read again: generations take turns, and the codes bind to the secret as it is now.
        if (!(await deps.usersRepo.lockUser(tx, user.projectId, user.id))) throw KnownErrors.USER_NOT_FOUND();
        const current = await deps.usersRepo.find(user.projectId, user.id, tx);
        const totpSecretHash = current && secretHashOf(current);
        if (!totpSecretHash) throw new TextError(400, "Set a TOTP secret before generating recovery codes.");
        await repo.replaceRecoveryCodes(tx, {
          projectId: user.projectId,
          userId: user.id,
          totpSecretHash,
          codeHashes: codes.map((code) => sha256Hex(normaliseRecoveryCode(code))),
          now: deps.clock.now(),
        });
        await deps.audit.record(tx, user.projectId, {
          type: "mfa.changed",
          target: { type: "user", id: user.id },
          details: { recovery_codes: "regenerated" },
        });
      });
      return codes;
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;
