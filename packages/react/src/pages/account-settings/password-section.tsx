// Password: set one (a user who signed up without) or change it (current one required), with the length limits and
// the confirmation of PRODUCT.md §5 checked before sending; the server's answer is shown in place all the same.
import type { CurrentUser, KnownError } from "@gatehouse/sdk";
import { type FormEvent, useState } from "react";
import { type Translate, useTranslation } from "../../i18n.ts";
import { Alert, Button, Field, Section } from "../../ui/primitives.tsx";
import { type ErrorTexts, useAction } from "../../ui/use-action.ts";
import { fieldValue, focusFirstInvalid } from "./form.ts";

/** The server's limits (WIRE.md §4.1), in Unicode code points. */
const MIN_LENGTH = 8;
const MAX_LENGTH = 256;

const PASSWORD_ERRORS: ErrorTexts = {
  PASSWORD_TOO_SHORT: (error, t) =>
    t("account.password.tooShort", { n: Number(error.details?.min_length ?? MIN_LENGTH) }),
  PASSWORD_TOO_LONG: (error, t) =>
    t("account.password.tooLong", { n: Number(error.details?.maxLength ?? MAX_LENGTH) }),
  PASSWORD_CONFIRMATION_MISMATCH: "account.password.wrongOld",
};

type Errors = Record<string, string | null>;

/** The field errors of the form, before anything is sent. */
function validate(values: Record<string, string>, hasPassword: boolean, t: Translate): Errors {
  const length = [...values.newPassword!].length;
  return {
    oldPassword: hasPassword && !values.oldPassword ? t("common.required") : null,
    newPassword: !values.newPassword
      ? t("common.required")
      : length < MIN_LENGTH
        ? t("account.password.tooShort", { n: MIN_LENGTH })
        : length > MAX_LENGTH
          ? t("account.password.tooLong", { n: MAX_LENGTH })
          : null,
    repeatPassword: values.repeatPassword !== values.newPassword ? t("account.password.mismatch") : null,
  };
}

export function PasswordSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const hasPassword = user.hasPassword;
  const [errors, setErrors] = useState<Errors>({});
  const [done, setDone] = useState<string | null>(null);
  const save = useAction(async (form: HTMLFormElement, values: Record<string, string>) => {
    const failure: KnownError | undefined = hasPassword
      ? await user.updatePassword({ oldPassword: values.oldPassword!, newPassword: values.newPassword! })
      : await user.setPassword({ password: values.newPassword! });
    if (failure) throw failure;
    form.reset();
    setDone(hasPassword ? t("account.password.updated") : t("account.password.set"));
  }, PASSWORD_ERRORS);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = Object.fromEntries(
      ["oldPassword", "newPassword", "repeatPassword"].map((name) => [name, fieldValue(form, name)]),
    );
    const found = validate(values, hasPassword, t);
    setErrors(found);
    setDone(null);
    if (!focusFirstInvalid(form, found)) void save.run(form, values);
  };

  return (
    <Section title={hasPassword ? t("account.password.changeTitle") : t("account.password.setTitle")}>
      <form className="gh-stack" noValidate onSubmit={onSubmit}>
        {hasPassword && (
          <Field
            label={t("account.password.old")}
            type="password"
            name="oldPassword"
            autoComplete="current-password"
            error={errors.oldPassword}
          />
        )}
        <Field
          label={t("account.password.new")}
          type="password"
          name="newPassword"
          autoComplete="new-password"
          error={errors.newPassword}
        />
        <Field
          label={t("account.password.repeat")}
          type="password"
          name="repeatPassword"
          autoComplete="new-password"
          error={errors.repeatPassword}
        />
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
