// The account settings page: a signed-in user's profile, e-mails, password, passkey, second factor, sessions, teams,
// API keys (own and teams'), notifications and account deletion, each section shown as the project's settings allow. Signed-out visitors go to sign-in.
import { type ReactNode, Suspense, useState } from "react";
import { useProject, useUser } from "../../hooks.ts";
import { type MessageKey, useTranslation } from "../../i18n.ts";
import { FullPageContext, Muted, PageCard, Spinner } from "../../ui/primitives.tsx";
import { ApiKeysSection, TeamApiKeysSection } from "./api-keys-section.tsx";
import { DeleteSection } from "./delete-section.tsx";
import { EmailsSection } from "./emails-section.tsx";
import { LanguageSection } from "./language-section.tsx";
import { MfaSection } from "./mfa-section.tsx";
import { NotificationsSection } from "./notifications-section.tsx";
import { PasskeySection } from "./passkey-section.tsx";
import { PasswordSection } from "./password-section.tsx";
import { ProfileSection } from "./profile-section.tsx";
import { SessionsSection } from "./sessions-section.tsx";
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

  if (!user) {
    return (
      <PageCard title={t("account.title")}>
        <Muted>{t("account.delete.done")}</Muted>
      </PageCard>
    );
  }
  const { config } = project;
  // The sections this project offers, in order; each has an anchor the index links to.
  const sections: { anchor: string; title: MessageKey; element: ReactNode }[] = [
    { anchor: "profile", title: "account.profile.title", element: <ProfileSection user={user} /> },
    { anchor: "language", title: "account.language.title", element: <LanguageSection user={user} /> },
    { anchor: "emails", title: "account.emails.title", element: <EmailsSection user={user} /> },
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
    <PageCard title={t("account.title")} wide>
      <div className="gh-settings">
        <nav className="gh-settings-nav" aria-label={t("account.index")}>
          <ul>
            {sections.map((section) => (
              <li key={section.anchor}>
                <a className="gh-link" href={`#account-${section.anchor}`}>
                  {t(section.title)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="gh-settings-body">
          {sections.map((section) => (
            <div key={section.anchor} id={`account-${section.anchor}`}>
              <Part>{section.element}</Part>
            </div>
          ))}
        </div>
      </div>
    </PageCard>
  );
}

/** A section waits for its own reads (contact channels, teams) without blanking the rest of the page. */
function Part({ children }: { children: ReactNode }) {
  const t = useTranslation();
  return <Suspense fallback={<Spinner label={t("common.loading")} />}>{children}</Suspense>;
}
