// Transactional e-mails: the project's template (its edited one, else the default in the recipient's language: the
// user's stored locale, client_metadata.locale, else the project's default_language, else English) rendered with the project's variables and queued in the outbox inside the caller's transaction, so the e-mail exists exactly when the change
// that causes it does.
import type { Db } from "../db/client.ts";
import { createEmailTemplatesRepo } from "../db/email-templates-repo.ts";
import type { EmailOutbox } from "../email/outbox.ts";
import {
  defaultEmailTemplates,
  type EmailTemplate,
  type EmailTemplateType,
  renderTemplate,
} from "../email/templates.ts";
import type { Project } from "./projects.ts";

export type ProjectEmailTemplate = EmailTemplate & { isDefault: boolean };

export function createEmailService(deps: { outbox: EmailOutbox }) {
  const templates = createEmailTemplatesRepo();

  /**
   * The template the project sends for this type: its edited one (written in the project's own language), or the
   * default in `locale` (one query).
   */
  async function template(
    executor: Db,
    projectId: string,
    type: EmailTemplateType,
    locale?: string,
  ): Promise<ProjectEmailTemplate> {
    const edited = await templates.find(executor, projectId, type);
    return edited
      ? { subject: edited.subject, content: edited.content, isDefault: false }
      : { ...defaultEmailTemplates(locale)[type], isDefault: true };
  }

  /** Renders a template with the variables every type has plus the e-mail's own. */
  function render(
    template: EmailTemplate,
    project: Project,
    userDisplayName: string | null | undefined,
    variables: Record<string, string>,
  ) {
    return renderTemplate(template, {
      projectDisplayName: project.displayName,
      userDisplayName: userDisplayName ?? "",
      ...variables,
    });
  }

  return {
    template,
    render,

    async queue(
      tx: Db,
      project: Project,
      email: {
        to: string;
        type: EmailTemplateType;
        userDisplayName?: string | null;
        /** The recipient's stored locale (storedLocale of their client_metadata), when they are a user. */
        userLocale?: string;
        variables: Record<string, string>;
        /** false: render and run the same statement, inserting nothing (see EmailOutbox.enqueue). */
        send?: boolean;
      },
    ): Promise<void> {
      const rendered = render(
        await template(
          tx,
          project.id,
          email.type,
          email.userLocale ?? project.config.default_language ?? undefined,
        ),
        project,
        email.userDisplayName,
        email.variables,
      );
      await deps.outbox.enqueue(
        tx,
        {
          projectId: project.id,
          to: email.to,
          templateType: email.type,
          subject: rendered.subject,
          html: rendered.html,
          text: rendered.text,
        },
        { send: email.send },
      );
    },
  };
}

export type EmailService = ReturnType<typeof createEmailService>;
