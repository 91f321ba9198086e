// The second factor of a paused sign-in: the six-digit code of the authenticator app, sent with the attempt code
// the pause answered (MULTI_FACTOR_AUTHENTICATION_REQUIRED). Shown in place by every sign-in page, and as the
// handler's `mfa` page, which reads `attempt_code` from the query.
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Button, Field, Link, LinkButton, Muted, PageCard } from "../../ui/primitives.tsx";
import type { ErrorTexts } from "../../ui/use-action.ts";
import { keepReturnTo, useAuthAction, useFocusInvalid, useQueryParam } from "./shared.ts";

export type MfaStepProps = {
  attemptCode: string;
  /** Called after the sign-in completed (the SDK is already redirecting). */
  onDone?: () => void;
  /** Offered as "Back" when given: leaves the step (the attempt is abandoned). */
  onCancel?: () => void;
  /** The text of a wrong code; the OAuth callback asks to sign in again (PRODUCT.md §4). */
  invalidCodeText?: string;
};

/** The attempt code's own problems (5 minutes, 5 submissions) end the attempt: the person signs in again. */
const ATTEMPT_ERRORS: ErrorTexts = {
  SCHEMA_ERROR: "auth.mfa.attemptExpired",
  VERIFICATION_CODE_NOT_FOUND: "auth.mfa.attemptExpired",
  VERIFICATION_CODE_EXPIRED: "auth.mfa.attemptExpired",
  VERIFICATION_CODE_ALREADY_USED: "auth.mfa.attemptExpired",
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: "auth.mfa.attemptExpired",
};

export function MfaStep({ attemptCode, onDone, onCancel, invalidCodeText }: MfaStepProps) {
  const t = useTranslation();
  const app = useStackApp();
  const [totp, setTotp] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const { formRef, focusInvalid } = useFocusInvalid();
  const invalid = invalidCodeText ?? t("auth.mfa.invalidCode");

  const { run, pending, error } = useAuthAction(async (code: string) => {
    const result = await app.signInWithMfa(code, attemptCode);
    if (result.status === "error") {
      if (result.error.errorCode === "INVALID_TOTP_CODE") {
        setCodeError(invalid);
        focusInvalid();
        return;
      }
      throw result.error;
    }
    onDone?.();
  }, ATTEMPT_ERRORS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = totp.replace(/\s/g, "");
    // An empty or malformed entry is a wrong code, said without asking the server.
    if (!/^\d{6}$/.test(code)) {
      setCodeError(invalid);
      focusInvalid();
      return;
    }
    setCodeError(null);
    void run(code);
  };

  return (
    <form ref={formRef} className="gh-stack" noValidate onSubmit={submit}>
      <Muted>{t("auth.mfa.instructions")}</Muted>
      <Field
        label={t("auth.mfa.code")}
        name="totp"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={totp}
        onChange={(event) => setTotp(event.target.value)}
        error={codeError}
      />
      {error && (
        <Alert>
          {error} <Link href={keepReturnTo(app.urls.signIn)}>{t("auth.backToSignIn")}</Link>
        </Alert>
      )}
      <Button type="submit" variant="primary" full pending={pending}>
        {t("auth.mfa.submit")}
      </Button>
      {onCancel && <LinkButton onClick={onCancel}>{t("common.back")}</LinkButton>}
    </form>
  );
}

/** The handler's `mfa` page: the step for the attempt code in the query. */
export function MfaPage() {
  const t = useTranslation();
  const app = useStackApp();
  const attemptCode = useQueryParam("attempt_code");
  return (
    <PageCard title={t("auth.mfa.title")}>
      {attemptCode ? (
        <MfaStep attemptCode={attemptCode} />
      ) : (
        <Alert>
          {t("auth.mfa.missingAttempt")}{" "}
          <Link href={keepReturnTo(app.urls.signIn)}>{t("auth.backToSignIn")}</Link>
        </Alert>
      )}
    </PageCard>
  );
}
