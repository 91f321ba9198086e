// E-mail administration routes (WIRE.md §4.15): the project's e-mail templates and their preview, the sign-in
// invitation, and the test e-mail of an SMTP server. All admin only; the logic is in services/email-templates.ts.
import {
  getEmailTemplateRoute,
  listEmailTemplatesRoute,
  previewEmailTemplateRoute,
  resetEmailTemplateRoute,
  sendSignInInvitationRoute,
  sendTestEmailRoute,
  updateEmailTemplateRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { createEmailTemplateService } from "../services/email-templates.ts";
import { projectOf } from "./auth.ts";

const success = { success: true as const };

export function registerEmailTemplateRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const templates = createEmailTemplateService(deps);

  bindRoute(app, deps, listEmailTemplatesRoute, async (_input, { caller }) => ({
    items: await templates.list(projectOf(caller).id),
    is_paginated: false as const,
  }));
  bindRoute(app, deps, getEmailTemplateRoute, async ({ params }, { caller }) =>
    templates.get(projectOf(caller).id, params.type),
  );
  bindRoute(app, deps, updateEmailTemplateRoute, async ({ params, body }, { caller }) =>
    templates.update(projectOf(caller).id, params.type, body),
  );
  bindRoute(app, deps, resetEmailTemplateRoute, async ({ params }, { caller }) => {
    await templates.reset(projectOf(caller).id, params.type);
    return success;
  });
  bindRoute(app, deps, previewEmailTemplateRoute, async ({ params, body }, { caller }) =>
    templates.preview(projectOf(caller), params.type, body),
  );

  bindRoute(app, deps, sendSignInInvitationRoute, async ({ body }, { caller }) => {
    await templates.sendSignInInvitation(projectOf(caller), body);
    return success;
  });
  bindRoute(app, deps, sendTestEmailRoute, async ({ body }, { caller }) =>
    templates.sendTestEmail(projectOf(caller), body.recipient_email, {
      ...body.email_config,
      type: "standard",
    }),
  );
}
