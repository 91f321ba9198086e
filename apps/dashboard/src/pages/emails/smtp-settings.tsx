// The project's sender: the instance's shared SMTP server, or its own ("standard") with the six settings, which a
// test e-mail can try before they are saved. The password is part of the admin view, so it can be edited in place.
import { Alert, Button, Field, Muted } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { useFormAction } from "../form.ts";

export type SmtpValues = {
  host: string;
  port: string;
  username: string;
  password: string;
  senderName: string;
  senderEmail: string;
};
type EmailConfig = { type: "shared" } | ({ type: "standard"; port: number } & Omit<SmtpValues, "port">);

const FIELDS: [keyof SmtpValues, DashboardKey, string][] = [
  ["host", "mail.field.host", "text"],
  ["port", "mail.field.port", "text"],
  ["username", "mail.field.username", "text"],
  ["password", "mail.field.password", "password"],
  ["senderName", "mail.field.senderName", "text"],
  ["senderEmail", "mail.field.senderEmail", "email"],
];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The field errors of standard settings, in the dashboard's language; every field is required, the port 1–65535. */
export function smtpErrors(
  values: SmtpValues,
  t: ReturnType<typeof useDashboardTranslation>,
): Partial<Record<keyof SmtpValues, string>> {
  const errors: Partial<Record<keyof SmtpValues, string>> = {};
  for (const [key, label] of FIELDS)
    if (!values[key].trim()) errors[key] = t("mail.err.required", { field: t(label) });
  const port = Number(values.port.trim());
  if (!errors.port && !(Number.isInteger(port) && port >= 1 && port <= 65535))
    errors.port = t("mail.err.port");
  if (!errors.senderEmail && !EMAIL.test(values.senderEmail.trim()))
    errors.senderEmail = t("mail.err.sender");
  return errors;
}

const standardConfig = (values: SmtpValues) => ({
  host: values.host.trim(),
  port: Number(values.port.trim()),
  username: values.username,
  password: values.password,
  senderName: values.senderName.trim(),
  senderEmail: values.senderEmail.trim(),
});

/** The project's admin view, shared with the other settings screens. */
export const useAdminProject = ({ project }: ProjectScreenProps) =>
  useQuery(projectKey(project, "project"), () => project.app.getProject());

export function SmtpSettings({ project }: ProjectScreenProps) {
  const adminProject = useAdminProject({ project });
  const saved = (adminProject.config as { emailConfig?: EmailConfig }).emailConfig ?? { type: "shared" };
  const [type, setType] = useState<"shared" | "standard">(saved.type);
  const [values, setValues] = useState<SmtpValues>(
    saved.type === "standard"
      ? { ...saved, port: String(saved.port) }
      : { host: "", port: "587", username: "", password: "", senderName: "", senderEmail: "" },
  );
  const [errors, setErrors] = useState<Partial<Record<keyof SmtpValues, string>>>({});
  const [savedNote, setSavedNote] = useState(false);
  const t = useDashboardTranslation();

  const save = useFormAction(async () => {
    const emailConfig = type === "shared" ? { type } : { type, ...standardConfig(values) };
    await adminProject.update({ config: { emailConfig } });
    invalidate(projectKey(project, "project"));
    setSavedNote(true);
  });

  /** Validates standard settings, focusing the first invalid field; answers whether they are fine. */
  const validate = (form: HTMLElement | null) => {
    const found = smtpErrors(values, t);
    setErrors(found);
    const first = FIELDS.findIndex(([key]) => found[key]);
    if (first >= 0) form?.querySelectorAll<HTMLInputElement>("input.gh-input")[first]?.focus();
    return first < 0;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSavedNote(false);
    if (type === "standard" && !validate(event.currentTarget)) return;
    void save.run();
  };

  return (
    <section className="dash-panel" aria-labelledby="smtp-settings">
      <h2 id="smtp-settings">{t("mail.sending")}</h2>
      <form className="dash-form" noValidate onSubmit={onSubmit} id="smtp-form">
        <fieldset className="dash-radios">
          <legend>{t("mail.server")}</legend>
          <label>
            <input
              type="radio"
              name="email-server"
              checked={type === "shared"}
              onChange={() => setType("shared")}
            />{" "}
            {t("mail.shared")}
          </label>
          <label>
            <input
              type="radio"
              name="email-server"
              checked={type === "standard"}
              onChange={() => setType("standard")}
            />{" "}
            {t("mail.own")}
          </label>
        </fieldset>
        {type === "shared" && <Muted>{t("mail.sharedExplain")}</Muted>}
        {type === "standard" && (
          <div className="dash-smtp-fields">
            {FIELDS.map(([key, label, inputType]) => (
              <Field
                key={key}
                label={t(label)}
                type={inputType}
                inputMode={key === "port" ? "numeric" : undefined}
                autoComplete={key === "password" ? "new-password" : "off"}
                value={values[key]}
                error={errors[key]}
                onChange={(event) => setValues({ ...values, [key]: event.target.value })}
              />
            ))}
          </div>
        )}
        {save.error && <Alert>{save.error}</Alert>}
        {savedNote && !save.pending && !save.error && <Alert kind="success">{t("mail.saved")}</Alert>}
        <div>
          <Button type="submit" variant="primary" pending={save.pending}>
            {t("mail.save")}
          </Button>
        </div>
      </form>
      {type === "standard" && (
        <TestEmail
          project={project}
          values={values}
          validate={() => validate(document.getElementById("smtp-form"))}
        />
      )}
    </section>
  );
}

function TestEmail({
  project,
  values,
  validate,
}: ProjectScreenProps & { values: SmtpValues; validate: () => boolean }) {
  const [recipient, setRecipient] = useState("");
  const [recipientError, setRecipientError] = useState<string | null>(null);
  const [result, setResult] = useState<{ ok: true } | { ok: false; message: string } | null>(null);
  const t = useDashboardTranslation();
  const send = useFormAction(async () => {
    const answer = await project.app.sendTestEmail({
      recipientEmail: recipient.trim(),
      emailConfig: standardConfig(values),
    });
    setResult(answer.status === "ok" ? { ok: true } : { ok: false, message: answer.errorMessage });
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setResult(null);
    const error = EMAIL.test(recipient.trim()) ? null : t("mail.test.err");
    setRecipientError(error);
    if (error) event.currentTarget.querySelector<HTMLInputElement>("input")?.focus();
    else if (validate()) void send.run();
  };

  return (
    <form className="dash-form dash-test-email" noValidate onSubmit={onSubmit}>
      <h3>{t("mail.test.title")}</h3>
      <Muted>{t("mail.test.explain")}</Muted>
      <Field
        label={t("mail.test.recipient")}
        type="email"
        value={recipient}
        error={recipientError}
        onChange={(event) => setRecipient(event.target.value)}
      />
      {send.error && <Alert>{send.error}</Alert>}
      {result?.ok && <Alert kind="success">{t("mail.test.ok")}</Alert>}
      {result && !result.ok && <Alert>{t("mail.test.failed", { message: result.message })}</Alert>}
      <div>
        <Button type="submit" pending={send.pending}>
          {t("mail.test.send")}
        </Button>
      </div>
    </form>
  );
}
