// The overview's users by sign-in method: how many full users have each way to sign in (a password, an e-mailed code
// or magic link, a passkey, each OAuth provider, or none), as bars against the number of users, and the anonymous
// users apart (they have no way to sign in again).
import type { ProjectMetrics } from "@gatehouse/react";
import { useLocale } from "@gatehouse/react/ui";
import { useDashboardTranslation } from "../messages.ts";
import { providerName } from "./settings/oauth-catalogue.ts";

export function SignInBreakdown({ metrics }: { metrics: ProjectMetrics }) {
  const t = useDashboardTranslation();
  const locale = useLocale();
  const by = metrics.usersBySignInMethod;
  const rows: [label: string, count: number][] = [
    [t("methods.password"), by.password],
    [t("methods.otp"), by.otp],
    [t("methods.passkey"), by.passkey],
    ...by.oauth.map((p): [string, number] => [providerName(p.providerId), p.users]),
    [t("methods.none"), by.none],
  ];
  const total = metrics.totalUsers;
  const share = (count: number) => (total === 0 ? 0 : Math.round((count / total) * 100));
  const percent = new Intl.NumberFormat(locale, { style: "percent" });
  return (
    <section className="dash-panel" aria-labelledby="sign-in-breakdown">
      <h2 id="sign-in-breakdown">{t("methods.title")}</h2>
      <p className="dash-muted">{t("methods.explain")}</p>
      <ul className="dash-plain-list dash-bars" aria-labelledby="sign-in-breakdown">
        {rows.map(([label, count]) => (
          <li key={label} className="dash-bar-row">
            <span className="dash-bar-label">{label}</span>
            <span className="dash-bar-value">
              {count.toLocaleString(locale)}{" "}
              <span className="dash-muted">({percent.format(share(count) / 100)})</span>
            </span>
            <span className="dash-bar" aria-hidden="true">
              <span className="dash-bar-fill" style={{ width: `${share(count)}%` }} />
            </span>
          </li>
        ))}
      </ul>
      <p className="dash-muted">{t("methods.anonymous", { n: metrics.totalAnonymousUsers })}</p>
    </section>
  );
}
