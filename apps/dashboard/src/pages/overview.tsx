// A project's first page: its figures (users, daily and monthly active users, teams, active sessions, anonymous
// users, page views and visitors from the app's event tracker), the latest sign-ups, users by sign-in method,
// sign-ups per day over the last 30 days, its id, and links to its sections. Refresh reads them all again.
import type { ProjectMetrics } from "@gatehouse/react";
import { Button } from "@gatehouse/react/ui";
import { useEffect } from "react";
import { invalidate, invalidateOlderThan, useQuery } from "../data.ts";
import { ScreenHeader } from "../layout.tsx";
import { type ProjectScreenProps, projectKey } from "../project.tsx";
import { Link } from "../router.tsx";
import { Part } from "./bricks.tsx";
import { RecentSignUps, recentSignUpsKey } from "./recent-sign-ups.tsx";
import { SignInBreakdown } from "./sign-in-breakdown.tsx";
import { SignUpChart } from "./sign-up-chart.tsx";

const metricsKey = (project: { id: string }) => projectKey(project, "metrics");
/** Figures older than this are read again when the overview is shown (the old ones stay on screen meanwhile). */
const FRESH_MS = 5000;

const LINKS = [
  { path: "/users", label: "Users", text: "Search, create and edit users" },
  { path: "/teams", label: "Teams", text: "Members, permissions and invitations" },
  { path: "/auth", label: "Authentication", text: "Sign-up, passwords, magic links, OAuth" },
  { path: "/domains", label: "Domains & production", text: "Trusted domains and production mode" },
  { path: "/emails", label: "E-mails", text: "Sender, templates and outbox" },
  { path: "/api-keys", label: "API keys", text: "Keys for your apps and servers" },
  { path: "/webhooks", label: "Webhooks", text: "Events sent to your endpoints" },
];

export function Overview({ project }: ProjectScreenProps) {
  useEffect(() => invalidateOlderThan(FRESH_MS, metricsKey(project), recentSignUpsKey(project)), [project]);
  return (
    <>
      <ScreenHeader title={project.displayName}>
        <Button onClick={() => invalidate(metricsKey(project), recentSignUpsKey(project))}>Refresh</Button>
      </ScreenHeader>
      {project.description && <p className="dash-muted">{project.description}</p>}
      <Part label="figures" reads={metricsKey(project)}>
        <Figures project={project} />
      </Part>
      <section className="dash-panel" aria-labelledby="project-details">
        <h2 id="project-details">Project</h2>
        <dl className="dash-facts">
          <dt>Project id</dt>
          <dd className="dash-mono">{project.id}</dd>
          <dt>Created</dt>
          <dd>{project.createdAt.toLocaleDateString(undefined, { dateStyle: "long" })}</dd>
        </dl>
      </section>
      <nav aria-label="Quick links">
        <ul className="dash-cards">
          {LINKS.map((link) => (
            <li key={link.path}>
              <Link to={`/projects/${project.id}${link.path}`} className="dash-card-link">
                <strong>{link.label}</strong>
                <span className="dash-muted">{link.text}</span>
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
  const stats: [label: string, value: number, note: string][] = [
    ["Users", metrics.totalUsers, "not counting anonymous ones"],
    ["Daily active users", metrics.dailyActiveUsers, "active in the last 24 hours"],
    ["Monthly active users", metrics.monthlyActiveUsers, "active in the last 30 days"],
    ["Teams", metrics.totalTeams, ""],
    ["Active sessions", metrics.activeSessions, "signed in and not expired"],
    ["Anonymous users", metrics.totalAnonymousUsers, ""],
    // Reported by Stack's browser event tracker from the app's pages (anonymous visitors included).
    ["Page views", sum(metrics.analytics.dailyPageViews), "in your app over the last 30 days"],
    ["Daily visitors", metrics.analytics.dailyActiveUsers, "seen in your app in the last 24 hours"],
    ["Monthly visitors", metrics.analytics.monthlyActiveUsers, "seen in your app in the last 30 days"],
  ];
  return (
    <ul className="dash-stats dash-plain-list" aria-label="Figures">
      {stats.map(([label, value, note]) => (
        <li key={label} className="dash-stat">
          <span className="dash-muted">{label}</span>
          <strong>{value.toLocaleString()}</strong>
          {note && <span className="dash-stat-note">{note}</span>}
        </li>
      ))}
    </ul>
  );
}
