// The password-reset page: the e-mailed link's `code` is checked first (an invalid, expired or used link says so
// and offers a new one), then the new password is asked twice with PRODUCT.md §5's checks, then set.
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Link, PageCard, Spinner } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { useCodeCheck } from "./code-check.ts";
import { NewPasswordFields, SubmitWithError } from "./fields.tsx";
import {
  CODE_ERROR_TEXTS,
  checkNewPassword,
  keepReturnTo,
  NO_NEW_PASSWORD,
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
  const [newPassword, setNewPassword] = useState(NO_NEW_PASSWORD);
  const [errors, setErrors] = useState<ReturnType<typeof checkNewPassword>>({ password: null, repeat: null });
  const [done, setDone] = useState(false);
  const { formRef, focusInvalid } = useFocusInvalid();

  const { run, pending, error } = useAction(async (newPassword: string) => {
    const result = await app.resetPassword({ code: code ?? "", password: newPassword });
    if (result.status === "error") throw result.error;
    setDone(true);
  }, RESET_ERROR_TEXTS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = checkNewPassword(newPassword, t);
    setErrors(next);
    if (next.password || next.repeat) focusInvalid();
    else void run(newPassword.password);
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
        <NewPasswordFields value={newPassword} onChange={setNewPassword} errors={errors} />
        <SubmitWithError
          error={error}
          errorLink={<Link href={keepReturnTo(app.urls.forgotPassword)}>{t("auth.reset.requestNew")}</Link>}
          pending={pending}
        >
          {t("auth.reset.submit")}
        </SubmitWithError>
      </form>
    </PageCard>
  );
}
