// The password-reset page: the e-mailed link's `code` is checked first (an invalid, expired or used link says so
// and offers a new one), then the new password is asked twice with PRODUCT.md §5's checks, then set.
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Button, Field, Link, PageCard, Spinner } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { useCodeCheck } from "./code-check.ts";
import {
  CODE_ERROR_TEXTS,
  checkNewPassword,
  keepReturnTo,
  PASSWORD_ERROR_TEXTS,
  useFocusInvalid,
  useQueryParam,
} from "./shared.ts";

const RESET_ERROR_TEXTS = { ...CODE_ERROR_TEXTS, ...PASSWORD_ERROR_TEXTS };

export function PasswordReset() {
  const t = useTranslation();
  const app = useStackApp();
  const code = useQueryParam("code");
  const check = useCodeCheck(code, app.verifyPasswordResetCode);
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<{ password: string | null; repeat: string | null }>({
    password: null,
    repeat: null,
  });
  const [done, setDone] = useState(false);
  const { formRef, focusInvalid } = useFocusInvalid();

  const { run, pending, error } = useAction(async (newPassword: string) => {
    const result = await app.resetPassword({ code: code ?? "", password: newPassword });
    if (result.status === "error") throw result.error;
    setDone(true);
  }, RESET_ERROR_TEXTS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = checkNewPassword(password, repeat, t);
    setErrors(next);
    if (next.password || next.repeat) focusInvalid();
    else void run(password);
  };

  const title = t("auth.reset.title");
  if (done) {
    return (
      <PageCard title={title}>
        <Alert kind="success">{t("auth.reset.done")}</Alert>
        <Link href={app.urls.signIn}>{t("auth.signIn.submit")}</Link>
      </PageCard>
    );
  }
  if (check.state === "checking") {
    return (
      <PageCard title={title}>
        <Spinner label={t("auth.reset.checking")} />
      </PageCard>
    );
  }
  if (check.state === "invalid") {
    return (
      <PageCard title={title}>
        <Alert>{check.message}</Alert>
        <Link href={keepReturnTo(app.urls.forgotPassword)}>{t("auth.reset.requestNew")}</Link>
      </PageCard>
    );
  }
  return (
    <PageCard title={title}>
      <form ref={formRef} className="gh-stack" noValidate onSubmit={submit}>
        <Field
          label={t("auth.newPassword")}
          type="password"
          name="new-password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
        />
        <Field
          label={t("auth.repeatNewPassword")}
          type="password"
          name="repeat-password"
          autoComplete="new-password"
          value={repeat}
          onChange={(event) => setRepeat(event.target.value)}
          error={errors.repeat}
        />
        {error && (
          <Alert>
            {error} <Link href={keepReturnTo(app.urls.forgotPassword)}>{t("auth.reset.requestNew")}</Link>
          </Alert>
        )}
        <Button type="submit" variant="primary" full pending={pending}>
          {t("auth.reset.submit")}
        </Button>
      </form>
    </PageCard>
  );
}
