// [GO] Connected apps: the apps the user let sign them in through the project's OpenID Provider, with what each may
// see, and removing one's access (confirmed): its grant and tokens end, and it must ask again next time.
import type { OidcGrantedApp } from "@gatehouse/sdk";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Alert, Avatar, Muted, Section, Spinner } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { OIDC_SCOPE_TEXTS } from "../oidc-scopes.ts";
import { useLoaded } from "./use-loaded.ts";

export function ConnectedAppsSection({ userId }: { userId: string }) {
  const t = useTranslation();
  const app = useStackApp();
  const apps = useLoaded(() => app.listOidcGrants(), userId);

  return (
    <Section title={t("oidcConsent.apps.title")}>
      {apps.error && <Alert>{apps.error}</Alert>}
      {apps.data ? (
        apps.data.length === 0 ? (
          <Muted>{t("oidcConsent.apps.none")}</Muted>
        ) : (
          <ul className="gh-list">
            {apps.data.map((granted) => (
              <AppItem
                key={granted.client_id}
                granted={granted}
                onRevoke={async () => {
                  await app.revokeOidcGrant(granted.client_id);
                  await apps.reload();
                }}
              />
            ))}
          </ul>
        )
      ) : (
        !apps.error && <Spinner label={t("common.loading")} />
      )}
    </Section>
  );
}

function AppItem({ granted, onRevoke }: { granted: OidcGrantedApp; onRevoke: () => Promise<void> }) {
  const t = useTranslation();
  const revoke = useAction(onRevoke);
  const scopes = granted.scopes.flatMap((scope) => {
    const key = OIDC_SCOPE_TEXTS[scope];
    return key ? [t(key)] : [];
  });
  return (
    <li className="gh-list-item">
      <div className="gh-row gh-app-row">
        <Avatar name={granted.display_name} imageUrl={granted.logo_url} size={32} />
        <div className="gh-stack">
          <span className="gh-text">{granted.display_name}</span>
          {scopes.length > 0 && <p className="gh-muted">{scopes.join(" · ")}</p>}
          {revoke.error && <Alert>{revoke.error}</Alert>}
        </div>
      </div>
      <ConfirmButton
        label={t("oidcConsent.apps.revoke")}
        question={t("oidcConsent.apps.revokeQuestion", { app: granted.display_name })}
        pending={revoke.pending}
        onConfirm={revoke.run}
      />
    </li>
  );
}
