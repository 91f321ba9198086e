// Stack Auth's TSX e-mail administration served from our templates: reads list our five templates under Stack's
// ids and our one theme, previews render our template language, and every write of TSX source is refused with
// EMAIL_RENDERING_ERROR, because the server never evaluates code it is sent.
import { type EmailTemplateType, NOTIFICATION_CATEGORIES } from "@gatehouse/contract";
import { TextError } from "../text-error.ts";
import {
  DEFAULT_THEME,
  STACK_TEMPLATE_IDS,
  STACK_TEMPLATE_NAMES,
  templateTypeOfStackId,
  tsxUnsupported,
} from "./stack-templates.ts";

type Project = { id: string; displayName: string };

/** What this needs of the template service (services/email-templates.ts). */
export type TemplateAdmin = {
  list(projectId: string): Promise<{ type: EmailTemplateType; content: string }[]>;
  preview(
    project: Project,
    type: EmailTemplateType,
    draft: object,
  ): Promise<{ subject: string; html: string }>;
};

/** Our five templates are all transactional (sign-in and account mail). */
const TRANSACTIONAL = NOTIFICATION_CATEGORIES[0].name;

/** The theme's "source": there is no TSX, so it says where the look comes from. */
const THEME_SOURCE =
  "// Gatehouse's built-in e-mail look: each template's HTML carries its own styles. TSX themes are not run here.\n";

export type RenderEmailInput = {
  template_id?: string;
  template_tsx_source?: string;
  theme_id?: string | null | false;
  theme_tsx_source?: string;
};

export function createStackTsxEmails(templates: TemplateAdmin) {
  function assertTheme(themeId: string | null | false | undefined): void {
    if (typeof themeId === "string" && themeId !== DEFAULT_THEME.id) {
      throw new TextError(400, "No theme found with given id");
    }
  }

  return {
    /** `tsx_source` carries the template's HTML with `{{ variable }}` placeholders: the source we do have. */
    async listTemplates(projectId: string) {
      const list = await templates.list(projectId);
      return list.map((t) => ({
        id: STACK_TEMPLATE_IDS[t.type],
        display_name: STACK_TEMPLATE_NAMES[t.type],
        tsx_source: t.content,
        theme_id: DEFAULT_THEME.id,
      }));
    },

    listThemes: () => [{ id: DEFAULT_THEME.id, display_name: DEFAULT_THEME.displayName }],

    getTheme(id: string) {
      // Stack answers an unknown theme id with a plain 404 of its CRUD handler.
      if (id !== DEFAULT_THEME.id) throw new TextError(404, "No theme found with given id");
      return { id, display_name: DEFAULT_THEME.displayName, tsx_source: THEME_SOURCE };
    },

    /** Stack's admin preview: a template by id (with sample values) in our theme; TSX sources are refused. */
    async render(project: Project, input: RenderEmailInput) {
      if (input.template_tsx_source !== undefined || input.theme_tsx_source !== undefined)
        throw tsxUnsupported();
      assertTheme(input.theme_id);
      if (input.template_id === undefined) {
        throw new TextError(400, "Either template_id or template_tsx_source must be provided");
      }
      const type = templateTypeOfStackId(input.template_id);
      if (!type) throw new TextError(400, "No template found with given id");
      const rendered = await templates.preview(project, type, {});
      return { html: rendered.html, subject: rendered.subject, notification_category: TRANSACTIONAL };
    },

    /** Creating a template, theme or draft: each is TSX source in Stack. */
    refuseTsx(): never {
      throw tsxUnsupported();
    },

    /** A template id Stack's SDK names in a write: ours answer the TSX refusal, others Stack's 404. */
    refuseTemplateWrite(id: string): never {
      if (!templateTypeOfStackId(id)) {
        throw new TextError(404, "No template found with given id");
      }
      throw tsxUnsupported();
    },

    refuseThemeWrite(id: string): never {
      if (id !== DEFAULT_THEME.id) throw new TextError(404, "No theme found with given id");
      throw tsxUnsupported();
    },

    /** No draft exists (none can be made), so every id is unknown. */
    draftNotFound(): never {
      throw new TextError(404, "No draft found with given id");
    },
  };
}
