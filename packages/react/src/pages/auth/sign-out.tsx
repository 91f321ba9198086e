// The sign-out page: signs out once when it opens (at the server too); the SDK then goes to afterSignOut. Nobody
// signed in goes there at once.
import { useEffect, useRef } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Button, PageCard, Spinner } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";

export function SignOut() {
  const t = useTranslation();
  const app = useStackApp();
  const started = useRef(false);
  const { run, pending, error } = useAction(async () => {
    // app.signOut redirects only when a session ends; without one, go on anyway.
    if (await app.getRefreshToken()) await app.signOut();
    else await app.redirectToAfterSignOut();
  });

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run();
  }, [run]);

  return (
    <PageCard title={t("auth.signOut.title")}>
      {error ? (
        <>
          <Alert>{error}</Alert>
          <Button variant="primary" pending={pending} onClick={() => void run()}>
            {t("auth.signOut.retry")}
          </Button>
        </>
      ) : (
        <Spinner label={t("auth.signOut.progress")} />
      )}
    </PageCard>
  );
}
