// The account settings page: a signed-in user's profile, e-mails, password, passkey, second factor, sessions, teams
// and account deletion, each section shown as the project's settings allow. Signed-out visitors go to sign-in.
import { type ReactNode, Suspense, useState } from "react";
import { useProject, useUser } from "../../hooks.ts";
import { useTranslation } from "../../i18n.ts";
import { Muted, PageCard, Spinner } from "../../ui/primitives.tsx";
import { DeleteSection } from "./delete-section.tsx";
import { EmailsSection } from "./emails-section.tsx";
import { MfaSection } from "./mfa-section.tsx";
import { PasskeySection } from "./passkey-section.tsx";
import { PasswordSection } from "./password-section.tsx";
import { ProfileSection } from "./profile-section.tsx";
import { SessionsSection } from "./sessions-section.tsx";
import { TeamsSection } from "./teams-section.tsx";

export function AccountSettings() {
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
  return (
    <PageCard title={t("account.title")} wide>
      <Part>
        <ProfileSection user={user} />
      </Part>
      <Part>
        <EmailsSection user={user} />
      </Part>
      {config.credentialEnabled && (
        <Part>
          <PasswordSection user={user} />
        </Part>
      )}
      {config.passkeyEnabled && (
        <Part>
          <PasskeySection user={user} />
        </Part>
      )}
      <Part>
        <MfaSection user={user} />
      </Part>
      <Part>
        <SessionsSection user={user} />
      </Part>
      <Part>
        <TeamsSection user={user} />
      </Part>
      {config.clientUserDeletionEnabled && (
        <Part>
          <DeleteSection user={user} onLeaving={setLeaving} />
        </Part>
      )}
    </PageCard>
  );
}

/** A section waits for its own reads (contact channels, teams) without blanking the rest of the page. */
function Part({ children }: { children: ReactNode }) {
  const t = useTranslation();
  return <Suspense fallback={<Spinner label={t("common.loading")} />}>{children}</Suspense>;
}
