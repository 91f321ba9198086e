// E-mail for apps, as Stack Auth serves it (issue 16): sending to users (`/emails/send-email`), the fixed notification
// categories and each user's preferences, the unsubscribe link, the outbox (`/emails/outbox`), and the admin preview.
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";
import { listOf, userIdOrMe } from "../schemas/common.ts";

/** Stack's notification categories: fixed ids and names; Transactional mail cannot be turned off. */
export const NOTIFICATION_CATEGORIES = [
  {
    id: "7bb82d33-2f54-4a3d-9d23-82739e0d66ef",
    name: "Transactional",
    defaultEnabled: true,
    canDisable: false,
  },
  { id: "4f6f8873-3d04-46bd-8bef-18338b1a1b4c", name: "Marketing", defaultEnabled: true, canDisable: true },
] as const;

const TAG = "E-mail";
const SERVER = ["server", "admin"] as const;
const ANYONE = ["client", "server", "admin"] as const;

const jsonRecord = z.record(z.string(), z.unknown());
/** A time as epoch milliseconds, within what a date can hold. */
const millisSchema = z.number().int().min(0).max(8_640_000_000_000_000);
/** Stack's theme choice: a theme id, null (the default) or false (no theme). */
const themeIdSchema = z.union([z.string(), z.null(), z.literal(false)]);

export const sendEmailRoute = defineRoute({
  method: "POST",
  path: "/api/v1/emails/send-email",
  access: SERVER,
  summary:
    "E-mails users (by id, or all) an HTML body or a template; users who turned the category off are skipped",
  tag: TAG,
  // One of user_ids / all_users and one of html / template_id / draft_id: checked by the service, as Stack does.
  body: z.strictObject({
    user_ids: z.array(z.uuid()).max(10_000).optional(),
    all_users: z.literal(true).optional(),
    html: z
      .string()
      .max(512 * 1024)
      .optional(),
    template_id: z.string().optional(),
    draft_id: z.string().optional(),
    variables: jsonRecord.optional(),
    subject: z.string().max(500).optional(),
    notification_category_name: z.string().optional(),
    theme_id: themeIdSchema.optional(),
    is_high_priority: z.boolean().optional(),
    scheduled_at_millis: millisSchema.optional(),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ results: z.array(z.object({ user_id: z.string() })) }),
  },
});

const preferenceSchema = z
  .object({
    notification_category_id: z.string(),
    notification_category_name: z.string(),
    enabled: z.boolean(),
    can_disable: z.boolean(),
  })
  .meta({ id: "NotificationPreference" });

export const listNotificationPreferencesRoute = defineRoute({
  method: "GET",
  path: "/api/v1/emails/notification-preference/{user_id}",
  access: ANYONE,
  summary: "The user's choice for every notification category (clients: their own)",
  tag: TAG,
  params: z.strictObject({ user_id: userIdOrMe }),
  response: { status: 200, kind: "json", schema: listOf(preferenceSchema) },
});

export const updateNotificationPreferenceRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/emails/notification-preference/{user_id}/{notification_category_id}",
  access: ANYONE,
  summary: "Turns a notification category on or off for the user (clients: their own)",
  tag: TAG,
  params: z.strictObject({ user_id: userIdOrMe, notification_category_id: z.string() }),
  body: z.strictObject({ enabled: z.boolean() }),
  response: { status: 200, kind: "json", schema: preferenceSchema },
});

export const unsubscribeLinkRoute = defineRoute({
  method: "GET",
  path: "/api/v1/emails/unsubscribe-link",
  access: "none",
  summary: "Turns the e-mail's notification category off for its recipient (the link in marketing e-mail)",
  tag: TAG,
  query: z.strictObject({ code: z.string().max(1000) }),
  response: { status: 200, kind: "html", description: "A short confirmation page" },
});

/** RFC 8058 one-click unsubscribe: mail clients POST `List-Unsubscribe=One-Click` to the same link. */
export const unsubscribeOneClickRoute = defineRoute({
  method: "POST",
  path: "/api/v1/emails/unsubscribe-link",
  access: "none",
  summary: "One-click unsubscribe (RFC 8058) from the List-Unsubscribe header",
  tag: TAG,
  query: z.strictObject({ code: z.string().max(1000) }),
  tolerateUnknownFields: true,
  response: { status: 200, kind: "html", description: "A short confirmation page" },
});

const recipientSchema = z.union([
  z.object({ type: z.literal("user-primary-email"), user_id: z.string() }),
  z.object({ type: z.literal("custom-emails"), emails: z.array(z.string()) }),
]);

