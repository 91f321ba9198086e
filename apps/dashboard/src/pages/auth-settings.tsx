// Authentication: the project's sign-in methods and client permissions as switches, and its OAuth providers
// (shared development keys or the project's own OAuth app, with each provider's extras).
import { ScreenHeader } from "../layout.tsx";
import type { ProjectScreenProps } from "../project.tsx";
import { OAuthProviders } from "./settings/oauth-providers.tsx";
import { SignInMethods } from "./settings/sign-in-methods.tsx";

export function AuthSettingsPage({ project }: ProjectScreenProps) {
  return (
    <>
      <ScreenHeader title="Authentication" />
      <section className="dash-panel" aria-labelledby="sign-in-methods">
        <h2 id="sign-in-methods">Sign-in methods</h2>
        <SignInMethods project={project} />
      </section>
      <section className="dash-panel dash-stack" aria-labelledby="oauth-providers">
        <h2 id="oauth-providers">OAuth providers</h2>
        <p className="dash-muted">
          Shared keys are for development: the consent screen names this instance, not your app. Use your own
          OAuth app in production.
        </p>
        <OAuthProviders project={project} />
      </section>
    </>
  );
}
