// The form pieces the sign-in pages (and the account settings' password section) share: the e-mail field, a password
// field, the new password with its repetition (checked by checkNewPassword in shared.ts), and a form's end: its error
// in place and the full-width submit button.
import { type FormEvent, type ReactNode, useState } from "react";
import { PasswordInput, type PasswordInputProps } from "../../components/password-input.tsx";
import { useTranslation } from "../../i18n.ts";
import { Alert, Button, Field } from "../../ui/primitives.tsx";
import { checkEmail, type NewPassword, useFocusInvalid } from "./shared.ts";

export function EmailField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | null | undefined;
}) {
  const t = useTranslation();
  return (
    <Field
      label={t("common.email")}
      type="email"
      name="email"
      autoComplete="email"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
    />
  );
}

/**
 * A form that asks for an e-mail address: the props of its EmailField, and the submit handler that checks the address
 * (focusing the field when it is wrong) before calling `send` with it trimmed. `formRef` goes on the form.
 */
export function useEmailForm(send: (email: string) => void) {
  const t = useTranslation();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const { formRef, focusInvalid } = useFocusInvalid();
  const submitEmail = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkEmail(email, t);
    setError(problem);
    if (problem) focusInvalid();
    else send(email.trim());
  };
  return { formRef, focusInvalid, submitEmail, emailField: { value: email, onChange: setEmail, error } };
}

/** A password input (with its show-password button) whose `onChange` gets the text. */
export function PasswordField({
  onChange,
  ...field
}: Omit<PasswordInputProps, "onChange"> & { onChange: (value: string) => void }) {
  return <PasswordInput {...field} onChange={(event) => onChange(event.target.value)} />;
}

/**
 * A new password asked twice. `first` labels them for a first password (sign-up: "Password"), otherwise they read
 * "New password" (a reset, a change).
 */
export function NewPasswordFields({
  value,
  onChange,
  errors,
  first = false,
}: {
  value: NewPassword;
  onChange: (value: NewPassword) => void;
  errors: { password?: string | null; repeat?: string | null };
  first?: boolean;
}) {
  const t = useTranslation();
  return (
    <>
      <PasswordField
        label={t(first ? "common.password" : "auth.newPassword")}
        name="new-password"
        autoComplete="new-password"
        value={value.password}
        onChange={(password) => onChange({ ...value, password })}
        error={errors.password}
      />
      <PasswordField
        label={t(first ? "auth.repeatPassword" : "auth.repeatNewPassword")}
        name="repeat-password"
        autoComplete="new-password"
        value={value.repeat}
        onChange={(repeat) => onChange({ ...value, repeat })}
        error={errors.repeat}
      />
    </>
  );
}

/**
 * The end of a sign-in form: the action's error (when there is one, followed by `errorLink`, a way out) and the
 * full-width primary submit button.
 */
export function SubmitWithError({
  error,
  errorLink,
  pending,
  children,
}: {
  error: string | null;
  errorLink?: ReactNode;
  pending: boolean;
  children: ReactNode;
}) {
  return (
    <>
      {error && (
        <Alert>
          {error}
          {errorLink && <> {errorLink}</>}
        </Alert>
      )}
      <Button type="submit" variant="primary" full pending={pending}>
        {children}
      </Button>
    </>
  );
}
