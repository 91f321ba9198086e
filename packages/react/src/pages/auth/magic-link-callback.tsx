// The magic-link page: the link's `code` signs in when the person confirms (a mail scanner opening the link must
// not use it up), with the MFA step in place when the sign-in pauses for it.
import { useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Button, Link, Muted, PageCard } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { MfaStep } from "./mfa-step.tsx";
import { CODE_ERROR_TEXTS, finishOrMfa, keepReturnTo, SIGN_IN_ERROR_TEXTS, useQueryParam } from "./shared.ts";

const CALLBACK_ERROR_TEXTS = {
  ...SIGN_IN_ERROR_TEXTS,
  ...CODE_ERROR_TEXTS,
  VERIFICATION_CODE_ALREADY_USED: "auth.magicCallback.used",
  VERIFICATION_CODE_EXPIRED: "auth.magicCallback.expired",
} as const;

export function MagicLinkCallback() {
  const t = useTranslation();
  const app = useStackApp();
  const code = useQueryParam("code");
  const [attemptCode, setAttemptCode] = useState<string | null>(null);
  const { run, pending, error } = useAction(
    async () => finishOrMfa(await app.signInWithMagicLink(code ?? ""), setAttemptCode),
    CALLBACK_ERROR_TEXTS,
  );

  if (attemptCode) {
    return (
      <PageCard title={t("auth.mfa.title")}>
        <MfaStep attemptCode={attemptCode} />
      </PageCard>
    );
  }
  const signInLink = <Link href={keepReturnTo(app.urls.signIn)}>{t("auth.backToSignIn")}</Link>;
  return (
    <PageCard title={t("auth.magicCallback.title")}>
      {!code ? (
        <>
          <Alert>{t("auth.code.missing")}</Alert>
          {signInLink}
        </>
      ) : (
        <>
          <Muted>{t("auth.magicCallback.instructions")}</Muted>
          {error && <Alert>{error}</Alert>}
          <Button variant="primary" full pending={pending} onClick={() => void run()}>
            {t("auth.signIn.submit")}
          </Button>
          {error && signInLink}
        </>
      )}
    </PageCard>
  );
}
