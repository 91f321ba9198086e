// The forgot-password page: sends the reset e-mail. The answer is the same whether or not an account exists (the
// server answers alike; USER_NOT_FOUND counts as sent too), so the page never tells who has an account.
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Button, Field, Link, Muted, PageCard } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { checkEmail, keepReturnTo, SIGN_IN_ERROR_TEXTS, useFocusInvalid } from "./shared.ts";

export function ForgotPassword() {
  const t = useTranslation();
  const app = useStackApp();
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { formRef, focusInvalid } = useFocusInvalid();

  const { run, pending, error } = useAction(async (address: string) => {
    const result = await app.sendForgotPasswordEmail(address);
    if (result.status === "error" && result.error.errorCode !== "USER_NOT_FOUND") throw result.error;
    setSentTo(address);
  }, SIGN_IN_ERROR_TEXTS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkEmail(email, t);
    setEmailError(problem);
    if (problem) focusInvalid();
    else void run(email.trim());
  };

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
      <form ref={formRef} className="gh-stack" noValidate onSubmit={submit}>
        <Muted>{t("auth.forgot.instructions")}</Muted>
        <Field
          label={t("common.email")}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={emailError}
        />
        {error && <Alert>{error}</Alert>}
        <Button type="submit" variant="primary" full pending={pending}>
          {t("auth.forgot.submit")}
        </Button>
      </form>
      {backToSignIn}
    </PageCard>
  );
}
