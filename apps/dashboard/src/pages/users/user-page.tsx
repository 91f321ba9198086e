// One user of the project: profile, e-mails, how they sign in, sessions, teams and permissions, metadata as JSON, and
// deletion. Each part reads on its own (errors stay in place); every write invalidates the project's user reads.

import type { ServerUser } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { useQuery } from "../../data.ts";
import { ScreenHeader } from "../../layout.tsx";
import { useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { Link, navigate } from "../../router.tsx";
import { AuditEntries } from "../audit-log.tsx";
import { ConfirmButton, Part } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { settingsKey } from "../settings/project-settings.ts";
import { MetadataEditors, usersChanged, When } from "./bricks.tsx";
import { UserAccess } from "./user-access.tsx";
import { UserAuthMethods, UserSessions } from "./user-auth.tsx";
import { VerifiedBadge } from "./user-badges.tsx";
import { UserEmails } from "./user-emails.tsx";
import { UserTeams } from "./user-teams.tsx";

export type UserPartProps = ProjectScreenProps & { user: ServerUser };

export function UserPage({ project, userId }: ProjectScreenProps & { userId: string }) {
  const t = useDashboardTranslation();
  const user = useQuery(projectKey(project, "users", userId), () => project.app.getUser(userId));
  const back = <Link to={`/projects/${project.id}/users`}>{t("user.all")}</Link>;
  if (!user) {
    return (
      <>
        <ScreenHeader title={t("user.notFound")}>{back}</ScreenHeader>
        <p className="dash-muted">{t("user.notFoundText", { id: userId })}</p>
      </>
    );
  }
  const props = { project, user };
  return (
    <>
      <ScreenHeader title={user.displayName || user.primaryEmail || t("user.unnamed")}>{back}</ScreenHeader>
      <Panel title={t("user.profile")}>
        <Profile {...props} />
      </Panel>
      <Panel title={t("user.access")}>
        <Part label={t("user.accessPart")} reads={settingsKey(project)}>
          <UserAccess {...props} onChanged={() => usersChanged(project)} />
        </Part>
      </Panel>
      <Panel title={t("user.emails")}>
        <Part label={t("user.emailsPart")} reads={projectKey(project, "users", user.id, "e-mails")}>
          <UserEmails {...props} />
        </Part>
      </Panel>
      <Panel title={t("user.auth")}>
        <UserAuthMethods {...props} />
      </Panel>
      <Panel title={t("user.teams")}>
        <Part label={t("user.teamsPart")} reads={projectKey(project, "users", user.id, "teams")}>
          <UserTeams {...props} />
        </Part>
      </Panel>
      <Panel title={t("user.sessions")}>
        <Part label={t("user.sessionsPart")} reads={projectKey(project, "users", user.id, "sessions")}>
          <UserSessions {...props} />
        </Part>
      </Panel>
      <Panel title={t("nav.auditLog")}>
        <Part label={t("nav.auditLog")}>
          <AuditEntries project={project} filters={{ targetId: user.id }} />
        </Part>
      </Panel>
      <Panel title={t("team.metadata")}>
        <MetadataEditors
          of={user}
          hints={{
            clientMetadata: t("user.hint.client"),
            clientReadOnlyMetadata: t("user.hint.clientReadOnly"),
            serverMetadata: t("team.hint.server"),
          }}
          onSave={async (update) => {
            await user.update(update);
            usersChanged(project);
          }}
        />
      </Panel>
      <Panel title={t("user.delete")}>
        <p className="dash-muted">{t("user.deleteText")}</p>
        <ConfirmButton
          label={t("user.delete")}
          question={t("user.deleteQuestion", { name: user.primaryEmail ?? t("user.thisUser") })}
          confirmLabel={t("common.delete")}
          onConfirm={async () => {
            await user.delete();
            usersChanged(project);
            navigate(`/projects/${project.id}/users`);
          }}
        />
      </Panel>
    </>
  );
}

export function Panel({ title, children }: { title: string; children: ReactNode }) {
  // An id of its own: a title in Japanese or Arabic has no Latin letters to make one from.
  const id = useId();
  return (
    <section className="dash-panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function Profile({ project, user }: UserPartProps) {
  const t = useDashboardTranslation();
  const [name, setName] = useState(user.displayName ?? "");
  const [saved, setSaved] = useState(false);
  const save = useFormAction(async () => {
    await user.setDisplayName(name.trim() || null);
    usersChanged(project);
    setSaved(true);
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void save.run();
  };
  return (
    <div className="dash-profile">
      <dl className="dash-facts">
        <dt>{t("user.id")}</dt>
        <dd className="dash-mono">{user.id}</dd>
        <dt>{t("user.primaryEmail")}</dt>
        <dd>
          {user.primaryEmail ?? <span className="dash-muted">{t("user.none")}</span>}{" "}
          {user.primaryEmail && <VerifiedBadge verified={user.primaryEmailVerified} />}
        </dd>
        <dt>{t("user.signedUp")}</dt>
        <dd>
          <When date={user.signedUpAt} />
        </dd>
        <dt>{t("user.lastActive")}</dt>
        <dd>
          <When date={user.lastActiveAt} />
        </dd>
        {user.isRestricted && (
          <>
            <dt>{t("user.restricted")}</dt>
            <dd>
              {user.isAnonymous ? t("user.anonymous") : (user.restrictedByAdminReason ?? t("user.byAdmin"))}
            </dd>
          </>
        )}
      </dl>
      <form className="dash-form" noValidate onSubmit={onSubmit}>
        <Field
          label={t("user.displayName")}
          value={name}
          maxLength={256}
          hint={t("user.leaveEmpty")}
          onChange={(event) => {
            setName(event.target.value);
            setSaved(false);
          }}
        />
        {save.error && <Alert>{save.error}</Alert>}
        {saved && <Alert kind="success">{t("user.nameSaved")}</Alert>}
        <div>
          <Button type="submit" pending={save.pending}>
            {t("user.saveName")}
          </Button>
        </div>
      </form>
    </div>
  );
}
