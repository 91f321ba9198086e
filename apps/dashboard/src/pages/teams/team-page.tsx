// One team of the project: its name, members and their permissions, invitations, single sign-on, its audit entries,
// metadata as JSON, and deletion.
// Each part reads on its own; every write re-reads the project's team reads and the user reads that show teams.
import type { ServerTeam } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
import { ScreenHeader } from "../../layout.tsx";
import { useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { Link, navigate } from "../../router.tsx";
import { AuditEntries } from "../audit-log.tsx";
import { ConfirmButton, Part } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { focusFirst, MetadataEditors, When } from "../users/bricks.tsx";
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
  const t = useDashboardTranslation();
  const back = <Link to={`/projects/${project.id}/teams`}>{t("team.all")}</Link>;
  if (!team) {
    return (
      <>
        <ScreenHeader title={t("team.notFound")}>{back}</ScreenHeader>
        <p className="dash-muted">{t("team.notFoundText", { id: teamId })}</p>
      </>
    );
  }
  const props = { project, team };
  return (
    <>
      <ScreenHeader title={team.displayName}>{back}</ScreenHeader>
      <Panel title={t("team.panel")}>
        <TeamName {...props} />
      </Panel>
      <Panel title={t("team.members")}>
        <Part label="members" reads={projectKey(project, "teams", team.id, "members")}>
          <TeamMembers {...props} />
        </Part>
      </Panel>
      <Panel title={t("team.memberPermissions")}>
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
      <Panel title={t("team.invitations")}>
        <Part label="invitations" reads={projectKey(project, "teams", team.id, "invitations")}>
          <TeamInvitations {...props} />
        </Part>
      </Panel>
      <Panel title={t("sso.panel.sso")}>
        <Part
          label={t("sso.part.connections")}
          reads={projectKey(project, "teams", team.id, "sso-connections")}
        >
          <TeamSsoConnections {...props} />
        </Part>
      </Panel>
      <Panel title={t("sso.panel.domains")}>
        <Part label={t("sso.panel.domains")} reads={projectKey(project, "teams", team.id, "sso-domains")}>
          <TeamSsoDomains {...props} />
        </Part>
      </Panel>
      <Panel title={t("sso.panel.scim")}>
        <Part label={t("sso.part.scim")} reads={projectKey(project, "teams", team.id, "scim-tokens")}>
          <TeamScimTokens {...props} />
        </Part>
      </Panel>
      <Panel title={t("audit.team")}>
        <Part label={t("audit.part")}>
          <AuditEntries project={project} filters={{ teamId: team.id }} />
        </Part>
      </Panel>
      <Panel title={t("team.metadata")}>
        <MetadataEditors
          of={team}
          hints={{
            clientMetadata: t("team.hint.client"),
            clientReadOnlyMetadata: t("team.hint.clientReadOnly"),
            serverMetadata: t("team.hint.server"),
          }}
          onSave={async (update) => {
            await team.update(update);
            teamsChanged(project);
          }}
        />
      </Panel>
      <Panel title={t("team.delete")}>
        <p className="dash-muted">{t("team.deleteText")}</p>
        <ConfirmButton
          label={t("team.delete")}
          question={t("team.deleteQuestion", { name: team.displayName })}
          confirmLabel={t("common.delete")}
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
  const t = useDashboardTranslation();
  const save = useFormAction(async () => {
    await team.update({ displayName: name.trim() });
    teamsChanged(project);
    setSaved(true);
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const found = name.trim() ? null : t("teams.nameMissing");
    setError(found);
    if (found) focusFirst(event.currentTarget, ["name"]);
    else void save.run();
  };
  return (
    <div className="dash-profile">
      <dl className="dash-facts">
        <dt>{t("teams.col.id")}</dt>
        <dd className="dash-mono">{team.id}</dd>
        <dt>{t("overview.created")}</dt>
        <dd>
          <When date={team.createdAt} />
        </dd>
      </dl>
      <form className="dash-form" noValidate onSubmit={onSubmit}>
        <Field
          label={t("teams.name")}
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
        {saved && <Alert kind="success">{t("team.saved")}</Alert>}
        <div>
          <Button type="submit" pending={save.pending}>
            {t("team.save")}
          </Button>
        </div>
      </form>
    </div>
  );
}
