// The frame of every project screen: a top bar (product, project switcher, account menu) and the project's
// sections in a side navigation. The current section is marked for screen readers (aria-current).
import { UserButton } from "@gatehouse/react";
import type { ReactNode } from "react";
import { useOwnedProjects } from "./project.tsx";
import { Link, navigate } from "./router.tsx";

export const SECTIONS = [
  { path: "", label: "Overview" },
  { path: "/users", label: "Users" },
  { path: "/teams", label: "Teams" },
  { path: "/permissions", label: "Team permissions" },
  { path: "/auth", label: "Authentication" },
  { path: "/domains", label: "Domains & production" },
  { path: "/emails", label: "E-mails" },
  { path: "/api-keys", label: "API keys" },
  { path: "/webhooks", label: "Webhooks" },
] as const;

export function TopBar({ projectId }: { projectId?: string }) {
  return (
    <header className="dash-topbar">
      <Link to="/projects" className="dash-brand">
        Gatehouse
      </Link>
      {projectId && <ProjectSwitcher projectId={projectId} />}
      <span className="dash-spacer" />
      <UserButton />
    </header>
  );
}

function ProjectSwitcher({ projectId }: { projectId: string }) {
  const projects = useOwnedProjects();
  return (
    <label className="dash-switcher">
      <span className="dash-sr-only">Project</span>
      <select
        value={projectId}
        onChange={(event) =>
          navigate(event.target.value === "" ? "/projects" : `/projects/${event.target.value}`)
        }
      >
        {projects.map((project) => (
          <option key={project.id} value={project.id}>
            {project.displayName}
          </option>
        ))}
        <option value="">All projects…</option>
      </select>
    </label>
  );
}

export function ProjectFrame({
  projectId,
  section,
  children,
}: {
  projectId: string;
  section: string;
  children: ReactNode;
}) {
  return (
    <div className="dash-app">
      <TopBar projectId={projectId} />
      <div className="dash-body">
        <nav className="dash-nav" aria-label="Project sections">
          {SECTIONS.map((item) => (
            <Link key={item.path} to={`/projects/${projectId}${item.path}`} current={item.path === section}>
              {item.label}
            </Link>
          ))}
        </nav>
        <main className="dash-main">{children}</main>
      </div>
    </div>
  );
}

/** A screen's heading row: its title, and actions on the right. */
export function ScreenHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="dash-screen-header">
      <h1>{title}</h1>
      {children && <div className="dash-actions">{children}</div>}
    </div>
  );
}
