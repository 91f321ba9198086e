// Sign in with an OAuth provider: one button per provider, named as the provider names itself, that sends the
// browser to the provider (and stays busy while the page leaves). The group shows the project's enabled providers.
import { useState } from "react";
import { useProject } from "../hooks.ts";
import { useTranslation } from "../i18n.ts";
import { useStackApp } from "../provider.tsx";
import { Alert, Button } from "../ui/primitives.tsx";
import { useAction } from "../ui/use-action.ts";
import { ProviderIcon } from "./provider-icons.tsx";

const PROVIDER_NAMES: Record<string, string> = {
  github: "GitHub",
  google: "Google",
  microsoft: "Microsoft",
  facebook: "Facebook",
  discord: "Discord",
  gitlab: "GitLab",
  bitbucket: "Bitbucket",
  linkedin: "LinkedIn",
  spotify: "Spotify",
  twitch: "Twitch",
  x: "X",
  apple: "Apple",
  oidc: "OpenID Connect",
};

/** The provider's display name: known ids by name, `oidc-<name>` by its name, anything else as given. */
export function providerDisplayName(provider: string): string {
  const known = PROVIDER_NAMES[provider.toLowerCase()];
  if (known) return known;
  const oidc = /^oidc-(.+)$/i.exec(provider);
  if (oidc?.[1]) return oidc[1].charAt(0).toUpperCase() + oidc[1].slice(1);
  return provider;
}

export type OAuthButtonProps = { provider: string; type: "sign-in" | "sign-up" };

export function OAuthButton({ provider, type }: OAuthButtonProps) {
  const t = useTranslation();
  const app = useStackApp();
  // Once the provider's page is on its way the button stays busy: a second click would start a second flow.
  const [leaving, setLeaving] = useState(false);
  const { run, pending, error } = useAction(async () => {
    await app.signInWithOAuth(provider);
    setLeaving(true);
  });
  const name = providerDisplayName(provider);
  return (
    <>
      <Button full pending={pending || leaving} onClick={() => void run()}>
        {!(pending || leaving) && <ProviderIcon provider={provider} />}
        {t(type === "sign-up" ? "auth.oauth.signUpWith" : "auth.oauth.signInWith", { provider: name })}
      </Button>
      {error && <Alert>{error}</Alert>}
    </>
  );
}

/** A button for each OAuth provider the project enables (nothing when it enables none). */
export function OAuthButtonGroup({ type }: { type: "sign-in" | "sign-up" }) {
  const { config } = useProject();
  if (config.oauthProviders.length === 0) return null;
  return (
    <div className="gh-stack">
      {config.oauthProviders.map((provider) => (
        <OAuthButton key={provider.id} provider={provider.id} type={type} />
      ))}
    </div>
  );
}
