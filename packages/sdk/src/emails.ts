// E-mail for apps with Stack's SDK names: a user's notification categories (`setEnabled`), the server's
// `sendEmail`, the admin's outbox methods, and Stack's TSX template/theme/draft methods (whose writes Gatehouse
// refuses with EMAIL_RENDERING_ERROR, since it never runs TSX).
import { defined, del, jsonBody, type ObjectContext, patch } from "./context.ts";
import type { RequestOptions } from "./transport.ts";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;
type Json = Record<string, unknown>;

export type NotificationCategory = {
  id: string;
  name: string;
  enabled: boolean;
  canDisable: boolean;
  setEnabled(enabled: boolean): Promise<void>;
};

type PreferenceJson = {
  notification_category_id: string;
  notification_category_name: string;
  enabled: boolean;
  can_disable: boolean;
};

/** `listNotificationCategories` of a user: `me` on the signed-in user's session, or a server user's id. */
export function notificationCategoryCalls(ctx: ObjectContext, userId: string) {
  return {
    async listNotificationCategories(): Promise<NotificationCategory[]> {
      const list = await ctx.request<{ items: PreferenceJson[] }>(
        `/emails/notification-preference/${userId}`,
      );
      return list.items.map((p) => ({
        id: p.notification_category_id,
        name: p.notification_category_name,
        enabled: p.enabled,
        canDisable: p.can_disable,
        async setEnabled(enabled: boolean) {
          await ctx.request(
            `/emails/notification-preference/${userId}/${p.notification_category_id}`,
            patch({ enabled }),
          );
          ctx.invalidate();
        },
      }));
    },
  };
}

/** Stack's SendEmailOptions: one of userIds / allUsers, and one of html / templateId / draftId. */
export type SendEmailOptions = {
  userIds?: string[];
  allUsers?: true;
  html?: string;
  templateId?: string;
  draftId?: string;
  variables?: Record<string, unknown>;
  subject?: string;
  notificationCategoryName?: string;
  themeId?: string | null | false;
  scheduledAt?: Date;
};

export async function sendEmail(request: Request, options: SendEmailOptions): Promise<void> {
  await request(
    "/emails/send-email",
    jsonBody(
      defined({
        user_ids: options.userIds,
        all_users: options.allUsers,
        html: options.html,
        template_id: options.templateId,
        draft_id: options.draftId,
        variables: options.variables,
        subject: options.subject,
        notification_category_name: options.notificationCategoryName,
        theme_id: options.themeId,
        scheduled_at_millis: options.scheduledAt?.getTime(),
      }),
    ),
  );
}

/** An outbox e-mail as Stack's admin SDK returns it: camelCase keys, dates for the `_millis` fields. */
export type OutboxEmail = Json & { id: string; status: string; simpleStatus: string; isPaused: boolean };

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function outboxEmail(json: Json): OutboxEmail {
  const email: Json = {};
  for (const [key, value] of Object.entries(json)) {
    if (key === "to" && typeof value === "object" && value !== null) {
      email.to = Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), v]));
    } else if (key.endsWith("_at_millis")) {
      email[camel(key.slice(0, -"_millis".length))] = typeof value === "number" ? new Date(value) : null;
    } else email[camel(key)] = value;
  }
  return email as OutboxEmail;
}

export type OutboxUpdateOptions = {
  isPaused?: boolean;
  scheduledAtMillis?: number;
  cancel?: boolean;
  tsxSource?: string;
  themeId?: string | null;
};

