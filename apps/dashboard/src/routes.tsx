// Which screen each dashboard path shows. Project screens get the owned project (with its admin app); a project the
// operator's teams do not own is "not found", whatever its id.
import type { ComponentType } from "react";
import { ProjectFrame } from "./layout.tsx";
import { ApiKeysPage } from "./pages/api-keys.tsx";
import { AuditLogPage } from "./pages/audit-log.tsx";
import { AuthSettingsPage } from "./pages/auth-settings.tsx";
import { DomainsPage } from "./pages/domains.tsx";
import { EmailsPage } from "./pages/emails/index.tsx";
import { NotFound } from "./pages/not-found.tsx";
import { OAuthClientsPage } from "./pages/oauth-clients.tsx";
import { Overview } from "./pages/overview.tsx";
import { PermissionsPage } from "./pages/permissions.tsx";
import { ProjectsPage } from "./pages/projects.tsx";
import { TrustPage } from "./pages/settings/trust.tsx";
import { TeamsPage } from "./pages/teams/index.tsx";
import { TeamPage } from "./pages/teams/team-page.tsx";
import { ImportUsersPage } from "./pages/users/import-users.tsx";
import { UsersPage } from "./pages/users/index.tsx";
import { UserPage } from "./pages/users/user-page.tsx";
import { WebhooksPage } from "./pages/webhooks.tsx";
import { type ProjectScreenProps, useOwnedProject } from "./project.tsx";
import { matchPath } from "./router.tsx";

// Screens with a path parameter get it as a string prop (userId, teamId).
type Screen = ComponentType<ProjectScreenProps & { userId?: string; teamId?: string }>;

/** Project screens by path below /projects/:projectId, with the side navigation entry they belong to. */
const PROJECT_SCREENS: [pattern: string, section: string, screen: Screen][] = [
  ["", "", Overview],
  ["/users", "/users", UsersPage],
  ["/users/import", "/users", ImportUsersPage],
  ["/users/:userId", "/users", UserPage as Screen],
  ["/teams", "/teams", TeamsPage],
  ["/teams/:teamId", "/teams", TeamPage as Screen],
  ["/permissions", "/permissions", PermissionsPage],
  ["/auth", "/auth", AuthSettingsPage],
  ["/domains", "/domains", DomainsPage],
  ["/emails", "/emails", EmailsPage],
  ["/api-keys", "/api-keys", ApiKeysPage],
  ["/webhooks", "/webhooks", WebhooksPage],
  ["/oauth-apps", "/oauth-apps", OAuthClientsPage],
  ["/audit-log", "/audit-log", AuditLogPage],
  ["/trust", "/trust", TrustPage],
];

export function Route({ path }: { path: string }) {
  if (path === "/" || path === "/projects") return <ProjectsPage />;
  const project = /^\/projects\/([^/]+)(\/.*)?$/.exec(path);
  if (project)
    return <ProjectRoute projectId={decodeURIComponent(project[1] as string)} rest={project[2] ?? ""} />;
  return <NotFound />;
}

function ProjectRoute({ projectId, rest }: { projectId: string; rest: string }) {
  const project = useOwnedProject(projectId);
  for (const [pattern, section, Screen] of PROJECT_SCREENS) {
    const params = matchPath(pattern, rest);
    if (!params) continue;
    return (
      <ProjectFrame projectId={projectId} section={section}>
        {project ? (
          <Screen key={`${projectId}${rest}`} project={project} {...params} />
        ) : (
          <NotFound what="project" />
        )}
      </ProjectFrame>
    );
  }
  return <NotFound />;
}
