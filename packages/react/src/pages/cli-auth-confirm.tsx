// The CLI login confirmation handler page (`cli-auth-confirm?login_code=…`, Stack's `cliAuthConfirm`): the link a
// command-line app shows from `promptCliLogin`. A signed-out visitor is asked to sign in first (and comes back here);
// a signed-in user authorizes the CLI, whose next poll then gets a session of its own.
import { useState } from "react";
import { useUser } from "../hooks.ts";
import { useTranslation } from "../i18n.ts";
import { useStackApp } from "../provider.tsx";
import { Alert, Button, Link, Muted, PageCard } from "../ui/primitives.tsx";
import { useAction } from "../ui/use-action.ts";

export function CliAuthConfirm() {
  const t = useTranslation();
  const app = useStackApp();
  const user = useUser();
  const loginCode = new URLSearchParams(window.location.search).get("login_code");
  const [done, setDone] = useState(false);
  const signIn = useAction(() => app.redirectToSignIn());
  const authorize = useAction(
    async () => {
      const result = await app.completeCliLogin(loginCode ?? "");
      if (result.status === "error") throw result.error;
      setDone(true);
    },
    // The server's refusal (an unknown, used or expired code) has one meaning for the person here.
    { CLI_AUTH_ERROR: "cliAuth.invalid" },
  );
  const cancel = useAction(() => app.redirectToHome());
  const home = <Link href={app.urls.home}>{t("common.goHome")}</Link>;

  if (!loginCode) {
    return (
      <PageCard title={t("cliAuth.title")}>
        <Alert>{t("cliAuth.missingCode")}</Alert>
        {home}
      </PageCard>
    );
  }
  if (done) {
    return (
      <PageCard title={t("cliAuth.title")}>
        <Alert kind="success">{t("cliAuth.success")}</Alert>
      </PageCard>
    );
  }
  if (!user) {
    return (
      <PageCard title={t("cliAuth.title")}>
        <Muted>{t("cliAuth.signedOut")}</Muted>
        {signIn.error && <Alert>{signIn.error}</Alert>}
        <Button variant="primary" full pending={signIn.pending} onClick={() => signIn.run()}>
          {t("cliAuth.signIn")}
        </Button>
      </PageCard>
    );
  }
  return (
    <PageCard title={t("cliAuth.title")}>
      <p className="gh-text">{t("cliAuth.prompt")}</p>
      {(authorize.error || cancel.error) && <Alert>{authorize.error || cancel.error}</Alert>}
      <div className="gh-row">
        <Button variant="primary" pending={authorize.pending} onClick={() => authorize.run()}>
          {t("cliAuth.authorize")}
        </Button>
        <Button pending={cancel.pending} onClick={() => cancel.run()}>
          {t("cliAuth.cancel")}
        </Button>
      </div>
    </PageCard>
  );
}
