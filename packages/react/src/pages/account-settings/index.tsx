// The account settings page: a signed-in user's profile, e-mails, linked accounts, password, passkey, second factor,
// sessions, connected apps, teams, API keys (own and teams'), notifications and account deletion, each as the
// project's settings allow, one at a time through SettingsNavigation, with a way back to the app. Signed-out
// visitors go to sign-in.
import { type ReactNode, Suspense, useState } from "react";
import { useProject, useUser } from "../../hooks.ts";
import { type MessageKey, useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { FullPageContext, Link, Muted, PageCard, Spinner } from "../../ui/primitives.tsx";
import { ApiKeysSection, TeamApiKeysSection } from "./api-keys-section.tsx";
import { ConnectedAppsSection } from "./connected-apps-section.tsx";
import { DeleteSection } from "./delete-section.tsx";
import { EmailsSection } from "./emails-section.tsx";
import { LanguageSection } from "./language-section.tsx";
import { LinkedAccountsSection } from "./linked-accounts-section.tsx";
import { MfaSection } from "./mfa-section.tsx";
import { NotificationsSection } from "./notifications-section.tsx";
import { PasskeySection } from "./passkey-section.tsx";
import { PasswordSection } from "./password-section.tsx";
import { ProfileSection } from "./profile-section.tsx";
import { SessionsSection } from "./sessions-section.tsx";
import { SettingsNavigation } from "./settings-nav.tsx";
import { TeamsSection } from "./teams-section.tsx";

export function AccountSettings({ fullPage }: { fullPage?: boolean } = {}) {
  const page = <SettingsPage />;
  return fullPage === undefined ? page : <FullPageContext value={fullPage}>{page}</FullPageContext>;
}

function SettingsPage() {
  const t = useTranslation();
  // While the account is being deleted the user turns null; that must not send the person to sign-in.
  const [leaving, setLeaving] = useState(false);
  const user = useUser(leaving ? {} : { or: "redirect" });
  const project = useProject();
  const app = useStackApp();

  if (!user) {
    return (
      <PageCard title={t("account.title")}>
        <Muted>{t("account.delete.done")}</Muted>
      </PageCard>
    );
  }
  const { config } = project;
  // The sections this project offers, in order; each has an anchor the navigation links to.
  const sections: { anchor: string; title: MessageKey; element: ReactNode }[] = [
    { anchor: "profile", title: "account.profile.title", element: <ProfileSection user={user} /> },
    { anchor: "language", title: "account.language.title", element: <LanguageSection user={user} /> },
    { anchor: "emails", title: "account.emails.title", element: <EmailsSection user={user} /> },
    ...(config.oauthProviders.length > 0
      ? [
          {
            anchor: "linked-accounts",
            title: "polish.linked.title" as const,
            element: <LinkedAccountsSection user={user} />,
          },
        ]
      : []),
    ...(config.credentialEnabled
      ? [
          {
            anchor: "password",
            title: "account.password.title" as const,
            element: <PasswordSection user={user} />,
          },
        ]
      : []),
    ...(config.passkeyEnabled
      ? [
          {
            anchor: "passkey",
            title: "account.passkey.title" as const,
            element: <PasskeySection user={user} />,
          },
        ]
      : []),
    { anchor: "mfa", title: "account.mfa.title", element: <MfaSection user={user} /> },
    { anchor: "sessions", title: "account.sessions.title", element: <SessionsSection user={user} /> },
    {
      anchor: "connected-apps",
      title: "oidcConsent.apps.title",
      element: <ConnectedAppsSection userId={user.id} />,
    },
    { anchor: "teams", title: "account.teams.title", element: <TeamsSection user={user} /> },
    ...(config.allowUserApiKeys
      ? [
          {
            anchor: "api-keys",
            title: "account.apiKeys.title" as const,
            element: <ApiKeysSection user={user} />,
          },
        ]
      : []),
    ...(config.allowTeamApiKeys
      ? [
          {
            anchor: "team-api-keys",
            title: "account.teamApiKeys.title" as const,
            element: <TeamApiKeysSection />,
          },
        ]
      : []),
    {
      anchor: "notifications",
      title: "account.notifications.title",
      element: <NotificationsSection user={user} />,
    },
    ...(config.clientUserDeletionEnabled
      ? [
          {
            anchor: "delete",
            title: "account.delete.title" as const,
            element: <DeleteSection user={user} onLeaving={setLeaving} />,
          },
        ]
      : []),
  ];
  return (
    <PageCard
      title={t("account.title")}
      wide
      top={
        <div className="gh-card-top">
          <Link href={app.urls.home}>{`← ${t("polish.backToApp")}`}</Link>
        </div>
      }
    >
      <SettingsNavigation
        sections={sections.map((section) => ({
          anchor: section.anchor,
          title: t(section.title),
          element: <Part>{section.element}</Part>,
        }))}
      />
    </PageCard>
  );
}

/** A section waits for its own reads (contact channels, teams) without blanking the rest of the page. */
function Part({ children }: { children: ReactNode }) {
  const t = useTranslation();
  return <Suspense fallback={<Spinner label={t("common.loading")} />}>{children}</Suspense>;
}
