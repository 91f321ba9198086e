// Domains & production: the trusted domains with their handler paths, allow localhost, and the production-mode
// switch with the problems that block it (WIRE.md §7).
import { ScreenHeader } from "../layout.tsx";
import type { ProjectScreenProps } from "../project.tsx";
import { AllowLocalhost, ProductionMode } from "./settings/production-mode.tsx";
import { TrustedDomains } from "./settings/trusted-domains.tsx";

export function DomainsPage({ project }: ProjectScreenProps) {
  return (
    <>
      <ScreenHeader title="Domains & production" />
      <section className="dash-panel dash-stack" aria-labelledby="trusted-domains">
        <h2 id="trusted-domains">Trusted domains</h2>
        <p className="dash-muted">
          Sign-in callbacks and redirects may only go to these origins (and to localhost while it is allowed).
        </p>
        <TrustedDomains project={project} />
        <AllowLocalhost project={project} />
      </section>
      <section className="dash-panel" aria-labelledby="production">
        <h2 id="production">Production mode</h2>
        <ProductionMode project={project} />
      </section>
    </>
  );
}
