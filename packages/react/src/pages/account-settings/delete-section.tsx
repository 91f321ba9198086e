// Deleting the account (when the project lets clients): typing DELETE arms the button, so it cannot happen by a slip;
// the SDK then signs out and goes to afterSignOut (home by default).
import type { CurrentUser } from "@gatehouse/sdk";
import { useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Button, Field, Muted, Section } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";

const CONFIRM_WORD = "DELETE";

/** `onLeaving(true)` before the deletion, so the page does not send a vanished user to sign-in; false if it failed. */
export function DeleteSection({
  user,
  onLeaving,
}: {
  user: CurrentUser;
  onLeaving: (leaving: boolean) => void;
}) {
  const t = useTranslation();
  const [typed, setTyped] = useState("");
  const [typedError, setTypedError] = useState<string | null>(null);
  const app = useStackApp();
  const remove = useAction(async () => {
    onLeaving(true);
    try {
      await user.delete();
    } catch (error) {
      // The SDK's sign-out after the deletion fails (USER_AUTHENTICATION_REQUIRED: the session went with the user)
      // before it redirects; its local sign-out happened. No user left means the deletion worked: go on from here.
      if ((await app.getUser()) === null) {
        await app.redirectToAfterSignOut();
        return;
      }
      onLeaving(false);
      throw error;
    }
  });

  return (
    <Section title={t("account.delete.title")}>
      <Muted>{t("account.delete.explain")}</Muted>
      <form
        className="gh-stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const error =
            typed.trim() === CONFIRM_WORD ? null : t("account.delete.typeWord", { word: CONFIRM_WORD });
          setTypedError(error);
          if (error) event.currentTarget.querySelector("input")?.focus();
          else void remove.run();
        }}
      >
        <Field
          label={t("account.delete.confirmLabel", { word: CONFIRM_WORD })}
          autoComplete="off"
          value={typed}
          error={typedError}
          onChange={(event) => setTyped(event.target.value)}
        />
        {remove.error && <Alert>{remove.error}</Alert>}
        <div className="gh-row">
          <Button type="submit" variant="danger" pending={remove.pending}>
            {t("account.delete.button")}
          </Button>
        </div>
      </form>
    </Section>
  );
}
