// Domains & production: the trusted domains with their handler paths, allow localhost, and the production-mode
// switch with the problems that block it (WIRE.md §7).
import { ScreenHeader } from "../layout.tsx";
import { useDashboardTranslation } from "../messages.ts";
import type { ProjectScreenProps } from "../project.tsx";
import { AllowLocalhost, ProductionMode } from "./settings/production-mode.tsx";
import { TrustedDomains } from "./settings/trusted-domains.tsx";

export function DomainsPage({ project }: ProjectScreenProps) {
  const t = useDashboardTranslation();
  return (
    <>
      <ScreenHeader title={t("nav.domains")} />
      <section className="dash-panel dash-stack" aria-labelledby="trusted-domains">
        <h2 id="trusted-domains">{t("domains.trusted")}</h2>
        <p className="dash-muted">{t("domains.explain")}</p>
        <TrustedDomains project={project} />
        <AllowLocalhost project={project} />
      </section>
      <section className="dash-panel" aria-labelledby="production">
        <h2 id="production">{t("domains.production")}</h2>
        <ProductionMode project={project} />
      </section>
    </>
  );
}