/** One outbox e-mail in Stack's shape; which optional fields are present depends on `status`. */
export const outboxEmailSchema = z
  .object({
    id: z.string(),
    created_at_millis: z.number(),
    updated_at_millis: z.number(),
    tsx_source: z.string(),
    theme_id: z.string().nullable(),
    to: recipientSchema,
    variables: jsonRecord,
    skip_deliverability_check: z.boolean(),
    scheduled_at_millis: z.number(),
    created_with: z.enum(["draft", "programmatic-call"]),
    email_draft_id: z.string().nullable(),
    email_programmatic_call_template_id: z.string().nullable(),
    send_retries: z.number(),
    next_send_retry_at_millis: z.number().nullable(),
    send_attempt_errors: z.array(jsonRecord).nullable(),
    status: z.string(),
    simple_status: z.enum(["in-progress", "ok", "error"]),
    is_paused: z.boolean(),
    has_rendered: z.boolean(),
    has_delivered: z.boolean(),
    started_rendering_at_millis: z.number().optional(),
    rendered_at_millis: z.number().optional(),
    subject: z.string().optional(),
    html: z.string().nullable().optional(),
    text: z.string().nullable().optional(),
    is_transactional: z.boolean().optional(),
    is_high_priority: z.boolean().optional(),
    notification_category_id: z.string().nullable().optional(),
    started_sending_at_millis: z.number().optional(),
    delivered_at_millis: z.number().optional(),
    can_have_delivery_info: z.boolean().optional(),
    error_at_millis: z.number().optional(),
    server_error: z.string().optional(),
    skipped_at_millis: z.number().optional(),
    skipped_reason: z.string().optional(),
    skipped_details: jsonRecord.optional(),
  })
  .meta({ id: "OutboxEmail" });

export const listOutboxRoute = defineRoute({
  method: "GET",
  path: "/api/v1/emails/outbox",
  access: SERVER,
  summary: "The project's outbox, newest first, by status or simple status, 100 at most per page",
  tag: TAG,
  query: z.strictObject({
    status: z.string().optional(),
    simple_status: z.string().optional(),
    limit: z.string().optional(),
    cursor: z.uuid().optional(),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({
      items: z.array(outboxEmailSchema),
      is_paginated: z.literal(true),
      pagination: z.object({ next_cursor: z.string().nullable() }),
    }),
  },
});

const outboxParams = z.strictObject({ id: z.uuid() });

export const getOutboxEmailRoute = defineRoute({
  method: "GET",
  path: "/api/v1/emails/outbox/{id}",
  access: SERVER,
  summary: "One outbox e-mail",
  tag: TAG,
  params: outboxParams,
  response: { status: 200, kind: "json", schema: outboxEmailSchema },
});

export const updateOutboxEmailRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/emails/outbox/{id}",
  access: SERVER,
  summary: "Pauses, resumes, reschedules or cancels an e-mail that is not sent yet",
  tag: TAG,
  params: outboxParams,
  body: z.strictObject({
    is_paused: z.boolean().optional(),
    cancel: z.literal(true).optional(),
    scheduled_at_millis: millisSchema.optional(),
    skip_deliverability_check: z.boolean().optional(),
    // Content edits are TSX in Stack; Gatehouse answers them with EMAIL_RENDERING_ERROR.
    tsx_source: z.string().optional(),
    theme_id: themeIdSchema.optional(),
    to: jsonRecord.optional(),
    variables: jsonRecord.optional(),
  }),
  response: { status: 200, kind: "json", schema: outboxEmailSchema },
});

export const renderEmailRoute = defineRoute({
  method: "POST",
  path: "/api/v1/emails/render-email",
  access: ["admin"],
  summary: "Previews a template (by Stack's template id) with sample values; TSX sources are not rendered",
  tag: TAG,
  body: z.strictObject({
    template_id: z.string().optional(),
    template_tsx_source: z.string().optional(),
    theme_id: themeIdSchema.optional(),
    theme_tsx_source: z.string().optional(),
    editable_markers: z.boolean().optional(),
    editable_source: z.enum(["template", "theme", "both"]).optional(),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({
      html: z.string(),
      subject: z.string().optional(),
      notification_category: z.string().optional(),
    }),
  },
});

export const emailRoutes = [
  sendEmailRoute,
  listNotificationPreferencesRoute,
  updateNotificationPreferenceRoute,
  unsubscribeLinkRoute,
  unsubscribeOneClickRoute,
  listOutboxRoute,
  getOutboxEmailRoute,
  updateOutboxEmailRoute,
  renderEmailRoute,
] as const satisfies readonly RouteDefinition[];
