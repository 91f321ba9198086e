// E-mail verification (WIRE.md §4.9, §5): a code bound to the user and the address, e-mailed as a link. Using it
// marks that channel verified; if the channel is gone or its value changed, the code counts as not found.

import { KnownErrors } from "@gatehouse/contract";
import { storedLocale } from "@gatehouse/contract/locales";
import type { Db } from "../db/client.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import type { EmailService } from "./emails.ts";
import type { Project } from "./projects.ts";
import type { VerificationCodeService } from "./verification-codes.ts";

export function createEmailVerification(deps: {
  codes: VerificationCodeService;
  emails: EmailService;
  usersRepo: UsersRepo;
}) {
  return {
    /** Creates the code and queues the `email_verification` e-mail in the caller's transaction. */
    async send(
      tx: Db,
      project: Project,
      user: { id: string; displayName: string | null; clientMetadata?: unknown },
      email: string,
      callbackUrl: string,
    ) {
      const { link } = await deps.codes.create(tx, {
        projectId: project.id,
        purpose: "email_verification",
        data: { user_id: user.id, email },
        callbackUrl,
      });
      await deps.emails.queue(tx, project, {
        to: email,
        type: "email_verification",
        userDisplayName: user.displayName,
        userLocale: storedLocale(user.clientMetadata),
        variables: { emailVerificationLink: link ?? callbackUrl },
      });
    },

    check: (projectId: string, code: string) =>
      deps.codes.check({ projectId, purpose: "email_verification", code }),

    verify(projectId: string, code: string) {
      return deps.codes.use({ projectId, purpose: "email_verification", code }, async (tx, row) => {
        const { user_id: userId, email } = row.data as { user_id: string; email: string };
        const channel = await deps.usersRepo.findChannel(tx, userId, email);
        if (!channel) throw KnownErrors.VERIFICATION_CODE_NOT_FOUND();
        await deps.usersRepo.markChannelVerified(tx, channel.id);
      });
    },
  };
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;
