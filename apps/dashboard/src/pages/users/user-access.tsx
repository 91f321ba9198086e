// The operator's hold on a user: open the project's app as them (an impersonation session of an hour, handed to the
// app's impersonation page in a new tab; the server marks it and records which operator opened it), and ban or lift
// a ban (a ban signs the user out everywhere and refuses every sign-in until lifted).
import { impersonationLink, type ServerUser } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { useState } from "react";
import { useDashboardTranslation } from "../../messages.ts";
import type { ProjectScreenProps } from "../../project.tsx";
import { Link } from "../../router.tsx";
import { ConfirmButton } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { type TrustedDomain, useProjectSettings } from "../settings/project-settings.ts";

/** The user page passes what a write changed to (it reads the user again). */
type UserAccessProps = ProjectScreenProps & { user: ServerUser; onChanged: () => void };

/** Long enough to look around as the user, short enough that a forgotten tab does not keep their account open. */
const IMPERSONATION_MS = 60 * 60 * 1000;

/** The app's impersonation page: under the first trusted domain that names one origin (not a wildcard). */
export function impersonationPage(domains: TrustedDomain[]): string | null {
  const target = domains.find((d) => !d.domain.includes("*"));
  if (!target) return null;
  const handler = target.handlerPath.replace(/\/+$/, "");
  return `${target.domain.replace(/\/+$/, "")}${handler}/impersonation`;
}

export function UserAccess(props: UserAccessProps) {
  const t = useDashboardTranslation();
  return (
    <div className="dash-stack">
      <h3 className="dash-subheading">{t("access.impersonate")}</h3>
      <Impersonate {...props} />
      <h3 className="dash-subheading">{t("users.ban")}</h3>
      <Ban {...props} />
    </div>
  );
}

function Impersonate({ project, user }: UserAccessProps) {
  const t = useDashboardTranslation();
  const page = impersonationPage(useProjectSettings(project).config.domains);
  const [opened, setOpened] = useState<string | null>(null);
  const who = user.primaryEmail ?? user.displayName ?? t("user.thisUser");
  const impersonate = useFormAction(async () => {
    if (!page) return;
    const session = await user.createSession({ expiresInMillis: IMPERSONATION_MS, isImpersonation: true });
    const link = impersonationLink(page, await session.getTokens());
    setOpened(link);
    // A new tab without a handle back to the dashboard (no opener) and without the dashboard as referrer.
    window.open(link, "_blank", "noopener,noreferrer");
  });
  if (user.restrictedByAdmin) {
    return <p className="dash-muted">{t("access.bannedNoImpersonation")}</p>;
  }
  if (!page) {
    return (
      <p className="dash-muted">
        {t("access.addDomain")} <Link to={`/projects/${project.id}/domains`}>{t("nav.domains")}</Link>.
      </p>
    );
  }
  return (
    <div className="dash-stack">
      <p className="dash-muted">{t("access.opens", { origin: new URL(page).origin, who })}</p>
      <div className="dash-actions">
        <Button pending={impersonate.pending} onClick={() => void impersonate.run()}>
          {t("access.impersonate")}
        </Button>
      </div>
      {impersonate.error && <Alert>{impersonate.error}</Alert>}
      {opened && (
        <Alert kind="success">
          {t("access.opened", { who })}{" "}
          <a href={opened} target="_blank" rel="noopener noreferrer">
            {t("access.openHere")}
          </a>
          .
        </Alert>
      )}
    </div>
  );
}

function Ban({ user, onChanged }: UserAccessProps) {
  const t = useDashboardTranslation();
  const [reason, setReason] = useState("");
  const who = user.primaryEmail ?? user.displayName ?? t("user.thisUser");
  if (user.restrictedByAdmin) {
    return (
      <div className="dash-form">
        <p>
          <span className="dash-badge dash-bad">{t("access.banned")}</span>{" "}
          {user.restrictedByAdminReason
            ? `${t("access.reason", { reason: user.restrictedByAdminReason })} `
            : ""}
          {t("access.cannotSignIn")}
        </p>
        <div className="dash-actions">
          <ConfirmButton
            label={t("users.unban")}
            variant="secondary"
            question={t("access.unbanQuestion", { who })}
            onConfirm={async () => {
              await user.update({ restrictedByAdmin: false });
              onChanged();
            }}
          />
        </div>
      </div>
    );
  }
  return (
    <div className="dash-form">
      <Field
        label={t("access.reasonLabel")}
        hint={t("access.reasonHint")}
        value={reason}
        maxLength={512}
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="dash-actions">
        <ConfirmButton
          label={t("users.ban")}
          question={t("access.banQuestion", { who })}
          onConfirm={async () => {
            await user.update({ restrictedByAdmin: true, restrictedByAdminReason: reason.trim() || null });
            onChanged();
          }}
        />
      </div>
    </div>
  );
}
