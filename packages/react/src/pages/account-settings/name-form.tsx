// A name edited and saved in place: the user's display name, their name in a team, a team's name. At most 256
// characters (WIRE.md §1.6); an empty name is saved as none unless one is required.
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { Alert, Button, Field } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";

const MAX_NAME_LENGTH = 256;

type NameFormProps = {
  label: string;
  initial: string | null;
  required?: boolean;
  onSave: (name: string | null) => Promise<void>;
  saveLabel?: string;
  /** Empties the field after a save (a form that creates something rather than edits it). */
  clearOnSave?: boolean;
};

export function NameForm({
  label,
  initial,
  required = false,
  onSave,
  saveLabel,
  clearOnSave,
}: NameFormProps) {
  const t = useTranslation();
  const [name, setName] = useState(initial ?? "");
  const [nameError, setNameError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useAction(async (value: string | null) => {
    await onSave(value);
    if (clearOnSave) setName("");
    else setSaved(true);
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const value = name.trim();
    const error =
      required && !value
        ? t("common.required")
        : [...value].length > MAX_NAME_LENGTH
          ? t("account.nameTooLong", { max: MAX_NAME_LENGTH })
          : null;
    setNameError(error);
    if (error) event.currentTarget.querySelector("input")?.focus();
    else void save.run(value || null);
  };

  return (
    <form className="gh-stack" noValidate onSubmit={onSubmit}>
      <Field
        label={label}
        value={name}
        error={nameError}
        onChange={(event) => {
          setName(event.target.value);
          setSaved(false);
        }}
      />
      {save.error && <Alert>{save.error}</Alert>}
      {saved && <Alert kind="success">{t("common.saved")}</Alert>}
      <div className="gh-row">
        <Button type="submit" pending={save.pending}>
          {saveLabel ?? t("common.save")}
        </Button>
      </div>
    </form>
  );
}
