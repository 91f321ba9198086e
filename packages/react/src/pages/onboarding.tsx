// The onboarding handler page (Stack's `onboarding`): where a new user finishes what the project asks before the
// app, today verifying their primary e-mail (with a way to send the link again); with nothing left, on to the app.
// Our sign-up form comes here (`signed_up=1`) while the address is unverified, so the notice lasts until the person
// goes on.
import { SIGNED_UP_PARAM } from "@gatehouse/sdk";
import { useEffect, useState } from "react";
import { useUser } from "../hooks.ts";
import { useTranslation } from "../i18n.ts";
import { useStackApp } from "../provider.tsx";
import { Alert, Button, Muted, PageCard } from "../ui/primitives.tsx";
import { useAction } from "../ui/use-action.ts";

export function Onboarding() {
  const t = useTranslation();
  const app = useStackApp();
  const user = useUser({ or: "redirect" });
  const pending = user.primaryEmail !== null && !user.primaryEmailVerified;
  const [sent, setSent] = useState(false);
  const signedUp =
    typeof window !== "undefined" && new URLSearchParams(window.location.search).get(SIGNED_UP_PARAM) === "1";
  const resend = useAction(async () => {
    const error = await user.sendVerificationEmail();
    if (error) throw error;
    setSent(true);
  });
  const goOn = () => app.redirectToAfterSignIn({ isNewUser: signedUp });
  // biome-ignore lint/correctness/useExhaustiveDependencies: goOn only reads app and signedUp
  useEffect(() => {
    if (!pending) void goOn();
  }, [app, pending, signedUp]);

  return (
    <PageCard title={t("onboarding.title")}>
      {pending ? (
        <>
          {signedUp ? (
            <Alert kind="info">
              {t("polish.signUp.verificationSent", { email: user.primaryEmail ?? "" })}
            </Alert>
          ) : (
            <Muted>{t("onboarding.verify", { email: user.primaryEmail ?? "" })}</Muted>
          )}
          {sent && <Alert kind="success">{t("onboarding.sent")}</Alert>}
          {resend.error && <Alert>{resend.error}</Alert>}
          <div className="gh-row">
            <Button variant="secondary" pending={resend.pending} onClick={() => void resend.run()}>
              {t("onboarding.resend")}
            </Button>
            <Button onClick={() => void goOn()}>{t("onboarding.continue")}</Button>
          </div>
        </>
      ) : (
        <Muted>{t("common.loading")}</Muted>
      )}
    </PageCard>
  );
}
