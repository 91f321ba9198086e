// A team's pending invitations (revocable) and the form that sends one. The e-mail's link must lead to a trusted
// domain of the project, so it goes to the first trusted domain's handler pages; without one, nothing can be sent.
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useQuery } from "../../data.ts";
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
  const { project, team } = props;
  const invitations = useQuery(projectKey(project, "teams", team.id, "invitations"), () =>
    team.listInvitations(),
  );
  const callbackUrl = useInvitationUrl(props);
  return (
    <>
      {invitations.length === 0 ? (
        <p className="dash-muted">No pending invitations.</p>
      ) : (
        <TableScroll label="Invitations table">
          <table className="dash-table">
            <TableHead columns={["Sent to", "Expires", "Actions"]} />
            <tbody>
              {invitations.map((invitation) => {
                const to = invitation.recipientEmail ?? "unknown recipient";
                return (
                  <tr key={invitation.id}>
                    <td>{to}</td>
                    <td>
                      <When date={invitation.expiresAt} />
                    </td>
                    <td>
                      <ConfirmButton
                        label={`Revoke the invitation to ${to}`}
                        question={`Revoke the invitation to ${to}? Its link stops working.`}
                        confirmLabel="Revoke"
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
          To send invitations, add a trusted domain to the project: the e-mail links to its team-invitation
          page. <Link to={`/projects/${project.id}/domains`}>Domains</Link>
        </Alert>
      )}
    </>
  );
}

function Invite({ project, team, callbackUrl }: TeamPartProps & { callbackUrl: string }) {
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
    const found = !value
      ? "Enter an e-mail address."
      : looksLikeEmail(value)
        ? null
        : "This is not an e-mail address.";
    setError(found);
    if (found) focusFirst(event.currentTarget, ["email"]);
    else void send.run(value);
  };
  return (
    <form className="dash-form dash-inline-form" noValidate onSubmit={onSubmit}>
      <Field
        label="Invite by e-mail"
        name="email"
        type="email"
        autoComplete="off"
        value={email}
        error={error}
        hint={`The link leads to ${callbackUrl}.`}
        onChange={(event) => setEmail(event.target.value)}
      />
      {send.error && <Alert>{send.error}</Alert>}
      {sent && <Alert kind="success">Invitation sent to {sent}.</Alert>}
      <div>
        <Button type="submit" pending={send.pending}>
          Send invitation
        </Button>
      </div>
    </form>
  );
}
