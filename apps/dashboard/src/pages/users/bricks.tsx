// Pieces the user and team screens share: dates for table cells, the refresh after a write to users, the JSON
// metadata editors that refuse invalid JSON before sending, a checkbox, and the light checks of their forms.
import { Alert, Button, useLocale } from "@gatehouse/react/ui";
import { type FormEvent, type ReactNode, useId, useMemo, useRef, useState } from "react";
import { invalidate } from "../../data.ts";
import { useDashboardTranslation } from "../../messages.ts";
import { projectKey } from "../../project.tsx";
import { Link } from "../../router.tsx";
import { useFormAction } from "../form.ts";

/** A date and time in the chosen language (Intl), as a table cell shows it. */
export function useDateTime() {
  const locale = useLocale();
  return useMemo(
    () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }),
    [locale],
  );
}

/** A date for a table cell, in the chosen language; "never" for the SDK's zero date (a user who was never active). */
export function When({ date }: { date: Date }) {
  const t = useDashboardTranslation();
  const dateTime = useDateTime();
  return date.getTime() === 0 ? t("date.never") : dateTime.format(date);
}

/** After a write to users: every read of the project's users, and of the teams that list them, again. */
export const usersChanged = (project: { id: string }) =>
  invalidate(projectKey(project, "users"), projectKey(project, "teams"));

const pretty = (value: unknown) => JSON.stringify(value ?? null, null, 2);

/** One metadata field as JSON in a textarea: invalid JSON is refused in place and nothing is sent. */
export function JsonEditor({
  label,
  submit,
  hint,
  value,
  onSave,
}: {
  label: string;
  submit: string;
  hint: string;
  value: unknown;
  onSave: (value: unknown) => Promise<void>;
}) {
  const t = useDashboardTranslation();
  const id = useId();
  const [text, setText] = useState(() => pretty(value));
  const [invalid, setInvalid] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const save = useFormAction(async (parsed: unknown) => {
    await onSave(parsed);
    setText(pretty(parsed));
    setSaved(true);
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.trim() === "" ? "null" : text);
    } catch (error) {
      setInvalid(t("json.invalid", { error: (error as Error).message }));
      textarea.current?.focus();
      return;
    }
    setInvalid(null);
    void save.run(parsed);
  };
  const describedBy = [`${id}-hint`, invalid ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <form className="dash-form dash-json" noValidate onSubmit={onSubmit}>
      <label className="dash-select" htmlFor={id}>
        {label}
      </label>
      <p className="dash-muted" id={`${id}-hint`}>
        {hint}
      </p>
      <textarea
        ref={textarea}
        id={id}
        className="dash-textarea"
        spellCheck={false}
        value={text}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          setText(event.target.value);
          setSaved(false);
        }}
      />
      {invalid && (
        <p className="gh-field-error" id={`${id}-error`} role="alert">
          {invalid}
        </p>
      )}
      {save.error && <Alert>{save.error}</Alert>}
      {saved && <Alert kind="success">{t("json.saved", { label })}</Alert>}
      <div>
        <Button type="submit" pending={save.pending}>
          {submit}
        </Button>
      </div>
    </form>
  );
}

type Metadata = { clientMetadata: unknown; clientReadOnlyMetadata: unknown; serverMetadata: unknown };

/** The three metadata fields of a user or a team, each as JSON in its own editor; `hints` say who reads them. */
export function MetadataEditors({
  of,
  hints,
  onSave,
}: {
  of: Metadata;
  hints: Record<keyof Metadata, string>;
  onSave: (update: Partial<Metadata>) => Promise<void>;
}) {
  const t = useDashboardTranslation();
  const editor = (key: keyof Metadata, label: string, submit: string) => (
    <JsonEditor
      label={label}
      submit={submit}
      hint={hints[key]}
      value={of[key]}
      onSave={(value) => onSave({ [key]: value })}
    />
  );
  return (
    <div className="dash-json-grid">
      {editor("clientMetadata", t("metadata.client"), t("metadata.saveClient"))}
      {editor("clientReadOnlyMetadata", t("metadata.clientReadOnly"), t("metadata.saveClientReadOnly"))}
      {editor("serverMetadata", t("metadata.server"), t("metadata.saveServer"))}
    </div>
  );
}

/**
 * The panel of a "New …" form (users, teams): its fields, the action's error, the created one as a link to its
 * page, and the submit and Close buttons. `onSubmit` checks the fields (see `checked`) before running the action.
 */
export function CreatePanel({
  id,
  title,
  submit,
  action,
  created,
  onSubmit,
  onClose,
  children,
}: {
  id: string;
  title: string;
  submit: string;
  action: { pending: boolean; error: string | null };
  created: { to: string; name: string } | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const t = useDashboardTranslation();
  return (
    <section className="dash-panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <form className="dash-form" noValidate onSubmit={onSubmit}>
        {children}
        {action.error && <Alert>{action.error}</Alert>}
        {created && (
          <p className="gh-alert gh-success" role="status">
            {t("common.created")} <Link to={created.to}>{created.name}</Link>.
          </p>
        )}
        <div className="dash-actions">
          <Button type="submit" variant="primary" pending={action.pending}>
            {submit}
          </Button>
          <Button onClick={onClose}>{t("common.close")}</Button>
        </div>
      </form>
    </section>
  );
}

/** After a form's own checks found `errors` (by field name): focus the first invalid field, or `run` if none. */
export function checked(form: HTMLFormElement, errors: Record<string, string | undefined>, run: () => void) {
  const invalid = Object.keys(errors).filter((name) => errors[name]);
  if (invalid.length > 0) focusFirst(form, invalid);
  else run();
}

/** A checkbox with its label, styled like the bricks' fields. */
export function Checkbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="dash-check">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  );
}

/** Focuses the first field of `form` named in `names` (the first invalid one, in the form's order). */
export function focusFirst(form: HTMLFormElement, names: string[]) {
  for (const element of form.querySelectorAll<HTMLElement>("[name]")) {
    if (names.includes(element.getAttribute("name") ?? "")) {
      element.focus();
      return;
    }
  }
}

/** A light check of an e-mail address's shape (the server has the last word). */
export const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
