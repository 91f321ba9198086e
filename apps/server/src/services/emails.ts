// Transactional e-mails: a template rendered with the project's variables and queued in the outbox inside the
// caller's transaction, so the e-mail exists exactly when the change that causes it does.
import type { Db } from "../db/client.ts";
import type { EmailOutbox } from "../email/outbox.ts";
import { DEFAULT_EMAIL_TEMPLATES, type EmailTemplateType, renderTemplate } from "../email/templates.ts";
import type { Project } from "./projects.ts";

export function createEmailService(deps: { outbox: EmailOutbox }) {
  return {
    async queue(
      tx: Db,
      project: Project,
      email: {
        to: string;
        type: EmailTemplateType;
        userDisplayName?: string | null;
        variables: Record<string, string>;
      },
    ): Promise<void> {
      const rendered = renderTemplate(DEFAULT_EMAIL_TEMPLATES[email.type], {
        projectDisplayName: project.displayName,
        userDisplayName: email.userDisplayName ?? "",
        ...email.variables,
      });
      await deps.outbox.enqueue(tx, {
        projectId: project.id,
        to: email.to,
        templateType: email.type,
        subject: rendered.subject,
        html: rendered.html,
        text: rendered.text,
      });
    },
  };
}

export type EmailService = ReturnType<typeof createEmailService>;
