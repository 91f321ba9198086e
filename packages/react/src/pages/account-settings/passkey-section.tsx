// Passkey: whether the user signs in with one, registering one of this site (replacing an earlier one), and turning
// passkey sign-in off (confirmed).
import type { CurrentUser } from "@gatehouse/sdk";
import { useTranslation } from "../../i18n.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Alert, Button, Muted, Section } from "../../ui/primitives.tsx";
import { type ErrorTexts, useAction } from "../../ui/use-action.ts";

const PASSKEY_ERRORS: ErrorTexts = {
  PASSKEY_REGISTRATION_FAILED: "account.passkey.failed",
  PASSKEY_WEBAUTHN_ERROR: "account.passkey.failed",
};

export function PasskeySection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const register = useAction(async () => {
    const result = await user.registerPasskey();
    if (result.status === "error") throw result.error;
  }, PASSKEY_ERRORS);
  const remove = useAction(() => user.update({ passkeyAuthEnabled: false }));
  const error = register.error ?? remove.error;

  return (
    <Section title={t("account.passkey.title")}>
      <Muted>{user.passkeyAuthEnabled ? t("account.passkey.registered") : t("account.passkey.none")}</Muted>
      <div className="gh-row">
        <Button pending={register.pending} onClick={() => void register.run()}>
          {user.passkeyAuthEnabled ? t("account.passkey.replace") : t("account.passkey.register")}
        </Button>
        {user.passkeyAuthEnabled && (
          <ConfirmButton
            label={t("account.passkey.remove")}
            question={t("account.passkey.removeQuestion")}
            pending={remove.pending}
            onConfirm={remove.run}
          />
        )}
      </div>
      {error && <Alert>{error}</Alert>}
    </Section>
  );
}
