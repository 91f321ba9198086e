// The e-mail and password form: sign-in (with the forgot-password link) or sign-up (with the password repeated and
// checked against the server's length rules before sending). The SDK redirects after success.
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Link } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { BOT_CHALLENGE_ERROR_TEXTS, useBotChallenge } from "./bot-challenge.tsx";
import { EmailField, NewPasswordFields, PasswordField, SubmitWithError } from "./fields.tsx";
import {
  checkEmail,
  checkNewPassword,
  finishOrMfa,
  keepReturnTo,
  NO_NEW_PASSWORD,
  PASSWORD_ERROR_TEXTS,
  SIGN_IN_ERROR_TEXTS,
  useFocusInvalid,
} from "./shared.ts";

const SIGN_IN_TEXTS = { ...SIGN_IN_ERROR_TEXTS, ...BOT_CHALLENGE_ERROR_TEXTS };
const SIGN_UP_ERROR_TEXTS = {
  ...SIGN_IN_TEXTS,
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
  const [newPassword, setNewPassword] = useState(NO_NEW_PASSWORD);
  const [errors, setErrors] = useState<Errors>({});
  const { formRef, focusInvalid } = useFocusInvalid();
  const signUp = type === "sign-up";
  // After a sign-up the server has mailed a verification link: say so while the page moves on to onboarding.
  const [verificationSentTo, setVerificationSentTo] = useState<string | null>(null);
  const bot = useBotChallenge();

  const { run, pending, error } = useAction(
    async () => {
      const credentials = {
        email: email.trim(),
        password: signUp ? newPassword.password : password,
        botChallenge: bot.answer(),
      };
      // The token passes once: whatever the answer, a retry needs a new one.
      if (!signUp) return finishOrMfa(await app.signInWithCredential(credentials).finally(bot.used), onMfa);
      finishOrMfa(
        await app.signUpWithCredential({ ...credentials, noRedirect: true }).finally(bot.used),
        onMfa,
      );
      const user = await app.getUser();
      if (user?.primaryEmail && !user.primaryEmailVerified) {
        // A lasting notice: the onboarding page says where the link went, can send it again, and goes on to the
        // app when the person chooses (at once, once the address is verified).
        setVerificationSentTo(credentials.email);
        await app.redirectToOnboarding({ signedUp: true });
      } else await app.redirectToAfterSignIn({ isNewUser: true });
    },
    signUp ? SIGN_UP_ERROR_TEXTS : SIGN_IN_TEXTS,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Errors = signUp
      ? { email: checkEmail(email, t), ...checkNewPassword(newPassword, t) }
      : { email: checkEmail(email, t), password: password ? null : t("common.required") };
    setErrors(next);
    if (Object.values(next).some(Boolean)) {
      focusInvalid();
      return;
    }
    if (bot.ready()) void run();
  };

  return (
    <form ref={formRef} className="gh-stack" noValidate onSubmit={submit}>
      <EmailField value={email} onChange={setEmail} error={errors.email} />
      {signUp ? (
        <NewPasswordFields first value={newPassword} onChange={setNewPassword} errors={errors} />
      ) : (
        <>
          <PasswordField
            label={t("common.password")}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={errors.password}
          />
          <div className="gh-row">
            <Link href={keepReturnTo(app.urls.forgotPassword)}>{t("auth.forgotPassword")}</Link>
          </div>
        </>
      )}
      {bot.element}
      {verificationSentTo && (
        <Alert kind="success">{t("polish.signUp.verificationSent", { email: verificationSentTo })}</Alert>
      )}
      <SubmitWithError error={error} pending={pending}>
        {t(signUp ? "auth.signUp.submit" : "auth.signIn.submit")}
      </SubmitWithError>
    </form>
  );
}
