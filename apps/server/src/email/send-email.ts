// `POST /emails/send-email` (Stack Auth's server API): renders an HTML body or a template for each user and queues
// one outbox row per user in one transaction. Users the mail cannot or must not reach get a `skipped` row with
// Stack's reason, as Stack's queue records it; marketing mail carries an unsubscribe link and List-Unsubscribe.
import { randomUUID } from "node:crypto";
import { KnownErrors } from "@gatehouse/contract";
import { and, eq, inArray } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import { announceChange } from "../db/change-feed.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { contactChannels, emailOutbox, users } from "../db/schema.ts";
import { TextError } from "../text-error.ts";
import { categoryByName, type NotificationPreferences } from "./notification-preferences.ts";
import { OUTBOX_CHANGE } from "./outbox.ts";
import { templateTypeOfStackId } from "./stack-templates.ts";
import { type EmailTemplate, type EmailTemplateType, escapeHtml, htmlToText } from "./templates.ts";
import type { UnsubscribeTokens } from "./unsubscribe.ts";

export type SendEmailInput = {
  user_ids?: string[];
  all_users?: true;
  html?: string;
  template_id?: string;
  draft_id?: string;
  variables?: Record<string, unknown>;
  subject?: string;
  notification_category_name?: string;
  scheduled_at_millis?: number;
};

type SendingProject = { id: string; displayName: string };
type Rendered = { subject: string; html: string; text: string };

/** What sending needs of the template service (services/emails.ts), named here so email/ does not import it. */
export type TemplateSource = {
  template(executor: Db, projectId: string, type: EmailTemplateType): Promise<EmailTemplate>;
  render(
    template: EmailTemplate,
    project: SendingProject,
    userDisplayName: string | null | undefined,
    variables: Record<string, string>,
  ): Rendered;
};

type Recipient = { id: string; displayName: string | null; email: string | null };

const INSERT_CHUNK = 500;

/** Template variables are JSON in Stack; ours are text, so other values are written as JSON. */
const textVariables = (variables: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(variables).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  );

function withUnsubscribeFooter(rendered: Rendered, link: string): Rendered {
  const footer = `<p style="font-size: 12px; color: #6b7280;"><a href="${escapeHtml(link)}">Unsubscribe</a></p>`;
  const html = /<\/body\s*>/i.test(rendered.html)
    ? rendered.html.replace(/<\/body\s*>/i, `${footer}</body>`)
    : `${rendered.html}\n${footer}`;
  return { ...rendered, html, text: `${rendered.text}\n\nUnsubscribe: ${link}` };
}

export function createSendEmail(deps: {
  db: Db;
  clock: Clock;
  baseUrl: string;
  templates: TemplateSource;
  preferences: NotificationPreferences;
  unsubscribeTokens: UnsubscribeTokens;
}) {
  const { db, clock } = deps;

  async function recipients(projectId: string, input: SendEmailInput): Promise<Recipient[]> {
    const primary = and(
      eq(contactChannels.userId, users.id),
      eq(contactChannels.type, "email"),
      eq(contactChannels.isPrimary, true),
    );
    const ids = input.all_users ? undefined : [...new Set(input.user_ids ?? [])];
    if (ids?.length === 0) return [];
    const rows = await db
      .select({ id: users.id, displayName: users.displayName, email: contactChannels.value })
      .from(users)
      .leftJoin(contactChannels, primary)
      .where(and(eq(users.projectId, projectId), ids ? inArray(users.id, ids) : undefined));
    if (ids) {
      // Checked before anything is queued, as Stack does, so a typo fails the whole call.
      const found = new Set(rows.map((r) => r.id));
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) throw KnownErrors.USER_ID_DOES_NOT_EXIST({ user_id: missing });
      // Queued in the order the call named them, so the outbox lists them that way.
      const order = new Map(ids.map((id, i) => [id, i]));
      rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    }
    return rows;
  }

  return {
    async send(project: SendingProject, input: SendEmailInput): Promise<{ results: { user_id: string }[] }> {
      if ((input.user_ids !== undefined) === (input.all_users !== undefined)) {
        throw KnownErrors.SCHEMA_ERROR({ message: "Exactly one of user_ids or all_users must be provided" });
      }
      const category =
        input.notification_category_name === undefined
          ? undefined
          : categoryByName(input.notification_category_name);
      if (input.notification_category_name !== undefined && !category) {
        throw new TextError(400, "Notification category not found with given name");
      }
      let templateType: EmailTemplateType | undefined;
      if (input.html === undefined) {
        if (input.template_id !== undefined) {
          templateType = templateTypeOfStackId(input.template_id);
          if (!templateType) throw new TextError(400, "No template found with given template_id");
        } else if (input.draft_id !== undefined) {
          // Drafts are TSX in Stack and cannot be made here (routes/email-tsx.ts), so no id names one.
          throw new TextError(400, "No draft found with given draft_id");
        } else {
          throw KnownErrors.SCHEMA_ERROR({
            message: "Either template_id, html, or draft_id must be provided",
          });
        }
      }

      const targets = await recipients(project.id, input);
      const variables = textVariables(input.variables ?? {});
      const now = clock.now();
      const due = new Date(Math.max(now.getTime(), input.scheduled_at_millis ?? 0));
      const template = templateType && (await deps.templates.template(db, project.id, templateType));

      await inTransaction(db, async (tx) => {
        const disabled = category
          ? await deps.preferences.disabledUsers(
              tx,
              category.id,
              targets.map((t) => t.id),
            )
          : new Set<string>();
        const rows = targets.map((user) => {
          let rendered: Rendered = template
            ? deps.templates.render(template, project, user.displayName, variables)
            : { subject: project.displayName, html: input.html ?? "", text: htmlToText(input.html ?? "") };
          if (input.subject !== undefined) rendered = { ...rendered, subject: input.subject };
          const skippedReason = !user.email
            ? "USER_HAS_NO_PRIMARY_EMAIL"
            : disabled.has(user.id)
              ? "USER_UNSUBSCRIBED"
              : null;
          let listUnsubscribeUrl: string | null = null;
          if (category?.canDisable && !skippedReason) {
            const code = deps.unsubscribeTokens.create({
              projectId: project.id,
              userId: user.id,
              categoryId: category.id,
            });
            listUnsubscribeUrl = `${deps.baseUrl}/api/v1/emails/unsubscribe-link?code=${code}`;
            rendered = withUnsubscribeFooter(rendered, listUnsubscribeUrl);
          }
          return {
            id: randomUUID(),
            projectId: project.id,
            to: user.email ?? "",
            templateType: templateType ?? "custom",
            subject: rendered.subject,
            html: rendered.html,
            text: rendered.text,
            status: skippedReason ? ("skipped" as const) : ("queued" as const),
            skippedReason,
            userId: user.id,
            notificationCategoryId: category?.id ?? null,
            listUnsubscribeUrl,
            stackTemplateId: input.template_id ?? null,
            variables: input.variables ?? {},
            attempts: 0,
            nextAttemptAt: due,
            createdAt: now,
            updatedAt: now,
          };
        });
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
          await tx.insert(emailOutbox).values(rows.slice(i, i + INSERT_CHUNK));
        }
        if (rows.some((row) => row.status === "queued")) await announceChange(tx, OUTBOX_CHANGE);
      });

      const requested = input.all_users ? targets.map((t) => t.id) : (input.user_ids ?? []);
      return { results: requested.map((user_id) => ({ user_id })) };
    },
  };
}

export type SendEmail = ReturnType<typeof createSendEmail>;
