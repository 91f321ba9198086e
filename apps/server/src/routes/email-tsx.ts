// Stack Auth's `/internal/email-templates`, `/internal/email-themes` and `/internal/email-drafts`, as its admin SDK
// calls them: reads come from our templates, TSX writes are refused (src/email/stack-tsx.ts says why).
import {
  createEmailDraftRoute,
  createEmailThemeRoute,
  createStackEmailTemplateRoute,
  deleteEmailDraftRoute,
  deleteEmailThemeRoute,
  deleteStackEmailTemplateRoute,
  getEmailDraftRoute,
  getEmailThemeRoute,
  listEmailDraftsRoute,
  listEmailThemesRoute,
  listStackEmailTemplatesRoute,
  updateEmailDraftRoute,
  updateEmailThemeRoute,
  updateStackEmailTemplateRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { createStackTsxEmails } from "../email/stack-tsx.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { createEmailTemplateService } from "../services/email-templates.ts";
import { projectOf } from "./auth.ts";

export function registerEmailTsxRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const tsx = createStackTsxEmails(createEmailTemplateService(deps));

  bindRoute(app, deps, listStackEmailTemplatesRoute, async (_input, { caller }) => ({
    templates: await tsx.listTemplates(projectOf(caller).id),
  }));
  bindRoute(app, deps, createStackEmailTemplateRoute, async () => tsx.refuseTsx());
  bindRoute(app, deps, updateStackEmailTemplateRoute, async ({ params }) =>
    tsx.refuseTemplateWrite(params.id),
  );
  bindRoute(app, deps, deleteStackEmailTemplateRoute, async ({ params }) =>
    tsx.refuseTemplateWrite(params.id),
  );

  bindRoute(app, deps, listEmailThemesRoute, async () => ({ themes: tsx.listThemes() }));
  bindRoute(app, deps, getEmailThemeRoute, async ({ params }) => tsx.getTheme(params.id));
  bindRoute(app, deps, createEmailThemeRoute, async () => tsx.refuseTsx());
  bindRoute(app, deps, updateEmailThemeRoute, async ({ params }) => tsx.refuseThemeWrite(params.id));
  bindRoute(app, deps, deleteEmailThemeRoute, async ({ params }) => tsx.refuseThemeWrite(params.id));

  bindRoute(app, deps, listEmailDraftsRoute, async () => ({ drafts: [] }));
  bindRoute(app, deps, createEmailDraftRoute, async () => tsx.refuseTsx());
  bindRoute(app, deps, getEmailDraftRoute, async () => tsx.draftNotFound());
  bindRoute(app, deps, updateEmailDraftRoute, async () => tsx.draftNotFound());
  bindRoute(app, deps, deleteEmailDraftRoute, async () => tsx.draftNotFound());
}
