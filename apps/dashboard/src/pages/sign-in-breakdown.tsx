// The overview's users by sign-in method: how many full users have each way to sign in (a password, an e-mailed code
// or magic link, a passkey, each OAuth provider, or none), as bars against the number of users, and the anonymous
// users apart (they have no way to sign in again).
import type { ProjectMetrics } from "@gatehouse/react";
import { providerName } from "./settings/oauth-catalogue.ts";

export function SignInBreakdown({ metrics }: { metrics: ProjectMetrics }) {
  const by = metrics.usersBySignInMethod;
  const rows: [label: string, count: number][] = [
    ["Password", by.password],
    ["E-mail code or magic link", by.otp],
    ["Passkey", by.passkey],
    ...by.oauth.map((p): [string, number] => [providerName(p.providerId), p.users]),
    ["No sign-in method", by.none],
  ];
  const total = metrics.totalUsers;
  const share = (count: number) => (total === 0 ? 0 : Math.round((count / total) * 100));
  return (
    <section className="dash-panel" aria-labelledby="sign-in-breakdown">
      <h2 id="sign-in-breakdown">Sign-in methods</h2>
      <p className="dash-muted">Users who have each way to sign in; a user with several counts under each.</p>
      <ul className="dash-plain-list dash-bars" aria-labelledby="sign-in-breakdown">
        {rows.map(([label, count]) => (
          <li key={label} className="dash-bar-row">
            <span className="dash-bar-label">{label}</span>
            <span className="dash-bar-value">
              {count.toLocaleString()} <span className="dash-muted">({share(count)}%)</span>
            </span>
            <span className="dash-bar" aria-hidden="true">
              <span className="dash-bar-fill" style={{ width: `${share(count)}%` }} />
            </span>
          </li>
        ))}
      </ul>
      <p className="dash-muted">
        Anonymous users: {metrics.totalAnonymousUsers.toLocaleString()} (not counted above).
      </p>
    </section>
  );
}
