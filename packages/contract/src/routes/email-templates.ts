// E-mail administration routes (WIRE.md §4.15, §5.2): the five e-mail templates (list, read, edit, reset, and a
// preview of a draft [GO]), the sign-in invitation, and a test e-mail through a given SMTP server [GO, as Stack Auth].
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";
import { emailSchema, urlSchema } from "../schemas/auth.ts";
import { listOf, successSchema } from "../schemas/common.ts";
import { emailConfigSchema } from "../schemas/projects.ts";

export const EMAIL_TEMPLATE_TYPES = [
  "email_verification",
  "password_reset",
  "magic_link",
  "team_invitation",
  "sign_in_invitation",
  /** [GO] The notice of a sign-in from a new device (issue 21); Stack has no such template. */
  "new_device_notice",
] as const;

export type EmailTemplateType = (typeof EMAIL_TEMPLATE_TYPES)[number];

/** Characters that end a header line; a subject may not contain them, and rendered subject values lose them. */
export const LINE_BREAK = /[\r\n\u2028\u2029\u0085\v\f]/;

const MAX_SUBJECT_LENGTH = 500;
const MAX_CONTENT_LENGTH = 256 * 1024;

const subjectSchema = z
  .string()
  .max(MAX_SUBJECT_LENGTH)
  .refine((s) => !LINE_BREAK.test(s), "must not contain line breaks");
/** 256 KiB, counted in characters as the metadata limit is (WIRE.md §1.6). */
const contentSchema = z.string().max(MAX_CONTENT_LENGTH);

export const emailTemplateSchema = z
  .object({
    type: z.enum(EMAIL_TEMPLATE_TYPES),
    subject: z.string(),
    content: z.string(),
    is_default: z.boolean(),
  })
  .meta({ id: "EmailTemplate" });

const ADMIN = ["admin"] as const;
const TAG = "E-mail templates";
const typeParams = z.strictObject({ type: z.enum(EMAIL_TEMPLATE_TYPES) });
/** A template edit, or a draft to preview: omitted fields keep the saved (or default) value. */
const templateChanges = z
  .strictObject({ subject: subjectSchema.optional(), content: contentSchema.optional() })
  .default({});

export const listEmailTemplatesRoute = defineRoute({
  method: "GET",
  path: "/api/v1/email-templates",
  access: ADMIN,
  summary: "All five e-mail templates of the project, edited or default",
  tag: TAG,
  response: { status: 200, kind: "json", schema: listOf(emailTemplateSchema) },
});

export const getEmailTemplateRoute = defineRoute({
  method: "GET",
  path: "/api/v1/email-templates/{type}",
  access: ADMIN,
  summary: "One e-mail template",
  tag: TAG,
  params: typeParams,
  response: { status: 200, kind: "json", schema: emailTemplateSchema },
});

export const updateEmailTemplateRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/email-templates/{type}",
  access: ADMIN,
  summary: "Edits an e-mail template's subject and HTML content; every later e-mail of the type uses it",
  tag: TAG,
  params: typeParams,
  body: templateChanges,
  response: { status: 200, kind: "json", schema: emailTemplateSchema },
});

export const resetEmailTemplateRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/email-templates/{type}",
  access: ADMIN,
  summary: "Puts an e-mail template back to its default",
  tag: TAG,
  params: typeParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

export const previewEmailTemplateRoute = defineRoute({
  method: "POST",
  path: "/api/v1/email-templates/{type}/preview",
  access: ADMIN,
  summary:
    "Renders the template, or an unsaved draft of its subject and content, with sample values of every variable",
  tag: TAG,
  params: typeParams,
  body: templateChanges,
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ subject: z.string(), html: z.string(), text: z.string() }),
  },
});

export const sendSignInInvitationRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/send-sign-in-invitation",
  access: ADMIN,
  summary: "E-mails an invitation to sign in; the link is the callback URL itself",
  tag: TAG,
  body: z.strictObject({ email: emailSchema, callback_url: urlSchema }),
  response: { status: 200, kind: "json", schema: successSchema },
});

/** The SMTP server to test: a standard e-mail config, whose `type` the SDK leaves out. */
const testEmailConfigSchema = emailConfigSchema.options[1].extend({
  type: z.literal("standard").optional(),
});

export const sendTestEmailRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/send-test-email",
  access: ADMIN,
  summary: "Sends one test e-mail at once through the given SMTP server and says whether it was accepted",
  tag: TAG,
  body: z.strictObject({ recipient_email: emailSchema, email_config: testEmailConfigSchema }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ success: z.boolean(), error_message: z.string().optional() }),
  },
});

export const emailTemplateRoutes = [
  listEmailTemplatesRoute,
  getEmailTemplateRoute,
  updateEmailTemplateRoute,
  resetEmailTemplateRoute,
  previewEmailTemplateRoute,
  sendSignInInvitationRoute,
  sendTestEmailRoute,
] as const satisfies readonly RouteDefinition[];
