// A team's members (with their profile; add one picked by searching the project's users, remove after confirming) and
// each member's permissions in the team: direct grants revocable, contained ones shown, any defined one grantable.
import { Alert, Button } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useQuery } from "../../data.ts";
import { useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { Link } from "../../router.tsx";
import { ConfirmButton, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { focusFirst } from "../users/bricks.tsx";
import { type PickedUser, UserPicker } from "../users/user-picker.tsx";
import { type TeamPartProps, teamsChanged } from "./team-page.tsx";

function useMembers({ project, team }: TeamPartProps) {
  return useQuery(projectKey(project, "teams", team.id, "members"), async () => {
    const members = await team.listUsers();
    return Promise.all(
      members.map(async (member) => ({
        member,
        name: member.teamProfile.displayName || member.displayName || member.primaryEmail || member.id,
        direct: (await member.listPermissions(team, { recursive: false })).map((p) => p.id),
        all: (await member.listPermissions(team, { recursive: true })).map((p) => p.id),
      })),
    );
  });
}

/** The project's permission definitions (system ones included), for the grant menus. */
export function usePermissionDefinitions({ project }: ProjectScreenProps) {
  return useQuery(projectKey(project, "team-permission-definitions"), () =>
    project.app.listTeamPermissionDefinitions(),
  );
}

export function TeamMembers(props: TeamPartProps) {
  const t = useDashboardTranslation();
  const { project, team } = props;
  const members = useMembers(props);
  return (
    <>
      {members.length === 0 ? (
        <p className="dash-muted">{t("members.none")}</p>
      ) : (
        <TableScroll label={t("members.table")}>
          <table className="dash-table">
            <TableHead columns={[t("members.col.member"), t("users.email"), t("users.col.actions")]} />
            <tbody>
              {members.map(({ member, name }) => (
                <tr key={member.id}>
                  <td>
                    <Link to={`/projects/${project.id}/users/${member.id}`}>{name}</Link>
                  </td>
                  <td>{member.primaryEmail ?? <span className="dash-muted">{t("user.none")}</span>}</td>
                  <td>
                    <ConfirmButton
                      label={t("members.removeName", { name })}
                      question={t("members.removeQuestion", { name, team: team.displayName })}
                      confirmLabel={t("auth.remove")}
                      onConfirm={async () => {
                        await team.removeUser(member.id);
                        teamsChanged(project);
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <AddMember {...props} />
    </>
  );
}

function AddMember({ project, team }: TeamPartProps) {
  const t = useDashboardTranslation();
  const [who, setWho] = useState<PickedUser | null>(null);
  const [error, setError] = useState<string | null>(null);
  const add = useFormAction(
    async (user: PickedUser) => {
      await team.addUser(user.id);
      teamsChanged(project);
      setWho(null);
    },
    {
      USER_NOT_FOUND: () => t("teams.userGone"),
      TEAM_MEMBERSHIP_ALREADY_EXISTS: () => t("members.alreadyMember"),
    },
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = who ? null : t("members.choose");
    setError(found);
    if (!who) focusFirst(event.currentTarget, ["member"]);
    else void add.run(who);
  };
  return (
    <form className="dash-form dash-inline-form" noValidate onSubmit={onSubmit}>
      <UserPicker
        project={project}
        label={t("members.add")}
        name="member"
        value={who}
        error={error}
        onChange={(user) => {
          setWho(user);
          if (user) setError(null);
        }}
      />
      {add.error && <Alert>{add.error}</Alert>}
      <div>
        <Button type="submit" pending={add.pending}>
          {t("members.addButton")}
        </Button>
      </div>
    </form>
  );
}

export function MemberPermissions(props: TeamPartProps) {
  const t = useDashboardTranslation();
  const members = useMembers(props);
  const definitions = usePermissionDefinitions(props);
  if (members.length === 0) return <p className="dash-muted">{t("perms.addFirst")}</p>;
  return (
    <TableScroll label={t("perms.table")}>
      <table className="dash-table">
        <TableHead columns={[t("members.col.member"), t("perms.col.permissions"), t("perms.col.grant")]} />
        <tbody>
          {members.map((entry) => (
            <MemberRow
              key={entry.member.id}
              {...props}
              entry={entry}
              definitions={definitions.map((d) => d.id)}
            />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

type Entry = ReturnType<typeof useMembers>[number];

function MemberRow({
  project,
  team,
  entry,
  definitions,
}: TeamPartProps & { entry: Entry; definitions: string[] }) {
  const { member, name, direct, all } = entry;
  const t = useDashboardTranslation();
  const grantable = definitions.filter((id) => !direct.includes(id));
  const [choice, setChoice] = useState("");
  const action = useFormAction(async (change: () => Promise<void>) => {
    await change();
    teamsChanged(project);
  });
  const chosen = grantable.includes(choice) ? choice : (grantable[0] ?? "");
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>
        <ul className="dash-plain-list dash-badges" aria-label={t("perms.of", { name })}>
          {all.length === 0 && <li className="dash-muted">{t("user.none")}</li>}
          {all.map((id) =>
            direct.includes(id) ? (
              <li key={id} className="dash-badge dash-mono">
                {id}{" "}
                <button
                  type="button"
                  className="dash-chip-remove"
                  aria-label={t("perms.revoke", { permission: id, name })}
                  onClick={() => void action.run(() => member.revokePermission(team, id))}
                >
                  ×
                </button>
              </li>
            ) : (
              <li key={id} className="dash-badge dash-mono" title={t("perms.containedTitle")}>
                {id} <span className="dash-sr-only">{t("perms.contained")}</span>
              </li>
            ),
          )}
        </ul>
        {action.error && <Alert>{action.error}</Alert>}
      </td>
      <td>
        {grantable.length === 0 ? (
          <span className="dash-muted">{t("perms.every")}</span>
        ) : (
          <div className="dash-actions">
            <label>
              <span className="dash-sr-only">{t("perms.toGrant", { name })}</span>
              <select value={chosen} onChange={(event) => setChoice(event.target.value)}>
                {grantable.map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
              </select>
            </label>
            <Button
              aria-label={t("perms.grantTo", { name })}
              pending={action.pending}
              onClick={() => void action.run(() => member.grantPermission(team, chosen))}
            >
              {t("perms.col.grant")}
            </Button>
          </div>
        )}
      </td>
    </tr>
  );
}
