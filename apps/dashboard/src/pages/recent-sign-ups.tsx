// The overview's latest sign-ups: the newest users (anonymous ones aside) with their avatar, name, e-mail and how
// long ago they signed up, each a link to the user's page.
import { Avatar, useLocale } from "@gatehouse/react/ui";
import { useQuery } from "../data.ts";
import { useDashboardTranslation } from "../messages.ts";
import { type ProjectScreenProps, projectKey } from "../project.tsx";
import { Link } from "../router.tsx";

const SHOWN = 8;

/** Under the project's user reads, so a write to a user reads it again too. */
export const recentSignUpsKey = (project: { id: string }) => projectKey(project, "users", "recent");

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3600],
  ["minute", 60],
];
/** "3 minutes ago", "yesterday", "just now": the largest whole unit of the time since `date`, in `locale`. */
export function timeAgo(date: Date, now = new Date(), locale = "en", justNow = "just now"): string {
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(-Math.floor(seconds / size), unit);
  }
  return justNow;
}

export function RecentSignUps({ project }: ProjectScreenProps) {
  const users = useQuery(recentSignUpsKey(project), () =>
    project.app.listUsers({ orderBy: "signedUpAt", desc: true, limit: SHOWN }),
  );
  const t = useDashboardTranslation();
  const locale = useLocale();
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  return (
    <section className="dash-panel" aria-labelledby="recent-sign-ups">
      <h2 id="recent-sign-ups">{t("recent.title")}</h2>
      {users.length === 0 ? (
        <p className="dash-muted">{t("recent.none")}</p>
      ) : (
        <ul className="dash-plain-list dash-people" aria-labelledby="recent-sign-ups">
          {users.map((user) => {
            const name = user.displayName || user.primaryEmail || user.id;
            return (
              <li key={user.id} className="dash-person">
                <Avatar name={name} imageUrl={user.profileImageUrl} />
                <span className="dash-person-identity">
                  <Link to={`/projects/${project.id}/users/${user.id}`}>{name}</Link>
                  {user.displayName && user.primaryEmail && (
                    <span className="dash-muted">{user.primaryEmail}</span>
                  )}
                </span>
                <time
                  className="dash-muted dash-person-time"
                  dateTime={user.signedUpAt.toISOString()}
                  title={dateTime.format(user.signedUpAt)}
                >
                  {timeAgo(user.signedUpAt, new Date(), locale, t("recent.justNow"))}
                </time>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
