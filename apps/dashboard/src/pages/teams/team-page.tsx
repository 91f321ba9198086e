// One team of the project: its name, members and their permissions, invitations, single sign-on, metadata as JSON,
// and deletion.
// Each part reads on its own; every write re-reads the project's team reads and the user reads that show teams.
import type { ServerTeam } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
import { ScreenHeader } from "../../layout.tsx";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { Link, navigate } from "../../router.tsx";
import { ConfirmButton, Part } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { focusFirst, MetadataEditors, when } from "../users/bricks.tsx";
import { Panel } from "../users/user-page.tsx";
import { TeamInvitations } from "./team-invitations.tsx";
import { MemberPermissions, TeamMembers } from "./team-members.tsx";
import { TeamScimTokens, TeamSsoConnections, TeamSsoDomains } from "./team-sso.tsx";

export type TeamPartProps = ProjectScreenProps & { team: ServerTeam };

/** After a write to a team: the project's team reads, and the user reads that show teams and permissions. */
export const teamsChanged = (project: { id: string }) =>
  invalidate(projectKey(project, "teams"), projectKey(project, "users"));

export function TeamPage({ project, teamId }: ProjectScreenProps & { teamId: string }) {
  const team = useQuery(projectKey(project, "teams", teamId), () => project.app.getTeam(teamId));
  const back = <Link to={`/projects/${project.id}/teams`}>All teams</Link>;
  if (!team) {
    return (
      <>
        <ScreenHeader title="Team not found">{back}</ScreenHeader>
        <p className="dash-muted">There is no team with the id {teamId} in this project (any more).</p>
      </>
    );
  }
  const props = { project, team };
  return (
    <>
      <ScreenHeader title={team.displayName}>{back}</ScreenHeader>
      <Panel title="Team">
        <TeamName {...props} />
      </Panel>
      <Panel title="Members">
        <Part label="members" reads={projectKey(project, "teams", team.id, "members")}>
          <TeamMembers {...props} />
        </Part>
      </Panel>
      <Panel title="Member permissions">
        <Part
          label="permissions"
          reads={[
            projectKey(project, "teams", team.id, "members"),
            projectKey(project, "team-permission-definitions"),
          ]}
        >
          <MemberPermissions {...props} />
        </Part>
      </Panel>
      <Panel title="Invitations">
        <Part label="invitations" reads={projectKey(project, "teams", team.id, "invitations")}>
          <TeamInvitations {...props} />
        </Part>
      </Panel>
      <Panel title="Single sign-on">
        <Part label="SSO connections" reads={projectKey(project, "teams", team.id, "sso-connections")}>
          <TeamSsoConnections {...props} />
        </Part>
      </Panel>
      <Panel title="SSO domains">
        <Part label="SSO domains" reads={projectKey(project, "teams", team.id, "sso-domains")}>
          <TeamSsoDomains {...props} />
        </Part>
      </Panel>
      <Panel title="SCIM provisioning">
        <Part label="SCIM tokens" reads={projectKey(project, "teams", team.id, "scim-tokens")}>
          <TeamScimTokens {...props} />
        </Part>
      </Panel>
      <Panel title="Metadata">
        <MetadataEditors
          of={team}
          hints={{
            clientMetadata: "Members' apps read it; members with $update_team write it.",
            clientReadOnlyMetadata: "Members' apps read it; only servers write it.",
            serverMetadata: "Only servers read and write it.",
          }}
          onSave={async (update) => {
            await team.update(update);
            teamsChanged(project);
          }}
        />
      </Panel>
      <Panel title="Delete team">
        <p className="dash-muted">
          Deleting removes the memberships, permissions and pending invitations. It cannot be undone.
        </p>
        <ConfirmButton
          label="Delete team"
          question={`Delete the team ${team.displayName} for good?`}
          confirmLabel="Delete"
          onConfirm={async () => {
            await team.delete();
            teamsChanged(project);
            navigate(`/projects/${project.id}/teams`);
          }}
        />
      </Panel>
    </>
  );
}

function TeamName({ project, team }: TeamPartProps) {
  const [name, setName] = useState(team.displayName);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useFormAction(async () => {
    await team.update({ displayName: name.trim() });
    teamsChanged(project);
    setSaved(true);
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const found = name.trim() ? null : "Give the team a name.";
    setError(found);
    if (found) focusFirst(event.currentTarget, ["name"]);
    else void save.run();
  };
  return (
    <div className="dash-profile">
      <dl className="dash-facts">
        <dt>Team id</dt>
        <dd className="dash-mono">{team.id}</dd>
        <dt>Created</dt>
        <dd>{when(team.createdAt)}</dd>
      </dl>
      <form className="dash-form" noValidate onSubmit={onSubmit}>
        <Field
          label="Team name"
          name="name"
          value={name}
          maxLength={256}
          error={error}
          onChange={(event) => {
            setName(event.target.value);
            setSaved(false);
          }}
        />
        {save.error && <Alert>{save.error}</Alert>}
        {saved && <Alert kind="success">Team name saved.</Alert>}
        <div>
          <Button type="submit" pending={save.pending}>
            Save team name
          </Button>
        </div>
      </form>
    </div>
  );
}
