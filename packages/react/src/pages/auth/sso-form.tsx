// [GO] "Continue with SSO" on the sign-in page: the user types a work e-mail and goes to the identity provider of the
// team that verified its domain (app.signInWithSso). A sign-in page opened with `?sso_connection_id=` (where an
// IdP-initiated SAML sign-in is sent) starts that connection's sign-in at once.
import { useEffect, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Button, Muted } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { EmailField, SubmitWithError, useEmailForm } from "./fields.tsx";
import { SIGN_IN_ERROR_TEXTS } from "./shared.ts";

const SSO_ERROR_TEXTS = {
  ...SIGN_IN_ERROR_TEXTS,
  SSO_DOMAIN_NOT_FOUND: "auth.sso.notFound",
  SSO_CONNECTION_NOT_FOUND: "auth.sso.notFound",
} as const;

export function SsoSignIn() {
  const t = useTranslation();
  const app = useStackApp();
  const [open, setOpen] = useState(false);
  const start = useAction(
    (options: { email?: string; connectionId?: string }) => app.signInWithSso(options),
    SSO_ERROR_TEXTS,
  );
  const { formRef, submitEmail, emailField } = useEmailForm((email) => void start.run({ email }));

  // Once, on arrival: an IdP-initiated sign-in was validated and sent here to start an SP-initiated one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per page load, by design
  useEffect(() => {
    const connectionId = new URLSearchParams(globalThis.location?.search ?? "").get("sso_connection_id");
    if (connectionId) void start.run({ connectionId });
  }, []);

  if (!open) {
    return (
      <Button full onClick={() => setOpen(true)}>
        {t("auth.sso.continue")}
      </Button>
    );
  }
  return (
    <form
      ref={formRef}
      className="gh-stack"
      noValidate
      onSubmit={submitEmail}
      aria-label={t("auth.sso.continue")}
    >
      <Muted>{t("auth.sso.intro")}</Muted>
      <EmailField {...emailField} />
      <SubmitWithError error={start.error} pending={start.pending}>
        {t("auth.sso.continue")}
      </SubmitWithError>
    </form>
  );
}
