// How a user signs in (password set or removed here; one-time codes, passkey, TOTP and OAuth accounts shown, the
// passkey and TOTP removable) and their active sessions, each revocable.
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useQuery } from "../../data.ts";
import { useDashboardTranslation } from "../../messages.ts";
import { projectKey } from "../../project.tsx";
import { ConfirmButton, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { usersChanged, When } from "./bricks.tsx";
import type { UserPartProps } from "./user-page.tsx";

function OnOff({ on }: { on: boolean }) {
  const t = useDashboardTranslation();
  return (
    <span className={on ? "dash-badge dash-ok" : "dash-badge"}>{on ? t("auth.on") : t("auth.off")}</span>
  );
}

export function UserAuthMethods({ project, user }: UserPartProps) {
  const oauth = user.toClientJson().oauth_providers;
  const t = useDashboardTranslation();
  return (
    <div className="dash-auth">
      <Password project={project} user={user} />
      <dl className="dash-facts">
        <dt>{t("auth.otp")}</dt>
        <dd>
          <OnOff on={user.otpAuthEnabled} />
        </dd>
        <dt>{t("auth.passkey")}</dt>
        <dd className="dash-actions">
          <OnOff on={user.passkeyAuthEnabled} />
          {user.passkeyAuthEnabled && (
            <ConfirmButton
              label={t("auth.removePasskey")}
              question={t("auth.removePasskeyQuestion")}
              confirmLabel={t("auth.remove")}
              onConfirm={async () => {
                await user.update({ passkeyAuthEnabled: false });
                usersChanged(project);
              }}
            />
          )}
        </dd>
        <dt>{t("auth.totp")}</dt>
        <dd className="dash-actions">
          <OnOff on={user.isMultiFactorRequired} />
          {user.isMultiFactorRequired && (
            <ConfirmButton
              label={t("auth.totpOff")}
              question={t("auth.totpOffQuestion")}
              confirmLabel={t("auth.turnOff")}
              onConfirm={async () => {
                await user.update({ totpMultiFactorSecret: null });
                usersChanged(project);
              }}
            />
          )}
        </dd>
        <dt>{t("auth.oauth")}</dt>
        <dd>
          {oauth.length === 0 ? (
            <span className="dash-muted">{t("auth.noneConnected")}</span>
          ) : (
            <ul className="dash-plain-list">
              {oauth.map((account) => (
                <li key={`${account.id}:${account.account_id}`}>
                  <strong>{account.id}</strong> <span className="dash-mono">{account.account_id}</span>
                  {account.email && <span className="dash-muted"> ({account.email})</span>}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </div>
  );
}

function Password({ project, user }: UserPartProps) {
  const t = useDashboardTranslation();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const set = useFormAction(async () => {
    await user.update({ password });
    usersChanged(project);
    setPassword("");
    setDone(t("auth.passwordSet"));
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(null);
    const found =
      password.length < 8 ? t("users.passwordShort") : password.length > 256 ? t("users.passwordLong") : null;
    setError(found);
    if (found) event.currentTarget.querySelector("input")?.focus();
    else void set.run();
  };
  return (
    <div className="dash-password">
      <p>
        {t("auth.password")} <strong>{user.hasPassword ? t("auth.passwordIsSet") : t("user.none")}</strong>
      </p>
      <form className="dash-form dash-inline-form" noValidate onSubmit={onSubmit}>
        <Field
          label={user.hasPassword ? t("auth.replacePassword") : t("auth.setAPassword")}
          type="password"
          autoComplete="new-password"
          value={password}
          error={error}
          onChange={(event) => setPassword(event.target.value)}
        />
        {set.error && <Alert>{set.error}</Alert>}
        {done && <Alert kind="success">{done}</Alert>}
        <div className="dash-actions">
          <Button type="submit" pending={set.pending}>
            {t("auth.setPassword")}
          </Button>
          {user.hasPassword && (
            <ConfirmButton
              label={t("auth.removePassword")}
              question={t("auth.removePasswordQuestion")}
              confirmLabel={t("auth.remove")}
              onConfirm={async () => {
                await user.update({ password: null });
                usersChanged(project);
                setDone(t("auth.passwordRemoved"));
              }}
            />
          )}
        </div>
      </form>
    </div>
  );
}

/** `ServerUser.revokeSession`, which the SDK may not offer yet (asked of the SDK's owner). */
type Revoking = { revokeSession?: (sessionId: string) => Promise<void> };

export function UserSessions({ project, user }: UserPartProps) {
  const t = useDashboardTranslation();
  const sessions = useQuery(projectKey(project, "users", user.id, "sessions"), () =>
    user.getActiveSessions(),
  );
  const revokeSession = (user as Revoking).revokeSession?.bind(user);
  if (sessions.length === 0) return <p className="dash-muted">{t("sessions.none")}</p>;
  return (
    <>
      {!revokeSession && <Alert kind="info">{t("sessions.needsSdk")}</Alert>}
      <TableScroll label={t("sessions.table")}>
        <table className="dash-table">
          <TableHead
            columns={[
              t("sessions.col.session"),
              t("sessions.col.started"),
              t("sessions.col.kind"),
              t("users.col.actions"),
            ]}
          />
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id}>
                <td className="dash-mono">{session.id}</td>
                <td>
                  <When date={session.createdAt} />
                </td>
                <td>{session.isImpersonation ? t("sessions.impersonation") : t("sessions.signIn")}</td>
                <td>
                  {revokeSession && (
                    <ConfirmButton
                      label={t("sessions.revokeName", { id: session.id.slice(0, 8) })}
                      question={t("sessions.revokeQuestion")}
                      confirmLabel={t("keys.revoke")}
                      onConfirm={async () => {
                        await revokeSession(session.id);
                        usersChanged(project);
                      }}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
