// One user of the project: profile, e-mails, how they sign in, sessions, teams and permissions, metadata as JSON, and
// deletion. Each part reads on its own (errors stay in place); every write invalidates the project's user reads.

import type { ServerUser } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, type ReactNode, useState } from "react";
import { useQuery } from "../../data.ts";
import { ScreenHeader } from "../../layout.tsx";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { Link, navigate } from "../../router.tsx";
import { AuditEntries } from "../audit-log.tsx";
import { ConfirmButton, Part } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { settingsKey } from "../settings/project-settings.ts";
import { MetadataEditors, usersChanged, when } from "./bricks.tsx";
import { UserAccess } from "./user-access.tsx";
import { UserAuthMethods, UserSessions } from "./user-auth.tsx";
import { VerifiedBadge } from "./user-badges.tsx";
import { UserEmails } from "./user-emails.tsx";
import { UserTeams } from "./user-teams.tsx";

export type UserPartProps = ProjectScreenProps & { user: ServerUser };

export function UserPage({ project, userId }: ProjectScreenProps & { userId: string }) {
  const user = useQuery(projectKey(project, "users", userId), () => project.app.getUser(userId));
  const back = <Link to={`/projects/${project.id}/users`}>All users</Link>;
  if (!user) {
    return (
      <>
        <ScreenHeader title="User not found">{back}</ScreenHeader>
        <p className="dash-muted">There is no user with the id {userId} in this project (any more).</p>
      </>
    );
  }
  const props = { project, user };
  return (
    <>
      <ScreenHeader title={user.displayName || user.primaryEmail || "Unnamed user"}>{back}</ScreenHeader>
      <Panel title="Profile">
        <Profile {...props} />
      </Panel>
      <Panel title="Access">
        <Part label="access" reads={settingsKey(project)}>
          <UserAccess {...props} onChanged={() => usersChanged(project)} />
        </Part>
      </Panel>
      <Panel title="E-mails">
        <Part label="e-mails" reads={projectKey(project, "users", user.id, "e-mails")}>
          <UserEmails {...props} />
        </Part>
      </Panel>
      <Panel title="Authentication">
        <UserAuthMethods {...props} />
      </Panel>
      <Panel title="Teams and permissions">
        <Part label="teams" reads={projectKey(project, "users", user.id, "teams")}>
          <UserTeams {...props} />
        </Part>
      </Panel>
      <Panel title="Sessions">
        <Part label="sessions" reads={projectKey(project, "users", user.id, "sessions")}>
          <UserSessions {...props} />
        </Part>
      </Panel>
      <Panel title="Audit log">
        <Part label="audit entries">
          <AuditEntries project={project} filters={{ targetId: user.id }} />
        </Part>
      </Panel>
      <Panel title="Metadata">
        <MetadataEditors
          of={user}
          hints={{
            clientMetadata: "The user's app reads and writes it.",
            clientReadOnlyMetadata: "The user's app reads it; only servers write it.",
            serverMetadata: "Only servers read and write it.",
          }}
          onSave={async (update) => {
            await user.update(update);
            usersChanged(project);
          }}
        />
      </Panel>
      <Panel title="Delete user">
        <p className="dash-muted">
          Deleting ends all of the user's sessions and removes them from their teams. It cannot be undone.
        </p>
        <ConfirmButton
          label="Delete user"
          question={`Delete ${user.primaryEmail ?? "this user"} for good?`}
          confirmLabel="Delete"
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
  const id = `panel-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section className="dash-panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function Profile({ project, user }: UserPartProps) {
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
        <dt>User id</dt>
        <dd className="dash-mono">{user.id}</dd>
        <dt>Primary e-mail</dt>
        <dd>
          {user.primaryEmail ?? <span className="dash-muted">none</span>}{" "}
          {user.primaryEmail && <VerifiedBadge verified={user.primaryEmailVerified} />}
        </dd>
        <dt>Signed up</dt>
        <dd>{when(user.signedUpAt)}</dd>
        <dt>Last active</dt>
        <dd>{when(user.lastActiveAt)}</dd>
        {user.isRestricted && (
          <>
            <dt>Restricted</dt>
            <dd>
              {user.isAnonymous ? "anonymous user" : (user.restrictedByAdminReason ?? "by an administrator")}
            </dd>
          </>
        )}
      </dl>
      <form className="dash-form" noValidate onSubmit={onSubmit}>
        <Field
          label="Display name"
          value={name}
          maxLength={256}
          hint="Leave empty for none."
          onChange={(event) => {
            setName(event.target.value);
            setSaved(false);
          }}
        />
        {save.error && <Alert>{save.error}</Alert>}
        {saved && <Alert kind="success">Display name saved.</Alert>}
        <div>
          <Button type="submit" pending={save.pending}>
            Save display name
          </Button>
        </div>
      </form>
    </div>
  );
}
