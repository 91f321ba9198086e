// The error page: where the server's OAuth callback sends a failure (query `errorCode`, `message`, `details`), and
// what the handler shows for an unknown route (the `message` prop). Known codes get this app's own wording.
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Link, Muted, PageCard } from "../../ui/primitives.tsx";
import { OAUTH_ERROR_TEXTS } from "./oauth-callback.tsx";
import { useQueryParam } from "./shared.ts";

export function ErrorPage({ message }: { message?: string }) {
  const t = useTranslation();
  const app = useStackApp();
  const errorCode = useQueryParam("errorCode");
  const queryMessage = useQueryParam("message");
  const known = errorCode ? OAUTH_ERROR_TEXTS[errorCode] : undefined;
  // A code whose text needs its details is worded by the server's message (the details stay out of the page).
  const text =
    message ?? (typeof known === "string" ? t(known) : null) ?? queryMessage ?? t("auth.error.noMessage");
  return (
    <PageCard title={t("auth.error.title")}>
      <Alert>{text}</Alert>
      {errorCode && !message && <Muted>{t("auth.error.code", { code: errorCode })}</Muted>}
      <div className="gh-row">
        <Link href={app.urls.home}>{t("common.goHome")}</Link>
        <Link href={app.urls.signIn}>{t("auth.backToSignIn")}</Link>
      </div>
    </PageCard>
  );
}
