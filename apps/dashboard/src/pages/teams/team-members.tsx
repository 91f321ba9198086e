// A team's members (with their profile; add one picked by searching the project's users, remove after confirming) and
// each member's permissions in the team: direct grants revocable, contained ones shown, any defined one grantable.
import { Alert, Button } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useQuery } from "../../data.ts";
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
  const { project, team } = props;
  const members = useMembers(props);
  return (
    <>
      {members.length === 0 ? (
        <p className="dash-muted">No members yet.</p>
      ) : (
        <TableScroll label="Members table">
          <table className="dash-table">
            <TableHead columns={["Member", "E-mail", "Actions"]} />
            <tbody>
              {members.map(({ member, name }) => (
                <tr key={member.id}>
                  <td>
                    <Link to={`/projects/${project.id}/users/${member.id}`}>{name}</Link>
                  </td>
                  <td>{member.primaryEmail ?? <span className="dash-muted">none</span>}</td>
                  <td>
                    <ConfirmButton
                      label={`Remove ${name}`}
                      question={`Remove ${name} from ${team.displayName}? Their permissions in the team go too.`}
                      confirmLabel="Remove"
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
  const [who, setWho] = useState<PickedUser | null>(null);
  const [error, setError] = useState<string | null>(null);
  const add = useFormAction(
    async (user: PickedUser) => {
      await team.addUser(user.id);
      teamsChanged(project);
      setWho(null);
    },
    {
      USER_NOT_FOUND: () => "This user no longer exists: choose another.",
      TEAM_MEMBERSHIP_ALREADY_EXISTS: () => "This user is already a member.",
    },
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = who ? null : "Choose the user to add: type part of their name, e-mail or id.";
    setError(found);
    if (!who) focusFirst(event.currentTarget, ["member"]);
    else void add.run(who);
  };
  return (
    <form className="dash-form dash-inline-form" noValidate onSubmit={onSubmit}>
      <UserPicker
        project={project}
        label="Add a member"
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
          Add member
        </Button>
      </div>
    </form>
  );
}

export function MemberPermissions(props: TeamPartProps) {
  const members = useMembers(props);
  const definitions = usePermissionDefinitions(props);
  if (members.length === 0) return <p className="dash-muted">Add members to grant them permissions.</p>;
  return (
    <TableScroll label="Member permissions table">
      <table className="dash-table">
        <TableHead columns={["Member", "Permissions", "Grant"]} />
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
        <ul className="dash-plain-list dash-badges" aria-label={`Permissions of ${name}`}>
          {all.length === 0 && <li className="dash-muted">none</li>}
          {all.map((id) =>
            direct.includes(id) ? (
              <li key={id} className="dash-badge dash-mono">
                {id}{" "}
                <button
                  type="button"
                  className="dash-chip-remove"
                  aria-label={`Revoke ${id} from ${name}`}
                  onClick={() => void action.run(() => member.revokePermission(team, id))}
                >
                  ×
                </button>
              </li>
            ) : (
              <li key={id} className="dash-badge dash-mono" title="Contained in another permission">
                {id} <span className="dash-sr-only">(contained)</span>
              </li>
            ),
          )}
        </ul>
        {action.error && <Alert>{action.error}</Alert>}
      </td>
      <td>
        {grantable.length === 0 ? (
          <span className="dash-muted">has every permission</span>
        ) : (
          <div className="dash-actions">
            <label>
              <span className="dash-sr-only">Permission to grant to {name}</span>
              <select value={chosen} onChange={(event) => setChoice(event.target.value)}>
                {grantable.map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
              </select>
            </label>
            <Button
              aria-label={`Grant to ${name}`}
              pending={action.pending}
              onClick={() => void action.run(() => member.grantPermission(team, chosen))}
            >
              Grant
            </Button>
          </div>
        )}
      </td>
    </tr>
  );
}
