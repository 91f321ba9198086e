// The five e-mail templates: pick one, edit its subject and HTML content with its variables listed, see a live
// preview of the unsaved draft (rendered by the server with sample values), save, or reset it to the default.
import { KnownError, StatusError } from "@gatehouse/react";
import { Alert, Button, Field, Muted, Spinner } from "@gatehouse/react/ui";
import { type FormEvent, useEffect, useId, useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { ConfirmButton } from "../bricks.tsx";
import { HtmlFrame } from "../delivery/confirm.tsx";
import { useFormAction } from "../form.ts";

/** Each type's name and the variables its placeholders may use (WIRE.md §5.2). */
export const TEMPLATE_TYPES: Record<string, { label: string; variables: string[] }> = {
  email_verification: {
    label: "E-mail verification",
    variables: ["projectDisplayName", "userDisplayName", "emailVerificationLink"],
  },
  password_reset: {
    label: "Password reset",
    variables: ["projectDisplayName", "userDisplayName", "passwordResetLink"],
  },
  magic_link: {
    label: "Sign-in code and magic link",
    variables: ["projectDisplayName", "userDisplayName", "magicLink", "otp"],
  },
  team_invitation: {
    label: "Team invitation",
    variables: ["projectDisplayName", "userDisplayName", "teamInvitationLink", "teamDisplayName"],
  },
  sign_in_invitation: {
    label: "Sign-in invitation",
    variables: ["projectDisplayName", "userDisplayName", "signInInvitationLink", "teamDisplayName"],
  },
  new_device_notice: {
    label: "New device",
    variables: ["projectDisplayName", "userDisplayName", "time", "browser", "os", "ip"],
  },
};

type Template = { type: string; subject: string; content: string; isDefault: boolean };
type Preview = { subject: string; html: string; text: string };

/** The server's own words for a refused draft (an unknown variable is a plain-text 400). */
const refusal = (error: unknown) =>
  error instanceof StatusError && error.status < 500 && error.body
    ? error.body
    : error instanceof KnownError
      ? error.humanReadableMessage
      : "The preview could not be made. Try again.";

const templatesKey = (project: { id: string }) => projectKey(project, "email-templates");

export function EmailTemplates({ project }: ProjectScreenProps) {
  const templates = useQuery(templatesKey(project), () => project.app.listEmailTemplates());
  const [selected, setSelected] = useState(templates[0]?.type ?? "email_verification");
  const template = templates.find((t) => t.type === selected);
  return (
    <div className="dash-templates">
      <nav aria-label="Templates">
        <ul className="dash-template-list">
          {templates.map((t) => (
            <li key={t.type}>
              <button
                type="button"
                aria-current={t.type === selected ? "true" : undefined}
                onClick={() => setSelected(t.type)}
              >
                <span>{TEMPLATE_TYPES[t.type]?.label ?? t.type}</span>
                <span className="dash-badge">{t.isDefault ? "default" : "edited"}</span>
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

  const save = useFormAction(async () => {
    await project.app.updateEmailTemplate(template.type, { subject, content });
    invalidate(templatesKey(project));
    setSavedNote(true);
  });
  const reset = useFormAction(async () => {
    await project.app.resetEmailTemplate(template.type);
    invalidate(templatesKey(project));
    // The draft becomes the default text the server now has.
    const fresh = (await project.app.listEmailTemplates()).find((t) => t.type === template.type);
    if (fresh) {
      setSubject(fresh.subject);
      setContent(fresh.content);
    }
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSavedNote(false);
    const error = !subject.trim()
      ? "The subject cannot be empty."
      : /[\r\n]/.test(subject)
        ? "The subject must fit on one line."
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
        aria-label={`${info?.label ?? template.type} template`}
      >
        <h3>{info?.label ?? template.type}</h3>
        <Field
          label="Subject"
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
            Content (HTML)
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
          <strong className="dash-muted">Variables</strong>
          <ul className="dash-variables" aria-label="Variables">
            {(info?.variables ?? []).map((name) => (
              <li key={name}>
                <code className="dash-mono">{`{{ ${name} }}`}</code>
              </li>
            ))}
          </ul>
          <Muted>Values are HTML-escaped in the content and inserted as plain text in the subject.</Muted>
        </div>
        {save.error && <Alert>{save.error}</Alert>}
        {savedNote && !changed && !save.error && <Alert kind="success">Template saved.</Alert>}
        <div className="dash-actions">
          <Button type="submit" variant="primary" pending={save.pending}>
            Save template
          </Button>
          {!template.isDefault && (
            <ConfirmButton
              label="Reset to default"
              question="Replace this template with the default?"
              confirmLabel="Reset"
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
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    const timer = setTimeout(() => {
      project.app.previewEmailTemplate(type, { subject, content }).then(
        (preview) => current && setState({ preview, loading: false }),
        (error: unknown) => current && setState({ error: refusal(error), loading: false }),
      );
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [project, type, subject, content]);

  return (
    <section className="dash-template-preview" aria-labelledby="template-preview" aria-busy={state.loading}>
      <h3 id="template-preview">Preview {state.loading && <Spinner />}</h3>
      {state.error && <Alert>{state.error}</Alert>}
      {state.preview && !state.error && (
        <>
          <p>
            <span className="dash-muted">Subject: </span>
            <strong data-testid="preview-subject">{state.preview.subject}</strong>
          </p>
          <HtmlFrame html={state.preview.html} title="HTML preview" />
          <details>
            <summary>Plain-text version</summary>
            <pre className="dash-code-block">{state.preview.text}</pre>
          </details>
        </>
      )}
    </section>
  );
}
