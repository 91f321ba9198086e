// The e-mail and password form: sign-in (with the forgot-password link) or sign-up (with the password repeated and
// checked against the server's length rules before sending). The SDK redirects after success.
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Button, Field, Link } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import {
  checkEmail,
  checkNewPassword,
  finishOrMfa,
  keepReturnTo,
  PASSWORD_ERROR_TEXTS,
  SIGN_IN_ERROR_TEXTS,
  useFocusInvalid,
} from "./shared.ts";

const SIGN_UP_ERROR_TEXTS = {
  ...SIGN_IN_ERROR_TEXTS,
  ...PASSWORD_ERROR_TEXTS,
  USER_EMAIL_ALREADY_EXISTS: "auth.emailExists",
} as const;

type Errors = { email?: string | null; password?: string | null; repeat?: string | null };

export function CredentialForm({
  type,
  onMfa,
}: {
  type: "sign-in" | "sign-up";
  onMfa: (attemptCode: string) => void;
}) {
  const t = useTranslation();
  const app = useStackApp();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const { formRef, focusInvalid } = useFocusInvalid();
  const signUp = type === "sign-up";

  const { run, pending, error } = useAction(
    async () => {
      const credentials = { email: email.trim(), password };
      const result = signUp
        ? await app.signUpWithCredential(credentials)
        : await app.signInWithCredential(credentials);
      finishOrMfa(result, onMfa);
    },
    signUp ? SIGN_UP_ERROR_TEXTS : SIGN_IN_ERROR_TEXTS,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Errors = signUp
      ? { email: checkEmail(email, t), ...checkNewPassword(password, repeat, t) }
      : { email: checkEmail(email, t), password: password ? null : t("common.required") };
    setErrors(next);
    if (Object.values(next).some(Boolean)) {
      focusInvalid();
      return;
    }
    void run();
  };

  return (
    <form ref={formRef} className="gh-stack" noValidate onSubmit={submit}>
      <Field
        label={t("common.email")}
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={errors.email}
      />
      <Field
        label={t("common.password")}
        type="password"
        name="password"
        autoComplete={signUp ? "new-password" : "current-password"}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password}
      />
      {signUp && (
        <Field
          label={t("auth.repeatPassword")}
          type="password"
          name="repeat-password"
          autoComplete="new-password"
          value={repeat}
          onChange={(event) => setRepeat(event.target.value)}
          error={errors.repeat}
        />
      )}
      {!signUp && (
        <div className="gh-row">
          <Link href={keepReturnTo(app.urls.forgotPassword)}>{t("auth.forgotPassword")}</Link>
        </div>
      )}
      {error && <Alert>{error}</Alert>}
      <Button type="submit" variant="primary" full pending={pending}>
        {t(signUp ? "auth.signUp.submit" : "auth.signIn.submit")}
      </Button>
    </form>
  );
}
