// A dashboard path that names nothing, or a project the operator's teams do not own.
import { useDashboardTranslation } from "../messages.ts";
import { Link } from "../router.tsx";

export function NotFound({ what = "page" }: { what?: "page" | "project" }) {
  const t = useDashboardTranslation();
  return (
    <div className="dash-failure">
      <h1>{what === "project" ? t("notFound.project") : t("notFound.page")}</h1>
      <p>{what === "project" ? t("notFound.projectText") : t("notFound.pageText")}</p>
      <Link to="/projects">{t("notFound.back")}</Link>
    </div>
  );
}
