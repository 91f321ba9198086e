// A team's pending invitations (revocable) and the form that sends one. The e-mail's link must lead to a trusted
// domain of the project, so it goes to the first trusted domain's handler pages; without one, nothing can be sent.
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useQuery } from "../../data.ts";
import { useDashboardTranslation } from "../../messages.ts";
import { projectKey } from "../../project.tsx";
import { Link } from "../../router.tsx";
import { ConfirmButton, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { focusFirst, looksLikeEmail, When } from "../users/bricks.tsx";
import { type TeamPartProps, teamsChanged } from "./team-page.tsx";

type Domain = { domain: string; handlerPath?: string };

/** Where the invitation's link goes: the first trusted domain's team-invitation handler page, or null. */
function useInvitationUrl({ project }: TeamPartProps): string | null {
  const admin = useQuery(projectKey(project, "project"), () => project.app.getProject());
  const domains = (admin.config as { domains?: Domain[] }).domains ?? [];
  const first = domains[0];
  if (!first) return null;
  return `${first.domain.replace(/\/+$/, "")}${first.handlerPath ?? "/handler"}/team-invitation`;
}

export function TeamInvitations(props: TeamPartProps) {
  const t = useDashboardTranslation();
  const { project, team } = props;
  const invitations = useQuery(projectKey(project, "teams", team.id, "invitations"), () =>
    team.listInvitations(),
  );
  const callbackUrl = useInvitationUrl(props);
  return (
    <>
      {invitations.length === 0 ? (
        <p className="dash-muted">{t("inv.none")}</p>
      ) : (
        <TableScroll label={t("inv.table")}>
          <table className="dash-table">
            <TableHead columns={[t("inv.col.sentTo"), t("keys.col.expires"), t("users.col.actions")]} />
            <tbody>
              {invitations.map((invitation) => {
                const to = invitation.recipientEmail ?? t("inv.unknown");
                return (
                  <tr key={invitation.id}>
                    <td>{to}</td>
                    <td>
                      <When date={invitation.expiresAt} />
                    </td>
                    <td>
                      <ConfirmButton
                        label={t("inv.revokeName", { to })}
                        question={t("inv.revokeQuestion", { to })}
                        confirmLabel={t("keys.revoke")}
                        onConfirm={async () => {
                          await invitation.revoke();
                          teamsChanged(project);
                        }}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
      {callbackUrl ? (
        <Invite {...props} callbackUrl={callbackUrl} />
      ) : (
        <Alert kind="info">
          {t("inv.needDomain")} <Link to={`/projects/${project.id}/domains`}>{t("inv.domains")}</Link>
        </Alert>
      )}
    </>
  );
}

function Invite({ project, team, callbackUrl }: TeamPartProps & { callbackUrl: string }) {
  const t = useDashboardTranslation();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const send = useFormAction(async (to: string) => {
    await team.inviteUser({ email: to, callbackUrl });
    teamsChanged(project);
    setEmail("");
    setSent(to);
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSent(null);
    const value = email.trim();
    const found = !value ? t("emails.enter") : looksLikeEmail(value) ? null : t("users.emailInvalid");
    setError(found);
    if (found) focusFirst(event.currentTarget, ["email"]);
    else void send.run(value);
  };
  return (
    <form className="dash-form dash-inline-form" noValidate onSubmit={onSubmit}>
      <Field
        label={t("inv.label")}
        name="email"
        type="email"
        autoComplete="off"
        value={email}
        error={error}
        hint={t("inv.hint", { url: callbackUrl })}
        onChange={(event) => setEmail(event.target.value)}
      />
      {send.error && <Alert>{send.error}</Alert>}
      {sent && <Alert kind="success">{t("inv.sent", { to: sent })}</Alert>}
      <div>
        <Button type="submit" pending={send.pending}>
          {t("inv.send")}
        </Button>
      </div>
    </form>
  );
}
