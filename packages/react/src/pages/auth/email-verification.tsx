// The e-mail verification page: verifies the link's `code` only when the person presses the button, because mail
// scanners open links on their own and must not use the code up.
import { useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Button, Link, Muted, PageCard } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { CODE_ERROR_TEXTS, useQueryParam } from "./shared.ts";

const VERIFY_ERROR_TEXTS = {
  ...CODE_ERROR_TEXTS,
  VERIFICATION_CODE_ALREADY_USED: "auth.verify.used",
  EMAIL_ALREADY_VERIFIED: "auth.verify.alreadyVerified",
} as const;

export function EmailVerification() {
  const t = useTranslation();
  const app = useStackApp();
  const code = useQueryParam("code");
  const [done, setDone] = useState(false);
  const { run, pending, error } = useAction(async () => {
    const result = await app.verifyEmail(code ?? "");
    if (result.status === "error") throw result.error;
    setDone(true);
  }, VERIFY_ERROR_TEXTS);

  const home = <Link href={app.urls.home}>{t("common.goHome")}</Link>;
  const title = t("auth.verify.title");
  if (!code) {
    return (
      <PageCard title={title}>
        <Alert>{t("auth.code.missing")}</Alert>
        {home}
      </PageCard>
    );
  }
  if (done) {
    return (
      <PageCard title={title}>
        <Alert kind="success">{t("auth.verify.done")}</Alert>
        {home}
      </PageCard>
    );
  }
  return (
    <PageCard title={title}>
      <Muted>{t("auth.verify.instructions")}</Muted>
      {error && <Alert>{error}</Alert>}
      {error ? (
        home
      ) : (
        <Button variant="primary" full pending={pending} onClick={() => void run()}>
          {t("auth.verify.submit")}
        </Button>
      )}
    </PageCard>
  );
}
