// Password: set one (a user who signed up without) or change it (current one required), with the length limits and
// the confirmation of PRODUCT.md §5 checked before sending; the server's answer is shown in place all the same.
import type { CurrentUser, KnownError } from "@gatehouse/sdk";
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { Alert, Button, Section } from "../../ui/primitives.tsx";
import { type ErrorTexts, useAction } from "../../ui/use-action.ts";
import { NewPasswordFields, PasswordField } from "../auth/fields.tsx";
import { checkNewPassword, NO_NEW_PASSWORD, PASSWORD_ERROR_TEXTS, useFocusInvalid } from "../auth/shared.ts";

const PASSWORD_ERRORS: ErrorTexts = {
  ...PASSWORD_ERROR_TEXTS,
  PASSWORD_CONFIRMATION_MISMATCH: "account.password.wrongOld",
};

type Errors = { oldPassword?: string | null; password?: string | null; repeat?: string | null };

export function PasswordSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const hasPassword = user.hasPassword;
  const [oldPassword, setOldPassword] = useState("");
  const [newPassword, setNewPassword] = useState(NO_NEW_PASSWORD);
  const [errors, setErrors] = useState<Errors>({});
  const [done, setDone] = useState<string | null>(null);
  const { formRef, focusInvalid } = useFocusInvalid();
  const save = useAction(async () => {
    const failure: KnownError | undefined = hasPassword
      ? await user.updatePassword({ oldPassword, newPassword: newPassword.password })
      : await user.setPassword({ password: newPassword.password });
    if (failure) throw failure;
    setOldPassword("");
    setNewPassword(NO_NEW_PASSWORD);
    setDone(hasPassword ? t("account.password.updated") : t("account.password.set"));
  }, PASSWORD_ERRORS);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {
      oldPassword: hasPassword && !oldPassword ? t("common.required") : null,
      ...checkNewPassword(newPassword, t),
    };
    setErrors(found);
    setDone(null);
    if (Object.values(found).some(Boolean)) focusInvalid();
    else void save.run();
  };

  return (
    <Section title={hasPassword ? t("account.password.changeTitle") : t("account.password.setTitle")}>
      <form ref={formRef} className="gh-stack" noValidate onSubmit={onSubmit}>
        {hasPassword && (
          <PasswordField
            label={t("account.password.old")}
            name="current-password"
            autoComplete="current-password"
            value={oldPassword}
            onChange={setOldPassword}
            error={errors.oldPassword}
          />
        )}
        <NewPasswordFields value={newPassword} onChange={setNewPassword} errors={errors} />
        {save.error && <Alert>{save.error}</Alert>}
        {done && <Alert kind="success">{done}</Alert>}
        <div className="gh-row">
          <Button type="submit" variant="primary" pending={save.pending}>
            {hasPassword ? t("account.password.changeButton") : t("account.password.setButton")}
          </Button>
        </div>
      </form>
    </Section>
  );
}
