// E-mail administration (WIRE.md §4.15, §5.2): the project's five templates (list, read, edit, reset to default),
// a preview of a template or an unsaved draft with sample values [GO], the sign-in invitation, and a test e-mail
// sent at once through an SMTP server the admin is setting up [GO].

import type { ProjectConfig } from "@gatehouse/contract";
import { storedLocale } from "@gatehouse/contract/locales";
import type { AuditLog } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { createEmailTemplatesRepo } from "../db/email-templates-repo.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import { createMailer, smtpFromEmailConfig } from "../email/mailer.ts";
import {
  DEFAULT_EMAIL_TEMPLATES,
  EMAIL_TEMPLATE_TYPES,
  type EmailTemplate,
  type EmailTemplateType,
  unknownTemplateVariable,
} from "../email/templates.ts";
import { TextError } from "../text-error.ts";
import type { EmailService } from "./emails.ts";
import type { Project } from "./projects.ts";
import { assertTrustedUrl } from "./trusted-urls.ts";

/** A template as the API answers it. */
export type EmailTemplateView = {
  type: EmailTemplateType;
  subject: string;
  content: string;
  is_default: boolean;
};

type StandardEmailConfig = Extract<ProjectConfig["email_config"], { type: "standard" }>;

/** Sample values for previews: the user's name, and each type's own variables. The project's name is the real one. */
const SAMPLE_USER_DISPLAY_NAME = "Jane Doe";
const SAMPLE_HANDLER = "https://example.com/handler";
const SAMPLE_VARIABLES: Record<EmailTemplateType, Record<string, string>> = {
  email_verification: { emailVerificationLink: `${SAMPLE_HANDLER}/email-verification?code=sample` },
  password_reset: { passwordResetLink: `${SAMPLE_HANDLER}/password-reset?code=sample` },
  magic_link: { magicLink: `${SAMPLE_HANDLER}/magic-link-callback?code=sample`, otp: "ABC123" },
  team_invitation: {
    teamInvitationLink: `${SAMPLE_HANDLER}/team-invitation?code=sample`,
    teamDisplayName: "Example Team",
  },
  // The sign-in invitation is sent with an empty team name (§5.2), so the preview shows it that way.
  sign_in_invitation: { signInInvitationLink: `${SAMPLE_HANDLER}/sign-in`, teamDisplayName: "" },
  new_device_notice: {
    time: "Tue, 01 Dec 2026 09:30:00 GMT",
    browser: "Firefox",
    os: "Linux",
    ip: "203.0.113.7",
  },
};

/** A test e-mail answers within the request, so it gets far less time than the worker's sends. */
export const TEST_EMAIL_TIMEOUT_MS = 20_000;

function assertKnownVariables(type: EmailTemplateType, template: Partial<EmailTemplate>): void {
  const unknown = unknownTemplateVariable(type, template);
  if (unknown !== undefined) throw new TextError(400, `Unknown template variable: ${unknown}`);
}

export function createEmailTemplateService(deps: {
  db: Db;
  clock: Clock;
  emails: EmailService;
  usersRepo: UsersRepo;
  audit: AuditLog;
}) {
  const audited = (tx: Db, projectId: string, type: EmailTemplateType, change: string) =>
    deps.audit.record(tx, projectId, {
      type: "email_template.updated",
      target: { type: "email_template", id: type },
      details: { change },
    });
  const repo = createEmailTemplatesRepo();

  return {
    /** All five types in the order of §5.2, edited or default (one query). */
    async list(projectId: string): Promise<EmailTemplateView[]> {
      const edited = new Map((await repo.list(deps.db, projectId)).map((row) => [row.type, row]));
      return EMAIL_TEMPLATE_TYPES.map((type) => {
        const row = edited.get(type);
        return row
          ? { type, subject: row.subject, content: row.content, is_default: false }
          : { type, ...DEFAULT_EMAIL_TEMPLATES[type], is_default: true };
      });
    },

    async get(projectId: string, type: EmailTemplateType): Promise<EmailTemplateView> {
      const { subject, content, isDefault } = await deps.emails.template(deps.db, projectId, type);
      return { type, subject, content, is_default: isDefault };
    },

    /** Saves the edit; fields left out keep their current value (the default's on a first edit). */
    async update(
      projectId: string,
      type: EmailTemplateType,
      changes: { subject?: string; content?: string },
    ): Promise<EmailTemplateView> {
      assertKnownVariables(type, changes);
      const row = await inTransaction(deps.db, async (tx) => {
        const saved = await repo.save(
          tx,
          { projectId, type, updatedAt: deps.clock.now() },
          DEFAULT_EMAIL_TEMPLATES[type],
          changes,
        );
        await audited(tx, projectId, type, "edited");
        return saved;
      });
      return { type, subject: row.subject, content: row.content, is_default: false };
    },

    async reset(projectId: string, type: EmailTemplateType): Promise<void> {
      await inTransaction(deps.db, async (tx) => {
        await repo.delete(tx, projectId, type);
        await audited(tx, projectId, type, "reset");
      });
    },

    /** Renders the saved template, with a draft's subject and content in place of the saved ones. */
    async preview(project: Project, type: EmailTemplateType, draft: { subject?: string; content?: string }) {
      assertKnownVariables(type, draft);
      const saved = await deps.emails.template(deps.db, project.id, type);
      return deps.emails.render(
        { subject: draft.subject ?? saved.subject, content: draft.content ?? saved.content },
        project,
        SAMPLE_USER_DISPLAY_NAME,
        SAMPLE_VARIABLES[type],
      );
    },

    /** E-mails an invitation whose link is the callback URL itself, with the recipient user's name if any. */
    async sendSignInInvitation(project: Project, input: { email: string; callback_url: string }) {
      assertTrustedUrl(project.config, input.callback_url);
      await inTransaction(deps.db, async (tx) => {
        const found = await deps.usersRepo.findAuthChannel(project.id, input.email, tx);
        await deps.emails.queue(tx, project, {
          to: input.email,
          type: "sign_in_invitation",
          userDisplayName: found?.user.displayName,
          userLocale: storedLocale(found?.user.clientMetadata),
          variables: { signInInvitationLink: input.callback_url, teamDisplayName: "" },
        });
      });
    },

    /**
     * Sends one e-mail now through the given SMTP server, not through the outbox: the answer says whether the
     * server accepted it, and why not. A failure is an answer, never an error.
     */
    async sendTestEmail(
      project: Project,
      recipient: string,
      config: StandardEmailConfig,
    ): Promise<{ success: true } | { success: false; error_message: string }> {
      const smtp = smtpFromEmailConfig(config);
      if (!smtp) throw new Error("A standard e-mail config always has an SMTP server");
      const mailer = createMailer({ sendTimeoutMs: TEST_EMAIL_TIMEOUT_MS });
      try {
        await mailer.send(smtp, {
          to: recipient,
          subject: `Test e-mail from ${project.displayName}`,
          text:
            `This is a test e-mail sent by Gatehouse for the project ${project.displayName}. ` +
            "If you received it, the e-mail server settings work.",
        });
        return { success: true };
      } catch (err) {
        return { success: false, error_message: err instanceof Error ? err.message : String(err) };
      } finally {
        mailer.close();
      }
    },
  };
}

export type EmailTemplateService = ReturnType<typeof createEmailTemplateService>;
