// Stack Auth's TSX e-mail administration (`/internal/email-templates`, `/internal/email-themes`,
// `/internal/email-drafts`), as its SDKs call it. Gatehouse serves the reads from its own templates (Stack's template
// ids map to our five types) and answers every write of TSX source with EMAIL_RENDERING_ERROR: it never runs TSX.
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";

const ADMIN = ["admin"] as const;
const TAG = "E-mail (Stack TSX)";
const idParams = z.strictObject({ id: z.uuid() });
const themeIdSchema = z.union([z.string(), z.null(), z.literal(false)]);
const created = z.object({ id: z.string() });

export const stackEmailTemplateSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  tsx_source: z.string(),
  theme_id: z.union([z.string(), z.null(), z.literal(false)]).optional(),
});

export const listStackEmailTemplatesRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/email-templates",
  access: ADMIN,
  summary:
    "The project's e-mail templates under Stack's template ids; `tsx_source` holds our template's HTML",
  tag: TAG,
  response: { status: 200, kind: "json", schema: z.object({ templates: z.array(stackEmailTemplateSchema) }) },
});

export const createStackEmailTemplateRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/email-templates",
  access: ADMIN,
  summary: "Stack's new TSX template: not supported (EMAIL_RENDERING_ERROR)",
  tag: TAG,
  body: z.strictObject({ display_name: z.string() }),
  response: { status: 200, kind: "json", schema: created },
});

export const updateStackEmailTemplateRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/internal/email-templates/{id}",
  access: ADMIN,
  summary:
    "Stack's TSX template edit: not supported (EMAIL_RENDERING_ERROR); edit with /email-templates/{type}",
  tag: TAG,
  params: idParams,
  body: z.strictObject({ tsx_source: z.string(), theme_id: themeIdSchema.optional() }),
  response: { status: 200, kind: "json", schema: z.object({ rendered_html: z.string() }) },
});

export const deleteStackEmailTemplateRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/internal/email-templates/{id}",
  access: ADMIN,
  summary: "Stack's template delete: not supported, the five templates are fixed (EMAIL_RENDERING_ERROR)",
  tag: TAG,
  params: idParams,
  response: { status: 200, kind: "json", schema: z.object({}) },
});

export const listEmailThemesRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/email-themes",
  access: ADMIN,
  summary: "The e-mail themes: Gatehouse has one, built in",
  tag: TAG,
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ themes: z.array(z.object({ id: z.string(), display_name: z.string() })) }),
  },
});

export const getEmailThemeRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/email-themes/{id}",
  access: ADMIN,
  summary: "One e-mail theme",
  tag: TAG,
  params: idParams,
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ id: z.string(), display_name: z.string(), tsx_source: z.string() }),
  },
});

export const createEmailThemeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/email-themes",
  access: ADMIN,
  summary: "Stack's new TSX theme: not supported (EMAIL_RENDERING_ERROR)",
  tag: TAG,
  body: z.strictObject({ display_name: z.string() }),
  response: { status: 200, kind: "json", schema: created },
});

export const updateEmailThemeRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/internal/email-themes/{id}",
  access: ADMIN,
  summary: "Stack's TSX theme edit: not supported (EMAIL_RENDERING_ERROR)",
  tag: TAG,
  params: idParams,
  body: z.strictObject({ tsx_source: z.string() }),
  response: { status: 200, kind: "json", schema: z.object({ display_name: z.string() }) },
});

export const deleteEmailThemeRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/internal/email-themes/{id}",
  access: ADMIN,
  summary: "Stack's theme delete: not supported, the one theme is built in (EMAIL_RENDERING_ERROR)",
  tag: TAG,
  params: idParams,
  response: { status: 200, kind: "json", schema: z.object({}) },
});

const draftSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  tsx_source: z.string(),
  theme_id: themeIdSchema.optional(),
  sent_at_millis: z.number().nullable().optional(),
});

export const listEmailDraftsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/email-drafts",
  access: ADMIN,
  summary: "Stack's TSX e-mail drafts: always none, since they cannot be created here",
  tag: TAG,
  response: { status: 200, kind: "json", schema: z.object({ drafts: z.array(draftSchema) }) },
});

export const createEmailDraftRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/email-drafts",
  access: ADMIN,
  summary: "Stack's new TSX draft: not supported (EMAIL_RENDERING_ERROR)",
  tag: TAG,
  body: z.strictObject({
    display_name: z.string(),
    theme_id: themeIdSchema.optional(),
    tsx_source: z.string().optional(),
  }),
  response: { status: 200, kind: "json", schema: created },
});

export const getEmailDraftRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/email-drafts/{id}",
  access: ADMIN,
  summary: "One draft: there are none (404, as Stack answers an unknown id)",
  tag: TAG,
  params: idParams,
  response: { status: 200, kind: "json", schema: draftSchema },
});

export const updateEmailDraftRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/internal/email-drafts/{id}",
  access: ADMIN,
  summary: "A draft edit: there are none (404, as Stack answers an unknown id)",
  tag: TAG,
  params: idParams,
  body: z.strictObject({
    display_name: z.string().optional(),
    theme_id: themeIdSchema.optional(),
    tsx_source: z.string().optional(),
  }),
  response: { status: 200, kind: "json", schema: z.object({ ok: z.literal("ok") }) },
});

export const deleteEmailDraftRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/internal/email-drafts/{id}",
  access: ADMIN,
  summary: "A draft delete: there are none (404, as Stack answers an unknown id)",
  tag: TAG,
  params: idParams,
  response: { status: 200, kind: "json", schema: z.object({ ok: z.literal("ok") }) },
});

export const emailTsxRoutes = [
  listStackEmailTemplatesRoute,
  createStackEmailTemplateRoute,
  updateStackEmailTemplateRoute,
  deleteStackEmailTemplateRoute,
  listEmailThemesRoute,
  getEmailThemeRoute,
  createEmailThemeRoute,
  updateEmailThemeRoute,
  deleteEmailThemeRoute,
  listEmailDraftsRoute,
  createEmailDraftRoute,
  getEmailDraftRoute,
  updateEmailDraftRoute,
  deleteEmailDraftRoute,
] as const satisfies readonly RouteDefinition[];
