// A project's first page: its figures (users, daily and monthly active users, teams, active sessions, anonymous
// users, page views and visitors from the app's event tracker), the latest sign-ups, users by sign-in method,
// sign-ups per day over the last 30 days, its id, and links to its sections. Refresh reads them all again.
import type { ProjectMetrics } from "@gatehouse/react";
import { Button, useLocale } from "@gatehouse/react/ui";
import { useEffect } from "react";
import { invalidate, invalidateOlderThan, useQuery } from "../data.ts";
import { ScreenHeader } from "../layout.tsx";
import { type DashboardKey, useDashboardTranslation } from "../messages.ts";
import { type ProjectScreenProps, projectKey } from "../project.tsx";
import { Link } from "../router.tsx";
import { Part } from "./bricks.tsx";
import { RecentSignUps, recentSignUpsKey } from "./recent-sign-ups.tsx";
import { SignInBreakdown } from "./sign-in-breakdown.tsx";
import { SignUpChart } from "./sign-up-chart.tsx";

const metricsKey = (project: { id: string }) => projectKey(project, "metrics");
/** Figures older than this are read again when the overview is shown (the old ones stay on screen meanwhile). */
const FRESH_MS = 5000;

const LINKS: { path: string; label: DashboardKey; text: DashboardKey }[] = [
  { path: "/users", label: "nav.users", text: "overview.link.users" },
  { path: "/teams", label: "nav.teams", text: "overview.link.teams" },
  { path: "/auth", label: "nav.auth", text: "overview.link.auth" },
  { path: "/domains", label: "nav.domains", text: "overview.link.domains" },
  { path: "/emails", label: "nav.emails", text: "overview.link.emails" },
  { path: "/api-keys", label: "nav.apiKeys", text: "overview.link.apiKeys" },
  { path: "/webhooks", label: "nav.webhooks", text: "overview.link.webhooks" },
];

export function Overview({ project }: ProjectScreenProps) {
  useEffect(() => invalidateOlderThan(FRESH_MS, metricsKey(project), recentSignUpsKey(project)), [project]);
  const t = useDashboardTranslation();
  const locale = useLocale();
  return (
    <>
      <ScreenHeader title={project.displayName}>
        <Button onClick={() => invalidate(metricsKey(project), recentSignUpsKey(project))}>
          {t("overview.refresh")}
        </Button>
      </ScreenHeader>
      {project.description && <p className="dash-muted">{project.description}</p>}
      <Part label="figures" reads={metricsKey(project)}>
        <Figures project={project} />
      </Part>
      <section className="dash-panel" aria-labelledby="project-details">
        <h2 id="project-details">{t("overview.project")}</h2>
        <dl className="dash-facts">
          <dt>{t("overview.projectId")}</dt>
          <dd className="dash-mono">{project.id}</dd>
          <dt>{t("overview.created")}</dt>
          <dd>{project.createdAt.toLocaleDateString(locale, { dateStyle: "long" })}</dd>
        </dl>
      </section>
      <nav aria-label={t("overview.quickLinks")}>
        <ul className="dash-cards">
          {LINKS.map((link) => (
            <li key={link.path}>
              <Link to={`/projects/${project.id}${link.path}`} className="dash-card-link">
                <strong>{t(link.label)}</strong>
                <span className="dash-muted">{t(link.text)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}

function Figures({ project }: ProjectScreenProps) {
  const metrics = useQuery(metricsKey(project), () => project.app.getMetrics());
  return (
    <>
      <FigureList metrics={metrics} />
      <div className="dash-overview-grid">
        <Part label="latest sign-ups" reads={recentSignUpsKey(project)}>
          <RecentSignUps project={project} />
        </Part>
        <SignInBreakdown metrics={metrics} />
      </div>
      <SignUpChart days={metrics.dailySignUps} />
    </>
  );
}

const sum = (days: { count: number }[]) => days.reduce((total, day) => total + day.count, 0);

function FigureList({ metrics }: { metrics: ProjectMetrics }) {
  const t = useDashboardTranslation();
  const locale = useLocale();
  const stats: [label: DashboardKey, value: number, note: DashboardKey | null][] = [
    ["nav.users", metrics.totalUsers, "overview.note.users"],
    ["overview.dau", metrics.dailyActiveUsers, "overview.note.dau"],
    ["overview.mau", metrics.monthlyActiveUsers, "overview.note.mau"],
    ["nav.teams", metrics.totalTeams, null],
    ["overview.sessions", metrics.activeSessions, "overview.note.sessions"],
    ["overview.anonymous", metrics.totalAnonymousUsers, null],
    // Reported by Stack's browser event tracker from the app's pages (anonymous visitors included).
    ["overview.pageViews", sum(metrics.analytics.dailyPageViews), "overview.note.pageViews"],
    ["overview.dailyVisitors", metrics.analytics.dailyActiveUsers, "overview.note.dailyVisitors"],
    ["overview.monthlyVisitors", metrics.analytics.monthlyActiveUsers, "overview.note.monthlyVisitors"],
  ];
  return (
    <ul className="dash-stats dash-plain-list" aria-label={t("overview.figures")}>
      {stats.map(([label, value, note]) => (
        <li key={label} className="dash-stat">
          <span className="dash-muted">{t(label)}</span>
          <strong>{value.toLocaleString(locale)}</strong>
          {note && <span className="dash-stat-note">{t(note)}</span>}
        </li>
      ))}
    </ul>
  );
}
