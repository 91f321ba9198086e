// What the handler shows for a path it has no page for (a mistyped or outdated link): a plain "page not found" card
// naming the path, with the ways back, instead of an error about handler names.
import { useTranslation } from "../i18n.ts";
import { useStackApp } from "../provider.tsx";
import { Link, Muted, PageCard } from "../ui/primitives.tsx";

export function UnknownRoute({ path }: { path: string }) {
  const t = useTranslation();
  const app = useStackApp();
  return (
    <PageCard title={t("polish.unknownRoute.title")}>
      <Muted>{t("polish.unknownRoute.text", { path })}</Muted>
      <div className="gh-row">
        <Link href={app.urls.home}>{t("common.goHome")}</Link>
        <Link href={app.urls.signIn}>{t("auth.backToSignIn")}</Link>
      </div>
    </PageCard>
  );
}
