// Authentication: the project's logo, its sign-in methods and client permissions as switches, and its OAuth providers
// (shared development keys or the project's own OAuth app, with each provider's extras).
import { ScreenHeader } from "../layout.tsx";
import { useDashboardTranslation } from "../messages.ts";
import type { ProjectScreenProps } from "../project.tsx";
import { OAuthProviders } from "./settings/oauth-providers.tsx";
import { ProjectLogo } from "./settings/project-logo.tsx";
import { SignInMethods } from "./settings/sign-in-methods.tsx";

export function AuthSettingsPage({ project }: ProjectScreenProps) {
  const t = useDashboardTranslation();
  return (
    <>
      <ScreenHeader title={t("nav.auth")} />
      <section className="dash-panel" aria-labelledby="sign-in-methods">
        <h2 id="sign-in-methods">{t("auth.methods")}</h2>
        <SignInMethods project={project} />
      </section>
      <section className="dash-panel dash-stack" aria-labelledby="oauth-providers">
        <h2 id="oauth-providers">{t("auth.providers")}</h2>
        <p className="dash-muted">{t("auth.sharedKeys")}</p>
        <OAuthProviders project={project} />
      </section>
      <section className="dash-panel dash-stack" aria-labelledby="project-logo">
        <h2 id="project-logo">{t("logo.title")}</h2>
        <p className="dash-muted">{t("logo.explain")}</p>
        <ProjectLogo project={project} />
      </section>
    </>
  );
}
