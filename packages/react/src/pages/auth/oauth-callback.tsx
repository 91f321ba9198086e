// The OAuth callback page: exchanges the provider's answer for a session once when the page opens (StrictMode's
// second effect run must not spend the one-time code again), then the SDK redirects. A flow this browser did not
// start, a known error of the callback, or the MFA pause are shown in place.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Link, PageCard, Spinner } from "../../ui/primitives.tsx";
import { type ErrorTexts, useAction } from "../../ui/use-action.ts";
import { MfaStep } from "./mfa-step.tsx";
import { keepReturnTo, mfaAttemptCode, SIGN_IN_ERROR_TEXTS } from "./shared.ts";

export const OAUTH_ERROR_TEXTS: ErrorTexts = {
  ...SIGN_IN_ERROR_TEXTS,
  OAUTH_PROVIDER_ACCESS_DENIED: "auth.oauth.denied",
  OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE: "auth.oauth.unavailable",
  INVALID_AUTHORIZATION_CODE: "auth.oauth.codeInvalid",
  OUTER_OAUTH_TIMEOUT: "auth.oauth.timeout",
  OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER: "auth.oauth.connectedElsewhere",
  OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED: "auth.oauth.providerNotEnabled",
};

export function OAuthCallback() {
  const t = useTranslation();
  const app = useStackApp();
  const started = useRef(false);
  const [noFlow, setNoFlow] = useState(false);
  const [attemptCode, setAttemptCode] = useState<string | null>(null);
  const { run, error } = useAction(async () => {
    try {
      if (!(await app.callOAuthCallback())) setNoFlow(true);
    } catch (caught) {
      const code = mfaAttemptCode(caught);
      if (code === null) throw caught;
      setAttemptCode(code);
    }
  }, OAUTH_ERROR_TEXTS);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run();
  }, [run]);

  if (attemptCode) {
    return (
      <PageCard title={t("auth.mfa.title")}>
        <MfaStep attemptCode={attemptCode} invalidCodeText={t("auth.mfa.invalidCodeRestart")} />
      </PageCard>
    );
  }
  const failure = noFlow ? t("auth.oauth.noFlow") : error;
  return (
    <PageCard title={t("auth.oauth.title")}>
      {failure ? (
        <>
          <Alert>{failure}</Alert>
          <Link href={keepReturnTo(app.urls.signIn)}>{t("auth.backToSignIn")}</Link>
        </>
      ) : (
        <Spinner label={t("auth.oauth.progress")} />
      )}
    </PageCard>
  );
}
