// The team-invitation handler page: the link of an invitation e-mail (`?code=…`). A signed-out visitor is asked to
// sign in first (and comes back here); a signed-in user sees the team's name and joins it or ignores the invitation.
import { useEffect, useState } from "react";
import { useUser } from "../hooks.ts";
import { useTranslation } from "../i18n.ts";
import { useStackApp } from "../provider.tsx";
import { Alert, Button, Link, Muted, PageCard, Spinner } from "../ui/primitives.tsx";
import { type ErrorTexts, useAction } from "../ui/use-action.ts";

/** What each verification-code failure means for an invitation link. */
const CODE_TEXTS: ErrorTexts = {
  VERIFICATION_CODE_NOT_FOUND: "teamInvitation.invalid",
  VERIFICATION_CODE_ALREADY_USED: "teamInvitation.used",
  VERIFICATION_CODE_EXPIRED: "teamInvitation.expired",
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: "teamInvitation.tooManyAttempts",
};

export function TeamInvitation() {
  const t = useTranslation();
  const app = useStackApp();
  const user = useUser();
  const code = new URLSearchParams(window.location.search).get("code");
  const signIn = useAction(() => app.redirectToSignIn());

  if (!code) {
    return (
      <PageCard title={t("teamInvitation.title")}>
        <Alert>{t("teamInvitation.missingCode")}</Alert>
        <Link href={app.urls.home}>{t("common.goHome")}</Link>
      </PageCard>
    );
  }
  if (!user) {
    return (
      <PageCard title={t("teamInvitation.title")}>
        <Muted>{t("teamInvitation.signedOut")}</Muted>
        {signIn.error && <Alert>{signIn.error}</Alert>}
        <Button variant="primary" full pending={signIn.pending} onClick={() => signIn.run()}>
          {t("teamInvitation.signIn")}
        </Button>
      </PageCard>
    );
  }
  return <Invitation code={code} />;
}

/** The signed-in part: checks the code, then offers to join the team it names. */
function Invitation({ code }: { code: string }) {
  const t = useTranslation();
  const app = useStackApp();
  const [team, setTeam] = useState<string | null>(null);
  const [joined, setJoined] = useState(false);

  const check = useAction(async () => {
    const valid = await app.verifyTeamInvitationCode(code);
    if (valid.status === "error") throw valid.error;
    const details = await app.getTeamInvitationDetails(code);
    if (details.status === "error") throw details.error;
    setTeam(details.data.teamDisplayName);
  }, CODE_TEXTS);
  const join = useAction(async () => {
    const result = await app.acceptTeamInvitation(code);
    if (result.status === "error") throw result.error;
    setJoined(true);
  }, CODE_TEXTS);
  const ignore = useAction(() => app.redirectToHome());

  const { run: runCheck } = check;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the code is checked once per code, not per render.
  useEffect(() => {
    void runCheck();
  }, [code]);

  const home = <Link href={app.urls.home}>{t("common.goHome")}</Link>;
  if (check.error) {
    return (
      <PageCard title={t("teamInvitation.title")}>
        <Alert>{check.error}</Alert>
        {home}
      </PageCard>
    );
  }
  if (team === null) {
    return (
      <PageCard title={t("teamInvitation.title")}>
        <Spinner label={t("common.loading")} />
      </PageCard>
    );
  }
  if (joined) {
    return (
      <PageCard title={t("teamInvitation.title")}>
        <Alert kind="success">{t("teamInvitation.joined", { team })}</Alert>
        {home}
      </PageCard>
    );
  }
  return (
    <PageCard title={t("teamInvitation.title")}>
      <p className="gh-text">{t("teamInvitation.invited", { team })}</p>
      {(join.error || ignore.error) && <Alert>{join.error || ignore.error}</Alert>}
      <div className="gh-row">
        <Button variant="primary" pending={join.pending} onClick={() => join.run()}>
          {t("teamInvitation.join", { team })}
        </Button>
        <Button pending={ignore.pending} onClick={() => ignore.run()}>
          {t("teamInvitation.ignore")}
        </Button>
      </div>
    </PageCard>
  );
}
