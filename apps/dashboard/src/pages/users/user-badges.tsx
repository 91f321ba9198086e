// A user's state as small badges, shared by the users table and the user's page: whether an address is verified,
// how the user can sign in, and whether an administrator has banned them.
import type { ServerUser } from "@gatehouse/react";
import { useDashboardTranslation } from "../../messages.ts";

export function VerifiedBadge({ verified }: { verified: boolean }) {
  const t = useDashboardTranslation();
  return verified ? (
    <span className="dash-badge dash-ok">{t("badge.verified")}</span>
  ) : (
    <span className="dash-badge dash-bad">{t("badge.unverified")}</span>
  );
}

/** A ban is `restricted_by_admin` on the wire: the user cannot sign in until it is lifted. */
export function BanBadge({ banned }: { banned: boolean }) {
  const t = useDashboardTranslation();
  return banned ? (
    <span className="dash-badge dash-bad">{t("badge.banned")}</span>
  ) : (
    <span className="dash-badge dash-ok">{t("badge.active")}</span>
  );
}

/** How a user can sign in, as badges. */
export function AuthMethods({ user }: { user: ServerUser }) {
  const t = useDashboardTranslation();
  const methods = [
    user.hasPassword && t("method.password"),
    user.otpAuthEnabled && t("method.otp"),
    user.passkeyAuthEnabled && t("method.passkey"),
    ...user.oauthProviders.map((provider) => provider.id),
    user.isMultiFactorRequired && "TOTP",
  ].filter((method): method is string => Boolean(method));
  if (methods.length === 0) return <span className="dash-muted">{t("user.none")}</span>;
  return (
    <span className="dash-badges">
      {methods.map((method) => (
        <span key={method} className="dash-badge">
          {method}
        </span>
      ))}
    </span>
  );
}
