// The second factor of a paused sign-in: the six-digit code of the authenticator app, or instead one of the user's
// recovery codes, sent with the attempt code the pause answered (MULTI_FACTOR_AUTHENTICATION_REQUIRED). Shown in
// place by every sign-in page, and as the handler's `mfa` page, which reads `attempt_code` from the query.
import { knownErrorIs, type StackClientApp, StatusError } from "@gatehouse/sdk";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Field, Link, LinkButton, Muted, PageCard } from "../../ui/primitives.tsx";
import { type ErrorTexts, useAction } from "../../ui/use-action.ts";
import { SubmitWithError } from "./fields.tsx";
import { keepReturnTo, restrictedText, useFocusInvalid, useQueryParam } from "./shared.ts";

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
  RESTRICTED_USER_NOT_ALLOWED: restrictedText,
};

type Method = "totp" | "recovery";

/**
 * Sends the code; false when the server refused the code itself (the attempt goes on). A wrong TOTP value is
 * INVALID_TOTP_CODE; a wrong or used recovery code is a plain-text 400 ("Invalid recovery code."), a StatusError.
 */
async function verify(
  app: StackClientApp,
  method: Method,
  code: string,
  attemptCode: string,
): Promise<boolean> {
  try {
    const result =
      method === "totp"
        ? await app.signInWithMfa(code, attemptCode)
        : await app.signInWithRecoveryCode(code, attemptCode);
    if (result.status === "ok") return true;
    if (knownErrorIs(result.error, "INVALID_TOTP_CODE")) return false;
    throw result.error;
  } catch (error) {
    if (method === "recovery" && error instanceof StatusError && error.status === 400) return false;
    throw error;
  }
}

export function MfaStep({ attemptCode, onDone, onCancel, invalidCodeText }: MfaStepProps) {
  const t = useTranslation();
  const app = useStackApp();
  const [method, setMethod] = useState<Method>("totp");
  const [value, setValue] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const { formRef, focusInvalid } = useFocusInvalid();
  const invalid =
    method === "recovery"
      ? t("auth.mfa.invalidRecoveryCode")
      : (invalidCodeText ?? t("auth.mfa.invalidCode"));

  const { run, pending, error, setError } = useAction(async (code: string) => {
    if (await verify(app, method, code, attemptCode)) {
      onDone?.();
      return;
    }
    setCodeError(invalid);
    focusInvalid();
  }, ATTEMPT_ERRORS);

  // After switching between the app's code and a recovery code, the new entry has the focus.
  const switched = useRef(false);
  useEffect(() => {
    if (switched.current)
      formRef.current?.querySelector<HTMLInputElement>(`input[name="${method}"]`)?.focus();
  }, [method, formRef]);
  const switchMethod = () => {
    if (pending) return;
    switched.current = true;
    setMethod(method === "totp" ? "recovery" : "totp");
    setValue("");
    setCodeError(null);
    setError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = value.trim();
    // An empty or malformed entry is refused without asking the server.
    const entryError =
      method === "totp"
        ? /^\d{6}$/.test(code.replace(/\s/g, ""))
          ? null
          : invalid
        : code
          ? null
          : t("auth.mfa.recoveryRequired");
    setCodeError(entryError);
    if (entryError) focusInvalid();
    else void run(method === "totp" ? code.replace(/\s/g, "") : code);
  };

  return (
    <form ref={formRef} className="gh-stack" noValidate onSubmit={submit}>
      {method === "totp" ? (
        <>
          <Muted>{t("auth.mfa.instructions")}</Muted>
          <Field
            key="totp"
            label={t("auth.mfa.code")}
            name="totp"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            error={codeError}
          />
        </>
      ) : (
        <>
          <Muted>{t("auth.mfa.recoveryInstructions")}</Muted>
          <Field
            key="recovery"
            label={t("auth.mfa.recoveryCode")}
            name="recovery"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            error={codeError}
          />
        </>
      )}
      <SubmitWithError
        error={error}
        errorLink={<Link href={keepReturnTo(app.urls.signIn)}>{t("auth.backToSignIn")}</Link>}
        pending={pending}
      >
        {t("auth.mfa.submit")}
      </SubmitWithError>
      <LinkButton onClick={switchMethod}>
        {method === "totp" ? t("auth.mfa.useRecoveryCode") : t("auth.mfa.useAuthenticator")}
      </LinkButton>
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
