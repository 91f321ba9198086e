// Password sign-up and sign-in (WIRE.md §4.1). Both paths spend exactly one hash computation whatever the e-mail
// (argon2id, or an imported hash's own algorithm until sign-in replaces it), so neither answers nor timing reveal
// which addresses have accounts. Sessions of existing users open through the MFA gate (services/mfa.ts), only once
// the password has proven right.

import { KnownErrors } from "@gatehouse/contract";
import { storedLocale } from "@gatehouse/contract/locales";
import type { AuditLog } from "../audit/log.ts";
import type { PasswordHasher } from "../crypto/password.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { constraintOf, isUniqueViolation } from "../db/errors.ts";
import type { UserRecord, UsersRepo } from "../db/users-repo.ts";
import { TextError } from "../text-error.ts";
import type { PasswordPolicy } from "../trust/password-policy.ts";
import type { EmailVerification } from "./email-verification.ts";
import type { EmailService } from "./emails.ts";
import type { MfaService } from "./mfa.ts";
import type { Project } from "./projects.ts";
import type { RateLimiter } from "./rate-limits.ts";
import type { SessionService } from "./sessions.ts";
import { assertTrustedUrl } from "./trusted-urls.ts";
import type { UserService } from "./users.ts";
import type { VerificationCodeService } from "./verification-codes.ts";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Length in Unicode code points, as WIRE.md §4.1 counts it. */
export function assertPasswordLength(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) throw KnownErrors.PASSWORD_TOO_SHORT({ min_length: PASSWORD_MIN_LENGTH });
  if (length > PASSWORD_MAX_LENGTH) throw KnownErrors.PASSWORD_TOO_LONG({ maxLength: PASSWORD_MAX_LENGTH });
}

/** What a strength estimate counts against a password: a password made of the user's own details is easy to guess. */
const userInputs = (user: UserRecord) =>
  [user.primaryEmail?.value, user.displayName].filter((v): v is string => typeof v === "string" && v !== "");

