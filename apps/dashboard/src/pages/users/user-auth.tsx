// How a user signs in (password set or removed here; one-time codes, passkey, TOTP and OAuth accounts shown, the
// passkey and TOTP removable) and their active sessions, each revocable.
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useQuery } from "../../data.ts";
import { projectKey } from "../../project.tsx";
import { ConfirmButton, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { usersChanged, When } from "./bricks.tsx";
import type { UserPartProps } from "./user-page.tsx";

const onOff = (on: boolean) => (
  <span className={on ? "dash-badge dash-ok" : "dash-badge"}>{on ? "on" : "off"}</span>
);

export function UserAuthMethods({ project, user }: UserPartProps) {
  const oauth = user.toClientJson().oauth_providers;
  return (
    <div className="dash-auth">
      <Password project={project} user={user} />
      <dl className="dash-facts">
        <dt>One-time code sign-in</dt>
        <dd>{onOff(user.otpAuthEnabled)}</dd>
        <dt>Passkey</dt>
        <dd className="dash-actions">
          {onOff(user.passkeyAuthEnabled)}
          {user.passkeyAuthEnabled && (
            <ConfirmButton
              label="Remove passkey"
              question="Remove the user's passkey?"
              confirmLabel="Remove"
              onConfirm={async () => {
                await user.update({ passkeyAuthEnabled: false });
                usersChanged(project);
              }}
            />
          )}
        </dd>
        <dt>Two-factor (TOTP)</dt>
        <dd className="dash-actions">
          {onOff(user.isMultiFactorRequired)}
          {user.isMultiFactorRequired && (
            <ConfirmButton
              label="Turn off TOTP"
              question="Turn off the user's second factor?"
              confirmLabel="Turn off"
              onConfirm={async () => {
                await user.update({ totpMultiFactorSecret: null });
                usersChanged(project);
              }}
            />
          )}
        </dd>
        <dt>OAuth accounts</dt>
        <dd>
          {oauth.length === 0 ? (
            <span className="dash-muted">none connected</span>
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
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const set = useFormAction(async () => {
    await user.update({ password });
    usersChanged(project);
    setPassword("");
    setDone("Password set.");
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(null);
    const found =
      password.length < 8
        ? "A password has at least 8 characters."
        : password.length > 256
          ? "A password has at most 256 characters."
          : null;
    setError(found);
    if (found) event.currentTarget.querySelector("input")?.focus();
    else void set.run();
  };
  return (
    <div className="dash-password">
      <p>
        Password: <strong>{user.hasPassword ? "set" : "none"}</strong>
      </p>
      <form className="dash-form dash-inline-form" noValidate onSubmit={onSubmit}>
        <Field
          label={user.hasPassword ? "Replace the password" : "Set a password"}
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
            Set password
          </Button>
          {user.hasPassword && (
            <ConfirmButton
              label="Remove password"
              question="Remove the password? The user can no longer sign in with it."
              confirmLabel="Remove"
              onConfirm={async () => {
                await user.update({ password: null });
                usersChanged(project);
                setDone("Password removed.");
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
  const sessions = useQuery(projectKey(project, "users", user.id, "sessions"), () =>
    user.getActiveSessions(),
  );
  const revokeSession = (user as Revoking).revokeSession?.bind(user);
  if (sessions.length === 0) return <p className="dash-muted">No active sessions.</p>;
  return (
    <>
      {!revokeSession && (
        <Alert kind="info">Revoking sessions needs a newer SDK (ServerUser.revokeSession).</Alert>
      )}
      <TableScroll label="Sessions table">
        <table className="dash-table">
          <TableHead columns={["Session", "Started", "Kind", "Actions"]} />
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id}>
                <td className="dash-mono">{session.id}</td>
                <td>
                  <When date={session.createdAt} />
                </td>
                <td>{session.isImpersonation ? "impersonation" : "sign-in"}</td>
                <td>
                  {revokeSession && (
                    <ConfirmButton
                      label={`Revoke session ${session.id.slice(0, 8)}`}
                      question="Revoke this session? The device using it is signed out."
                      confirmLabel="Revoke"
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
