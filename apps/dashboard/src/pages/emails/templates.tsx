// The five e-mail templates: pick one, edit its subject and HTML content with its variables listed, see a live
// preview of the unsaved draft (rendered by the server with sample values), save, or reset it to the default.
import { KnownError, StatusError } from "@gatehouse/react";
import { Alert, Button, Field, Muted, Spinner } from "@gatehouse/react/ui";
import { type FormEvent, useEffect, useId, useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { ConfirmButton } from "../bricks.tsx";
import { HtmlFrame } from "../delivery/confirm.tsx";
import { useFormAction } from "../form.ts";

/** Each type's name and the variables its placeholders may use (WIRE.md §5.2). */
export const TEMPLATE_TYPES: Record<string, { label: DashboardKey; variables: string[] }> = {
  email_verification: {
    label: "mail.type.email_verification",
    variables: ["projectDisplayName", "userDisplayName", "emailVerificationLink"],
  },
  password_reset: {
    label: "mail.type.password_reset",
    variables: ["projectDisplayName", "userDisplayName", "passwordResetLink"],
  },
  magic_link: {
    label: "mail.type.magic_link",
    variables: ["projectDisplayName", "userDisplayName", "magicLink", "otp"],
  },
  team_invitation: {
    label: "mail.type.team_invitation",
    variables: ["projectDisplayName", "userDisplayName", "teamInvitationLink", "teamDisplayName"],
  },
  sign_in_invitation: {
    label: "mail.type.sign_in_invitation",
    variables: ["projectDisplayName", "userDisplayName", "signInInvitationLink", "teamDisplayName"],
  },
  new_device_notice: {
    label: "mail.type.new_device_notice",
    variables: ["projectDisplayName", "userDisplayName", "time", "browser", "os", "ip"],
  },
};

type Template = { type: string; subject: string; content: string; isDefault: boolean };
type Preview = { subject: string; html: string; text: string };

/** The server's own words for a refused draft (an unknown variable is a plain-text 400), else `fallback`. */
const refusal = (error: unknown, fallback: string) =>
  error instanceof StatusError && error.status < 500 && error.body
    ? error.body
    : error instanceof KnownError
      ? error.humanReadableMessage
      : fallback;

const templatesKey = (project: { id: string }) => projectKey(project, "email-templates");

export function EmailTemplates({ project }: ProjectScreenProps) {
  const templates = useQuery(templatesKey(project), () => project.app.listEmailTemplates());
  const [selected, setSelected] = useState(templates[0]?.type ?? "email_verification");
  const template = templates.find((each) => each.type === selected);
  const t = useDashboardTranslation();
  const name = (type: string) => {
    const label = TEMPLATE_TYPES[type]?.label;
    return label ? t(label) : type;
  };
  return (
    <div className="dash-templates">
      <nav aria-label={t("mail.templates")}>
        <ul className="dash-template-list">
          {templates.map((each) => (
            <li key={each.type}>
              <button
                type="button"
                aria-current={each.type === selected ? "true" : undefined}
                onClick={() => setSelected(each.type)}
              >
                <span>{name(each.type)}</span>
                <span className="dash-badge">{each.isDefault ? t("mail.default") : t("mail.edited")}</span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {template && (
        // Keyed by type: switching starts a fresh draft from the stored template; saving keeps the draft (now saved).
        <TemplateEditor key={template.type} project={project} template={template} />
      )}
    </div>
  );
}

function TemplateEditor({ project, template }: ProjectScreenProps & { template: Template }) {
  const [subject, setSubject] = useState(template.subject);
  const [content, setContent] = useState(template.content);
  const [subjectError, setSubjectError] = useState<string | null>(null);
  const [savedNote, setSavedNote] = useState(false);
  const contentId = useId();
  const info = TEMPLATE_TYPES[template.type];
  const changed = subject !== template.subject || content !== template.content;
  const t = useDashboardTranslation();
  const label = info ? t(info.label) : template.type;

  const save = useFormAction(async () => {
    await project.app.updateEmailTemplate(template.type, { subject, content });
    invalidate(templatesKey(project));
    setSavedNote(true);
  });
  const reset = useFormAction(async () => {
    await project.app.resetEmailTemplate(template.type);
    invalidate(templatesKey(project));
    // The draft becomes the default text the server now has.
    const fresh = (await project.app.listEmailTemplates()).find((each) => each.type === template.type);
    if (fresh) {
      setSubject(fresh.subject);
      setContent(fresh.content);
    }
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSavedNote(false);
    const error = !subject.trim()
      ? t("mail.err.subjectEmpty")
      : /[\r\n]/.test(subject)
        ? t("mail.err.subjectLine")
        : null;
    setSubjectError(error);
    if (error) event.currentTarget.querySelector<HTMLInputElement>("input")?.focus();
    else void save.run();
  };

  return (
    <div className="dash-template-editor">
      <form
        className="dash-form"
        noValidate
        onSubmit={onSubmit}
        aria-label={t("mail.templateName", { name: label })}
      >
        <h3>{label}</h3>
        <Field
          label={t("mail.subject")}
          value={subject}
          maxLength={500}
          error={subjectError}
          onChange={(event) => {
            setSubject(event.target.value);
            setSavedNote(false);
          }}
        />
        <div className="gh-field">
          <label className="gh-label" htmlFor={contentId}>
            {t("mail.content")}
          </label>
          <textarea
            id={contentId}
            className="dash-textarea"
            value={content}
            rows={14}
            spellCheck={false}
            onChange={(event) => {
              setContent(event.target.value);
              setSavedNote(false);
            }}
          />
        </div>
        <div>
          <strong className="dash-muted">{t("mail.variables")}</strong>
          <ul className="dash-variables" aria-label={t("mail.variables")}>
            {(info?.variables ?? []).map((name) => (
              <li key={name}>
                <code className="dash-mono">{`{{ ${name} }}`}</code>
              </li>
            ))}
          </ul>
          <Muted>{t("mail.variablesExplain")}</Muted>
        </div>
        {save.error && <Alert>{save.error}</Alert>}
        {savedNote && !changed && !save.error && <Alert kind="success">{t("mail.templateSaved")}</Alert>}
        <div className="dash-actions">
          <Button type="submit" variant="primary" pending={save.pending}>
            {t("mail.saveTemplate")}
          </Button>
          {!template.isDefault && (
            <ConfirmButton
              label={t("mail.reset")}
              question={t("mail.resetQuestion")}
              confirmLabel={t("mail.resetYes")}
              pending={reset.pending}
              error={reset.error}
              onConfirm={reset.run}
            />
          )}
        </div>
      </form>
      <TemplatePreview project={project} type={template.type} subject={subject} content={content} />
    </div>
  );
}

/** The draft rendered by the server, a moment after the last keystroke; the newest answer wins. */
function TemplatePreview({
  project,
  type,
  subject,
  content,
}: ProjectScreenProps & Omit<Template, "isDefault">) {
  const [state, setState] = useState<{ preview?: Preview; error?: string; loading: boolean }>({
    loading: true,
  });
  const t = useDashboardTranslation();
  const failed = t("mail.previewError");
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    const timer = setTimeout(() => {
      project.app.previewEmailTemplate(type, { subject, content }).then(
        (preview) => current && setState({ preview, loading: false }),
        (error: unknown) => current && setState({ error: refusal(error, failed), loading: false }),
      );
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [project, type, subject, content, failed]);

  return (
    <section className="dash-template-preview" aria-labelledby="template-preview" aria-busy={state.loading}>
      <h3 id="template-preview">
        {t("mail.preview")} {state.loading && <Spinner />}
      </h3>
      {state.error && <Alert>{state.error}</Alert>}
      {state.preview && !state.error && (
        <>
          <p>
            <span className="dash-muted">{t("mail.subjectLabel")}</span>
            <strong data-testid="preview-subject">{state.preview.subject}</strong>
          </p>
          <HtmlFrame html={state.preview.html} title={t("mail.htmlPreview")} />
          <details>
            <summary>{t("mail.plainText")}</summary>
            <pre className="dash-code-block">{state.preview.text}</pre>
          </details>
        </>
      )}
    </section>
  );
}
