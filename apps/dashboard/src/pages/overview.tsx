// A project's first page: its figures (users, teams, active sessions, anonymous users), sign-ups per day over the
// last 30 days as a bar chart (with the numbers as a table for screen readers), its id, and links to its sections.
import { Button, Root } from "@gatehouse/react/ui";
import { useId } from "react";
import { invalidate, useQuery } from "../data.ts";
import { ScreenHeader } from "../layout.tsx";
import { type ProjectScreenProps, projectKey } from "../project.tsx";
import { Link } from "../router.tsx";
import { Part } from "./bricks.tsx";

const metricsKey = (project: { id: string }) => projectKey(project, "metrics");

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
  // Only the header's button sits in the bricks' root: the root reverts every CSS property of what it holds, which
  // would undo the chart's SVG geometry and text anchors.
  return (
    <>
      <Root>
        <ScreenHeader title={project.displayName}>
          <Button onClick={() => invalidate(metricsKey(project))}>Refresh</Button>
        </ScreenHeader>
      </Root>
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
  const stats: [string, number][] = [
    ["Users", metrics.totalUsers],
    ["Teams", metrics.totalTeams],
    ["Active sessions", metrics.activeSessions],
    ["Anonymous users", metrics.totalAnonymousUsers],
  ];
  return (
    <>
      <ul className="dash-stats dash-plain-list" aria-label="Figures">
        {stats.map(([label, value]) => (
          <li key={label} className="dash-stat">
            <span className="dash-muted">{label}</span>
            <strong>{value.toLocaleString()}</strong>
          </li>
        ))}
      </ul>
      <SignUpChart days={metrics.dailySignUps} />
    </>
  );
}

/** "2026-03-07" (a UTC day) as "Mar 7". */
const dayLabel = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

const WIDTH = 600;
const HEIGHT = 160;
const AXIS = 18;

export function SignUpChart({ days }: { days: { date: string; count: number }[] }) {
  const id = useId();
  const total = days.reduce((sum, day) => sum + day.count, 0);
  const max = Math.max(1, ...days.map((day) => day.count));
  const slot = WIDTH / Math.max(days.length, 1);
  const busiest = days.reduce<{ date: string; count: number } | null>(
    (best, day) => (day.count > (best?.count ?? 0) ? day : best),
    null,
  );
  const summary =
    `${total} sign-ups in the last ${days.length} days` +
    (busiest ? `, most on ${dayLabel(busiest.date)} (${busiest.count})` : "");
  return (
    <section className="dash-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Sign-ups per day</h2>
      <p className="dash-muted">{summary}.</p>
      <svg
        className="dash-chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT + AXIS}`}
        role="img"
        aria-labelledby={`${id}-svg-title`}
        preserveAspectRatio="none"
      >
        <title id={`${id}-svg-title`}>{`Bar chart: ${summary}`}</title>
        <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="dash-chart-axis" />
        {days.map((day, index) => {
          const height = (day.count / max) * (HEIGHT - 8);
          return (
            <rect
              key={day.date}
              className="dash-chart-bar"
              x={index * slot + slot * 0.15}
              y={HEIGHT - height}
              width={slot * 0.7}
              height={height}
            >
              <title>{`${dayLabel(day.date)}: ${day.count}`}</title>
            </rect>
          );
        })}
        {days.length > 0 && (
          <>
            <text x={0} y={HEIGHT + AXIS - 4} className="dash-chart-label">
              {dayLabel(days[0]?.date ?? "")}
            </text>
            <text x={WIDTH} y={HEIGHT + AXIS - 4} textAnchor="end" className="dash-chart-label">
              {dayLabel(days[days.length - 1]?.date ?? "")}
            </text>
          </>
        )}
        <text x={2} y={12} className="dash-chart-label">
          {max}
        </text>
      </svg>
      <table className="dash-sr-only">
        <caption>Sign-ups per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Sign-ups</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{dayLabel(day.date)}</th>
              <td>{day.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
