// The frame of every project screen: a top bar (product, project switcher, account menu) and the project's
// sections in a side navigation, which a narrow screen folds behind a "Sections" button. The current section is
// marked for screen readers (aria-current).
import { UserButton } from "@gatehouse/react";
import { Button, useDirection, useLocale } from "@gatehouse/react/ui";
import { type ReactNode, useEffect, useId, useState } from "react";
import { type DashboardKey, useDashboardTranslation } from "./messages.ts";
import { useOwnedProjects } from "./project.tsx";
import { Link, navigate } from "./router.tsx";

export const SECTIONS: readonly { path: string; label: DashboardKey }[] = [
  { path: "", label: "nav.overview" },
  { path: "/users", label: "nav.users" },
  { path: "/teams", label: "nav.teams" },
  { path: "/permissions", label: "nav.permissions" },
  { path: "/auth", label: "nav.auth" },
  { path: "/domains", label: "nav.domains" },
  { path: "/emails", label: "nav.emails" },
  { path: "/api-keys", label: "nav.apiKeys" },
  { path: "/webhooks", label: "nav.webhooks" },
  { path: "/oauth-apps", label: "nav.oauthApps" },
  { path: "/audit-log", label: "nav.auditLog" },
  { path: "/trust", label: "nav.trust" },
];

/** The dashboard owns its document: its language and direction follow the locale (right-to-left ones mirror). */
function useDocumentLanguage() {
  const lang = useLocale();
  const dir = useDirection();
  useEffect(() => {
    document.documentElement.lang = lang;
    document.documentElement.dir = dir;
  }, [lang, dir]);
}

/** The side navigation's fold on a narrow screen: whether it is open, and the id of what it opens. */
type Fold = { open: boolean; controls: string; toggle: () => void };

export function TopBar({ projectId, fold }: { projectId?: string; fold?: Fold }) {
  const t = useDashboardTranslation();
  useDocumentLanguage();
  return (
    <header className="dash-topbar">
      {fold && (
        // Shown only on a narrow screen (dashboard-narrow.css), where the side navigation is folded away.
        <span className="dash-fold">
          <Button aria-expanded={fold.open} aria-controls={fold.controls} onClick={fold.toggle}>
            <span aria-hidden="true">☰</span> {t("frame.sections")}
          </Button>
        </span>
      )}
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
  const t = useDashboardTranslation();
  return (
    <label className="dash-switcher">
      <span className="dash-sr-only">{t("frame.project")}</span>
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
        <option value="">{t("frame.allProjects")}</option>
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
  // Every path renders a new frame (app.tsx keys the screen by path), so following a link folds the navigation.
  const [open, setOpen] = useState(false);
  const navId = useId();
  const t = useDashboardTranslation();
  return (
    <div className="dash-app">
      <TopBar projectId={projectId} fold={{ open, controls: navId, toggle: () => setOpen(!open) }} />
      <div className="dash-body">
        <nav
          id={navId}
          className="dash-nav"
          data-open={open || undefined}
          aria-label={t("frame.projectSections")}
        >
          {SECTIONS.map((item) => (
            <Link key={item.path} to={`/projects/${projectId}${item.path}`} current={item.path === section}>
              {t(item.label)}
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