/** Stack's admin outbox methods (`/emails/outbox`). */
export function outboxCalls(request: Request) {
  const update = async (id: string, options: OutboxUpdateOptions) =>
    outboxEmail(
      await request<Json>(
        `/emails/outbox/${id}`,
        patch(
          defined({
            is_paused: options.isPaused,
            scheduled_at_millis: options.scheduledAtMillis,
            cancel: options.cancel,
            tsx_source: options.tsxSource,
            theme_id: options.themeId,
          }),
        ),
      ),
    );
  return {
    async listOutboxEmails(
      options: { status?: string; simpleStatus?: string; limit?: number; cursor?: string } = {},
    ): Promise<{ items: OutboxEmail[]; nextCursor: string | null }> {
      const page = await request<{ items: Json[]; pagination?: { next_cursor: string | null } }>(
        "/emails/outbox",
        {
          query: defined({
            status: options.status,
            simple_status: options.simpleStatus,
            limit: options.limit,
            cursor: options.cursor,
          }),
        },
      );
      return { items: page.items.map(outboxEmail), nextCursor: page.pagination?.next_cursor ?? null };
    },
    async getOutboxEmail(id: string): Promise<OutboxEmail> {
      return outboxEmail(await request<Json>(`/emails/outbox/${id}`));
    },
    updateOutboxEmail: update,
    pauseOutboxEmail: (id: string) => update(id, { isPaused: true }),
    unpauseOutboxEmail: (id: string) => update(id, { isPaused: false }),
    cancelOutboxEmail: (id: string) => update(id, { cancel: true }),
  };
}

type PreviewOptions = {
  themeId?: string | null | false;
  themeTsxSource?: string;
  templateId?: string;
  templateTsxSource?: string;
};

/**
 * Stack's admin e-mail methods under its names, except `listEmailTemplates` / `updateEmailTemplate`, which our
 * admin app keeps for WIRE.md §4.15 (types, subjects, HTML); `listStackEmailTemplates` reads Stack's view.
 */
export function emailTsxCalls(request: Request) {
  return {
    async listStackEmailTemplates() {
      const { templates } = await request<{ templates: Json[] }>("/internal/email-templates");
      return templates.map((t) => ({
        id: t.id as string,
        displayName: t.display_name as string,
        themeId: t.theme_id as string | undefined,
        tsxSource: t.tsx_source as string,
      }));
    },
    createEmailTemplate: (displayName: string) =>
      request<{ id: string }>("/internal/email-templates", jsonBody({ display_name: displayName })),
    async deleteEmailTemplate(id: string): Promise<void> {
      await request(`/internal/email-templates/${id}`, del);
    },
    async listEmailThemes() {
      const { themes } = await request<{ themes: Json[] }>("/internal/email-themes");
      return themes.map((t) => ({ id: t.id as string, displayName: t.display_name as string }));
    },
    createEmailTheme: (displayName: string) =>
      request<{ id: string }>("/internal/email-themes", jsonBody({ display_name: displayName })),
    async updateEmailTheme(id: string, tsxSource: string): Promise<void> {
      await request(`/internal/email-themes/${id}`, patch({ tsx_source: tsxSource }));
    },
    async deleteEmailTheme(id: string): Promise<void> {
      await request(`/internal/email-themes/${id}`, del);
    },
    async listEmailDrafts() {
      const { drafts } = await request<{ drafts: Json[] }>("/internal/email-drafts");
      return drafts.map((d) => ({
        id: d.id as string,
        displayName: d.display_name as string,
        themeId: d.theme_id as string | undefined | false,
        tsxSource: d.tsx_source as string,
        sentAt: typeof d.sent_at_millis === "number" ? new Date(d.sent_at_millis) : null,
      }));
    },
    createEmailDraft: (options: { displayName: string; themeId?: string | false; tsxSource?: string }) =>
      request<{ id: string }>(
        "/internal/email-drafts",
        jsonBody(
          defined({
            display_name: options.displayName,
            theme_id: options.themeId,
            tsx_source: options.tsxSource,
          }),
        ),
      ),
    async updateEmailDraft(
      id: string,
      data: { displayName?: string; themeId?: string | false; tsxSource?: string },
    ): Promise<void> {
      await request(
        `/internal/email-drafts/${id}`,
        patch(
          defined({ display_name: data.displayName, theme_id: data.themeId, tsx_source: data.tsxSource }),
        ),
      );
    },
    async deleteEmailDraft(id: string): Promise<void> {
      await request(`/internal/email-drafts/${id}`, del);
    },
    async getEmailPreview(options: PreviewOptions): Promise<string> {
      const body = defined({
        theme_id: options.themeId,
        theme_tsx_source: options.themeTsxSource,
        template_id: options.templateId,
        template_tsx_source: options.templateTsxSource,
      });
      return (await request<{ html: string }>("/emails/render-email", jsonBody(body))).html;
    },
  };
}