export function createPasswordAuth(deps: {
  db: Db;
  hasher: PasswordHasher;
  users: UserService;
  usersRepo: UsersRepo;
  sessions: SessionService;
  mfa: MfaService;
  codes: VerificationCodeService;
  emails: EmailService;
  emailVerification: EmailVerification;
  rateLimits: RateLimiter;
  passwordPolicy: PasswordPolicy;
  audit: AuditLog;
  /** The request's device as the new-device notice stores it (trust/new-device.ts), read with the user. */
  currentDeviceHash: () => string;
}) {
  const passwordChanged = (tx: Db, projectId: string, userId: string, how: string) =>
    deps.audit.record(tx, projectId, {
      type: "password.changed",
      target: { type: "user", id: userId },
      details: { via: how },
    });

  const emailTaken = (email: string) =>
    KnownErrors.USER_EMAIL_ALREADY_EXISTS({ email, would_work_if_email_was_verified: false });

  return {
    async signUp(
      project: Project,
      caller: UserRecord | null,
      input: { email: string; password: string; verification_callback_url?: string },
    ) {
      if (!project.config.credential_enabled) throw KnownErrors.PASSWORD_AUTHENTICATION_NOT_ENABLED();
      assertTrustedUrl(project.config, input.verification_callback_url);
      if (!project.config.sign_up_enabled) throw KnownErrors.SIGN_UP_NOT_ENABLED();
      assertPasswordLength(input.password);
      await deps.passwordPolicy.assertAcceptable(project.config, input.password, [input.email]);
      const passwordHash = await deps.hasher.hash(input.password);
      // No look-up of the address first: the unique index on sign-in addresses refuses a taken one inside the
      // transaction below, which then writes nothing (the catch answers USER_EMAIL_ALREADY_EXISTS). A look-up would
      // be the sign-up's widest read, for every new user, to spare the rare taken address a rolled-back transaction.
      const email = { value: input.email, verified: false, usedForAuth: true };
      const callbackUrl = input.verification_callback_url;
      const sendSlots = callbackUrl
        ? await deps.rateLimits.hit("email_send", `${project.id}:${input.email.toLowerCase()}`)
        : undefined;
      const sendVerification = async (tx: Db, userId: string) => {
        if (callbackUrl) {
          await deps.emailVerification.send(
            tx,
            project,
            { id: userId, displayName: null },
            input.email,
            callbackUrl,
          );
        }
      };
      try {
        if (caller?.isAnonymous) {
          // An anonymous caller becomes this user: same id, so its data stays attached (a TOTP secret included).
          const opened = await inTransaction(deps.db, async (tx) => {
            await deps.users.upgradeAnonymous(tx, project, caller.id, { email, passwordHash });
            await sendVerification(tx, caller.id);
            const user = await deps.usersRepo.find(project.id, caller.id, tx);
            if (!user) throw new Error("Upgraded user vanished inside its own transaction");
            return deps.mfa.open(tx, user, { isNewUser: true, method: "password" });
          });
          return await deps.mfa.issue(opened, project);
        }
        return await deps.sessions.signInNew(
          async (tx) => {
            const user = await deps.users.createRecord(tx, { project, email, passwordHash });
            await sendVerification(tx, user.id);
            return user;
          },
          "password",
          project,
        );
      } catch (error) {
        // A taken address, or two sign-ups racing for one: the unique index lets one win; the other gets the known
        // error, and its transaction (team, user, e-mail) is rolled back.
        if (isUniqueViolation(error) && constraintOf(error)?.startsWith("contact_channels_")) {
          // No e-mail went out: the address's sends are not used up by sign-ups of someone else's address.
          if (sendSlots) await deps.rateLimits.giveBack(sendSlots);
          throw emailTaken(input.email);
        }
        throw error;
      }
    },

    async signIn(project: Project, input: { email: string; password: string }, clientIp: string) {
      if (!project.config.credential_enabled) throw KnownErrors.PASSWORD_AUTHENTICATION_NOT_ENABLED();
      // Counted per address whether or not it has an account, so the limit reveals nothing either. The slot is
      // taken before the hash, so parallel guesses cannot all pass a check made before any of them is counted.
      const emailKey = `${project.id}:${input.email.toLowerCase()}`;
      const slots = await deps.rateLimits.passwordAttempt(emailKey, clientIp);
      const found = await deps.usersRepo.findForPasswordSignIn(
        project.id,
        input.email,
        deps.currentDeviceHash(),
      );
      if (!found?.user.passwordHash) {
        await deps.hasher.burn(input.password);
        throw KnownErrors.EMAIL_PASSWORD_MISMATCH();
      }
      const { user, knownDevice } = found;
      const stored = found.user.passwordHash;
      if (!(await deps.hasher.verify(stored, input.password))) throw KnownErrors.EMAIL_PASSWORD_MISMATCH();
      // Only failures count: the owner's right password does not use up the slots that guard the account.
      await deps.rateLimits.giveBack(slots);
      // Imported hashes (bcrypt, scrypt, PBKDF2, other argon2 parameters) become argon2id now that the password is
      // known to be right (WIRE.md §4.8 [GF]).
      const rehash = deps.hasher.needsRehash(stored) ? await deps.hasher.hash(input.password) : undefined;
      const signIn = { isNewUser: false, method: "password", knownDevice };
      // A session (or an MFA attempt code) is one insert; only a rehash needs a transaction around two writes.
      const opened = rehash
        ? await inTransaction(deps.db, async (tx) => {
            await deps.usersRepo.replacePasswordHash(tx, user.id, stored, rehash);
            return deps.mfa.open(tx, user, signIn);
          })
        : await deps.mfa.open(deps.db, user, signIn);
      return deps.mfa.issue(opened, project);
    },

    /**
     * Changes the password and signs out every other session: the one kept is the session of the refresh token
     * sent with the request, or else the session of the access token.
     */
    async updatePassword(
      project: Project,
      user: UserRecord,
      keepSessionId: string,
      input: { old_password: string; new_password: string },
    ) {
      if (!user.passwordHash) throw KnownErrors.USER_DOES_NOT_HAVE_PASSWORD();
      assertPasswordLength(input.new_password);
      if (!(await deps.hasher.verify(user.passwordHash, input.old_password))) {
        throw KnownErrors.PASSWORD_CONFIRMATION_MISMATCH();
      }
      // After the old password proved right: the policy's answer (and its range request) is not for guessers.
      await deps.passwordPolicy.assertAcceptable(project.config, input.new_password, userInputs(user));
      const passwordHash = await deps.hasher.hash(input.new_password);
      await inTransaction(deps.db, async (tx) => {
        await deps.usersRepo.update(tx, user.id, { passwordHash });
        await deps.sessions.endAllForUser(tx, user.id, keepSessionId);
        await passwordChanged(tx, user.projectId, user.id, "update");
      });
    },

    async setPassword(project: Project, user: UserRecord, password: string) {
      if (!project.config.credential_enabled) throw KnownErrors.PASSWORD_AUTHENTICATION_NOT_ENABLED();
      if (user.passwordHash) throw new TextError(400, "User already has a password set.");
      assertPasswordLength(password);
      await deps.passwordPolicy.assertAcceptable(project.config, password, userInputs(user));
      const passwordHash = await deps.hasher.hash(password);
      await inTransaction(deps.db, async (tx) => {
        await deps.usersRepo.update(tx, user.id, { passwordHash });
        await passwordChanged(tx, project.id, user.id, "set");
      });
    },

    /**
     * Queues a reset e-mail when a user with a password signs in with this address. Both paths run the same
     * statements (look up, write a code, render the e-mail, queue it, where an address without an account queues
     * nothing), so the answer and the work before it do not tell whether the address has an account.
     */
    async sendResetCode(project: Project, input: { email: string; callback_url: string }) {
      if (!project.config.credential_enabled) throw KnownErrors.PASSWORD_AUTHENTICATION_NOT_ENABLED();
      assertTrustedUrl(project.config, input.callback_url);
      await deps.rateLimits.hit("email_send", `${project.id}:${input.email.toLowerCase()}`);
      const user = await deps.usersRepo.findByAuthEmail(project.id, input.email);
      const target = user?.passwordHash ? user : undefined;
      await inTransaction(deps.db, async (tx) => {
        const { link } = await deps.codes.create(tx, {
          projectId: project.id,
          purpose: "password_reset",
          data: { user_id: target?.id ?? null, email: input.email },
          callbackUrl: input.callback_url,
        });
        await deps.emails.queue(tx, project, {
          to: input.email,
          type: "password_reset",
          userDisplayName: target?.displayName,
          userLocale: storedLocale(target?.clientMetadata),
          variables: { passwordResetLink: link ?? input.callback_url },
          send: target !== undefined,
        });
      });
      return { success: "maybe, only if user with e-mail exists" as const };
    },

    async checkResetCode(project: Project, code: string) {
      if (!project.config.credential_enabled) throw KnownErrors.PASSWORD_AUTHENTICATION_NOT_ENABLED();
      const row = await deps.codes.check({ projectId: project.id, purpose: "password_reset", code });
      // A code written for an address without an account (see sendResetCode) was never e-mailed to anyone.
      if (!row.data.user_id) throw KnownErrors.VERIFICATION_CODE_NOT_FOUND();
    },

    /** Sets the new password and ends every session of the user ([GF]: whoever had the old one is signed out). */
    async resetPassword(project: Project, code: string, password: string) {
      if (!project.config.credential_enabled) throw KnownErrors.PASSWORD_AUTHENTICATION_NOT_ENABLED();
      assertPasswordLength(password);
      await deps.passwordPolicy.assertAcceptable(project.config, password);
      const passwordHash = await deps.hasher.hash(password);
      await deps.codes.use({ projectId: project.id, purpose: "password_reset", code }, async (tx, row) => {
        const userId = row.data.user_id;
        if (typeof userId !== "string" || !(await deps.usersRepo.find(project.id, userId, tx))) {
          throw KnownErrors.VERIFICATION_CODE_NOT_FOUND();
        }
        await deps.usersRepo.update(tx, userId, { passwordHash });
        await deps.sessions.endAllForUser(tx, userId);
        await passwordChanged(tx, project.id, userId, "reset");
      });
    },
  };
}

export type PasswordAuth = ReturnType<typeof createPasswordAuth>;
