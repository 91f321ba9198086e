// Active sessions: where the user is signed in, this one marked, with when each began and was last used (in the
// pages' language), and signing the others out (confirmed).
import type { ActiveSession, CurrentUser } from "@gatehouse/sdk";
import { useLocale, useTranslation } from "../../i18n.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Alert, Section, Spinner } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { useLoaded } from "./use-loaded.ts";

export function SessionsSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const sessions = useLoaded(() => user.getActiveSessions(), user.id);

  return (
    <Section title={t("account.sessions.title")}>
      {sessions.error && <Alert>{sessions.error}</Alert>}
      {sessions.data ? (
        <ul className="gh-list">
          {sessions.data.map((session) => (
            <SessionItem
              key={session.id}
              session={session}
              onRevoke={async () => {
                await user.revokeSession(session.id);
                await sessions.reload();
              }}
            />
          ))}
        </ul>
      ) : (
        !sessions.error && <Spinner label={t("common.loading")} />
      )}
    </Section>
  );
}

function SessionItem({ session, onRevoke }: { session: ActiveSession; onRevoke: () => Promise<void> }) {
  const t = useTranslation();
  const format = new Intl.DateTimeFormat(useLocale(), { dateStyle: "medium", timeStyle: "short" });
  const revoke = useAction(onRevoke);
  return (
    <li className="gh-list-item">
      <div className="gh-stack">
        <div className="gh-row">
          <span className="gh-text">
            {t("account.sessions.lastUsed", {
              time: session.lastUsedAt ? format.format(session.lastUsedAt) : t("account.sessions.never"),
            })}
          </span>
          {session.isCurrentSession && <span className="gh-badge">{t("account.sessions.current")}</span>}
          {session.isImpersonation && <span className="gh-badge">{t("account.sessions.impersonation")}</span>}
        </div>
        <p className="gh-muted">
          {t("account.sessions.created", { time: format.format(session.createdAt) })}
        </p>
        {revoke.error && <Alert>{revoke.error}</Alert>}
      </div>
      {!session.isCurrentSession && (
        <ConfirmButton
          label={t("account.sessions.revoke")}
          question={t("account.sessions.revokeQuestion")}
          pending={revoke.pending}
          onConfirm={revoke.run}
        />
      )}
    </li>
  );
}
