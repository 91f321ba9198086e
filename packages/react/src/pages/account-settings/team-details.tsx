// One of the user's teams: their name in it and leaving it (confirmed), and, as their team permissions allow, the
// members (others removable, confirmed), inviting by e-mail, the pending invitations (revocable) and the team's name.
import type { CurrentUser, Team } from "@gatehouse/sdk";
import { type FormEvent, useState } from "react";
import { usePermission } from "../../hooks.ts";
import { useTranslation } from "../../i18n.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Alert, Avatar, Button, Field, Muted, Spinner } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { isEmail } from "./form.ts";
import { memberName } from "./member-name.ts";
import { NameForm } from "./name-form.tsx";
import { useLoaded } from "./use-loaded.ts";

export function TeamDetails({ user, team }: { user: CurrentUser; team: Team }) {
  const t = useTranslation();
  const canReadMembers = usePermission(team, "$read_members") !== null;
  const canInvite = usePermission(team, "$invite_members") !== null;
  const canUpdate = usePermission(team, "$update_team") !== null;
  const canRemove = usePermission(team, "$remove_members") !== null;
  const profile = useLoaded(() => user.getTeamProfile(team), team.id);
  const leave = useAction(() => user.leaveTeam(team));

  return (
    <section className="gh-stack" aria-label={t("account.teams.detailsLabel", { team: team.displayName })}>
      <h3 className="gh-subtitle">{team.displayName}</h3>
      {profile.error && <Alert>{profile.error}</Alert>}
      {profile.data ? (
        <NameForm
          label={t("account.teams.yourName")}
          initial={profile.data.displayName}
          onSave={async (displayName) => {
            await profile.data?.update({ displayName });
            await profile.reload();
          }}
        />
      ) : (
        !profile.error && <Spinner label={t("common.loading")} />
      )}
      {canUpdate && (
        <NameForm
          label={t("account.teams.teamName")}
          initial={team.displayName}
          required
          onSave={(displayName) => team.update({ displayName: displayName ?? "" })}
        />
      )}
      {canReadMembers && <Members team={team} user={user} canRemove={canRemove} />}
      {canInvite && <Invitations team={team} canList={canReadMembers} />}
      <ConfirmButton
        label={t("account.teams.leave")}
        question={t("account.teams.leaveQuestion", { team: team.displayName })}
        pending={leave.pending}
        onConfirm={leave.run}
      />
      {leave.error && <Alert>{leave.error}</Alert>}
    </section>
  );
}

/** The team's members, the user marked as such; with `canRemove`, each other member has a Remove button. */
function Members({ team, user, canRemove }: { team: Team; user: CurrentUser; canRemove: boolean }) {
  const userId = user.id;
  const t = useTranslation();
  const members = useLoaded(() => team.listUsers(), team.id);
  return (
    <div className="gh-stack">
      <h4 className="gh-label">{t("account.teams.members")}</h4>
      {members.error && <Alert>{members.error}</Alert>}
      {members.data ? (
        <ul className="gh-list" aria-label={t("account.teams.members")}>
          {members.data.map((member) => {
            const name = memberName(member, user, t);
            return (
              <li key={member.id} className="gh-list-item">
                <span className="gh-row">
                  <Avatar name={name} imageUrl={member.teamProfile.profileImageUrl} />
                  <span className="gh-text">{name}</span>
                  {member.id === userId && <span className="gh-badge">{t("account.teams.you")}</span>}
                </span>
                {canRemove && member.id !== userId && (
                  <RemoveMember
                    name={name}
                    onRemove={async () => {
                      await team.removeUser(member.id);
                      await members.reload();
                    }}
                  />
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        !members.error && <Spinner label={t("common.loading")} />
      )}
    </div>
  );
}

function RemoveMember({ name, onRemove }: { name: string; onRemove: () => Promise<void> }) {
  const t = useTranslation();
  const remove = useAction(onRemove);
  return (
    <>
      <ConfirmButton
        label={t("account.teams.remove")}
        question={t("account.teams.removeQuestion", { name })}
        pending={remove.pending}
        onConfirm={remove.run}
      />
      {remove.error && <Alert>{remove.error}</Alert>}
    </>
  );
}

/** Inviting by e-mail; the pending invitations are listed when the user may read members too (the server's rule). */
function Invitations({ team, canList }: { team: Team; canList: boolean }) {
  const t = useTranslation();
  const invitations = useLoaded(async () => (canList ? team.listInvitations() : []), team.id);
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const invite = useAction(async (value: string) => {
    await team.inviteUser({ email: value });
    setEmail("");
    setSentTo(value);
    await invitations.reload();
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSentTo(null);
    const value = email.trim();
    const error = !value ? t("common.required") : isEmail(value) ? null : t("common.invalidEmail");
    setEmailError(error);
    if (error) event.currentTarget.querySelector("input")?.focus();
    else void invite.run(value);
  };

  return (
    <div className="gh-stack">
      <form className="gh-stack" noValidate onSubmit={onSubmit}>
        <Field
          label={t("account.teams.inviteEmail")}
          type="email"
          autoComplete="off"
          value={email}
          error={emailError}
          onChange={(event) => setEmail(event.target.value)}
        />
        {invite.error && <Alert>{invite.error}</Alert>}
        {sentTo && <Alert kind="success">{t("account.teams.invited", { email: sentTo })}</Alert>}
        <div className="gh-row">
          <Button type="submit" pending={invite.pending}>
            {t("account.teams.invite")}
          </Button>
        </div>
      </form>
      {canList && (
        <>
          <h4 className="gh-label">{t("account.teams.pending")}</h4>
          {invitations.error && <Alert>{invitations.error}</Alert>}
          {invitations.data?.length === 0 && <Muted>{t("account.teams.noPending")}</Muted>}
          {invitations.data && invitations.data.length > 0 && (
            <ul className="gh-list" aria-label={t("account.teams.pending")}>
              {invitations.data.map((invitation) => (
                <InvitationItem
                  key={invitation.id}
                  email={invitation.recipientEmail ?? ""}
                  onRevoke={async () => {
                    await invitation.revoke();
                    await invitations.reload();
                  }}
                />
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

function InvitationItem({ email, onRevoke }: { email: string; onRevoke: () => Promise<void> }) {
  const t = useTranslation();
  const revoke = useAction(onRevoke);
  return (
    <li className="gh-list-item">
      <span className="gh-text">{email}</span>
      <ConfirmButton
        label={t("account.teams.revoke")}
        question={t("account.teams.revokeQuestion", { email })}
        pending={revoke.pending}
        onConfirm={revoke.run}
      />
      {revoke.error && <Alert>{revoke.error}</Alert>}
    </li>
  );
}
