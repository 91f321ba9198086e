// <ImpersonationBanner>: while the signed-in session is an impersonation (an administrator acting as the user, opened
// from the dashboard), a bar across the top says whose account this is and ends it (ending = signing out). The
// handler pages show it; an app puts it at the top of its own layout. Nothing shows for anyone else.
import { Suspense } from "react";
import { useIsImpersonation, useUser } from "../hooks.ts";
import { useTranslation } from "../i18n.ts";
import { Alert, Button, Root } from "../ui/primitives.tsx";
import { useAction } from "../ui/use-action.ts";

export function ImpersonationBanner() {
  // Never holds the page up: nothing shows until the user and the session are known.
  return (
    <Suspense fallback={null}>
      <Banner />
    </Suspense>
  );
}

function Banner() {
  const t = useTranslation();
  const user = useUser();
  const impersonating = useIsImpersonation();
  const end = useAction(async () => {
    await user?.signOut();
  });
  if (!user || !impersonating) return null;
  const name = user.displayName ?? user.primaryEmail ?? user.id;
  return (
    <Root>
      <aside className="gh-impersonation" aria-label={t("impersonation.label")}>
        <p className="gh-text" role="status">
          {t("impersonation.signedInAs", { name })}
        </p>
        <Button
          pending={end.pending}
          aria-label={t("impersonation.endLabel", { name })}
          onClick={() => void end.run()}
        >
          {t("impersonation.end")}
        </Button>
        {end.error && <Alert>{end.error}</Alert>}
      </aside>
    </Root>
  );
}
