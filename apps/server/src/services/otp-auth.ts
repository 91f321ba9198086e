// One-time-code and magic-link sign-in (WIRE.md §4.2): one e-mailed code works both as a link and as the six
// characters a user types, and signs in an existing user or creates one with a verified e-mail. The session opens
// through the MFA gate (services/mfa.ts): a TOTP user gets an attempt code instead, and the one-time code is used up.

import { randomUUID } from "node:crypto";
import { KnownErrors } from "@gatehouse/contract";
import { storedLocale } from "@gatehouse/contract/locales";
import { and, eq } from "drizzle-orm";
import { type Db, inTransaction } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { UserRecord, UsersRepo } from "../db/users-repo.ts";
import { TextError } from "../text-error.ts";
import type { EmailService } from "./emails.ts";
import type { MfaService } from "./mfa.ts";
import type { Project } from "./projects.ts";
import type { RateLimiter } from "./rate-limits.ts";
import { signInResponse } from "./sessions.ts";
import { assertTrustedUrl } from "./trusted-urls.ts";
import type { UserService } from "./users.ts";
import { otpOf, type VerificationCodeService } from "./verification-codes.ts";

function assertEnabled(project: Project): void {
  if (!project.config.magic_link_enabled)
    throw new TextError(403, "OTP sign-in is not enabled for this project");
}

export function createOtpAuth(deps: {
  db: Db;
  codes: VerificationCodeService;
  emails: EmailService;
  users: UserService;
  usersRepo: UsersRepo;
  mfa: MfaService;
  rateLimits: RateLimiter;
}) {
  return {
    async sendSignInCode(project: Project, input: { email: string; callback_url: string }) {
      assertEnabled(project);
      assertTrustedUrl(project.config, input.callback_url);
      await deps.rateLimits.hit("email_send", `${project.id}:${input.email.toLowerCase()}`);
      const found = await deps.usersRepo.findAuthChannel(project.id, input.email);
      if (found && !found.channel.isVerified) {
        throw KnownErrors.USER_EMAIL_ALREADY_EXISTS({
          email: input.email,
          would_work_if_email_was_verified: true,
        });
      }
      if (!found && !project.config.sign_up_enabled) throw KnownErrors.SIGN_UP_NOT_ENABLED();
      return inTransaction(deps.db, async (tx) => {
        // A verified user without OTP sign-in gets it now (WIRE.md §4.2). The statement runs for every address,
        // matching no row for a new one (a fresh random id) or a user who has it on, so the work before the answer
        // is the same whether or not the address has an account.
        await tx
          .update(users)
          .set({ otpAuthEnabled: true })
          .where(and(eq(users.id, found?.user.id ?? randomUUID()), eq(users.otpAuthEnabled, false)));
        const { code, nonce, link } = await deps.codes.create(tx, {
          projectId: project.id,
          purpose: "sign_in",
          data: { email: input.email },
          callbackUrl: input.callback_url,
        });
        await deps.emails.queue(tx, project, {
          to: input.email,
          type: "magic_link",
          userDisplayName: found?.user.displayName,
          userLocale: storedLocale(found?.user.clientMetadata),
          variables: { magicLink: link ?? input.callback_url, otp: otpOf(code) },
        });
        return { nonce };
      });
    },

    check(project: Project, code: string) {
      assertEnabled(project);
      return deps.codes.check({ projectId: project.id, purpose: "sign_in", code });
    },

    async signIn(project: Project, caller: UserRecord | null, code: string) {
      assertEnabled(project);
      const opened = await deps.codes.use(
        { projectId: project.id, purpose: "sign_in", code },
        async (tx, row) => {
          const email = String(row.data.email);
          const found = await deps.usersRepo.findAuthChannel(project.id, email, tx);
          if (found) {
            // Receiving the code proves the address.
            await deps.usersRepo.markChannelVerified(tx, found.channel.id);
            const user = await deps.usersRepo.find(project.id, found.user.id, tx);
            return deps.mfa.open(tx, user ?? found.user, { isNewUser: false, method: "otp" });
          }
          if (!project.config.sign_up_enabled) throw KnownErrors.SIGN_UP_NOT_ENABLED();
          const primary = { value: email, verified: true, usedForAuth: true };
          let userId: string;
          if (caller?.isAnonymous) {
            userId = caller.id;
            await deps.users.upgradeAnonymous(tx, project, userId, { email: primary, otpAuthEnabled: true });
          } else {
            userId = await deps.users.create(tx, { project, email: primary, otpAuthEnabled: true });
          }
          const user = await deps.usersRepo.find(project.id, userId, tx);
          if (!user) throw new Error("New user vanished inside its own transaction");
          // An upgraded anonymous user may have set a TOTP secret already.
          return deps.mfa.open(tx, user, { isNewUser: true, method: "otp" });
        },
      );
      const issued = await deps.mfa.issue(opened);
      return signInResponse(issued, issued.isNewUser);
    },
  };
}

export type OtpAuth = ReturnType<typeof createOtpAuth>;
