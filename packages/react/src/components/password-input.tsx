// A labelled password input with a button that shows what was typed (and hides it again), as every sign-in page
// people like has. The button sits inside the field, is named for what it does ("Show password" / "Hide password"),
// and is a plain button, so it never submits the form. Errors and hints are tied to the input as in Field.
import { type InputHTMLAttributes, useId, useState } from "react";
import { useTranslation } from "../i18n.ts";
import { FieldNotes } from "../ui/primitives.tsx";

export type PasswordInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "className" | "id" | "type"> & {
  label: string;
  error?: string | null;
  hint?: string;
};

export function PasswordInput({ label, error, hint, ...input }: PasswordInputProps) {
  const t = useTranslation();
  const id = useId();
  const [shown, setShown] = useState(false);
  const describedBy = [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
  return (
    <div className="gh-field">
      <label className="gh-label" htmlFor={id}>
        {label}
      </label>
      <div className="gh-password">
        <input
          {...input}
          id={id}
          type={shown ? "text" : "password"}
          className="gh-input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
        />
        <button
          type="button"
          className="gh-password-toggle"
          aria-label={t(shown ? "polish.password.hide" : "polish.password.show")}
          aria-controls={id}
          onClick={() => setShown((value) => !value)}
        >
          <EyeIcon crossed={shown} />
        </button>
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** An eye; crossed out while the password shows (the button then hides it). */
function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M3 3l18 18" />}
    </svg>
  );
}
