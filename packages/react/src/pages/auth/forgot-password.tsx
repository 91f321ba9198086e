// The forgot-password page: sends the reset e-mail. The answer is the same whether or not an account exists (the
// server answers alike; USER_NOT_FOUND counts as sent too), so the page never tells who has an account.
import { useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Link, Muted, PageCard } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { EmailField, SubmitWithError, useEmailForm } from "./fields.tsx";
import { keepReturnTo, SIGN_IN_ERROR_TEXTS } from "./shared.ts";

export function ForgotPassword() {
  const t = useTranslation();
  const app = useStackApp();
  const [sentTo, setSentTo] = useState<string | null>(null);

  const { run, pending, error } = useAction(async (address: string) => {
    const result = await app.sendForgotPasswordEmail(address);
    if (result.status === "error" && result.error.errorCode !== "USER_NOT_FOUND") throw result.error;
    setSentTo(address);
  }, SIGN_IN_ERROR_TEXTS);

  const { formRef, submitEmail, emailField } = useEmailForm((address) => void run(address));

  const backToSignIn = <Link href={keepReturnTo(app.urls.signIn)}>{t("auth.backToSignIn")}</Link>;
  if (sentTo) {
    return (
      <PageCard title={t("auth.forgot.title")}>
        <Alert kind="success">{t("auth.forgot.sent", { email: sentTo })}</Alert>
        {backToSignIn}
      </PageCard>
    );
  }
  return (
    <PageCard title={t("auth.forgot.title")}>
      <form ref={formRef} className="gh-stack" noValidate onSubmit={submitEmail}>
        <Muted>{t("auth.forgot.instructions")}</Muted>
        <EmailField {...emailField} />
        <SubmitWithError error={error} pending={pending}>
          {t("auth.forgot.submit")}
        </SubmitWithError>
      </form>
      {backToSignIn}
    </PageCard>
  );
}
