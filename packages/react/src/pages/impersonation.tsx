// The impersonation page ([GO] `{handler}/impersonation`): the dashboard's Impersonate opens it with an impersonation
// session's tokens in the fragment. The page takes them out of the address bar at once, signs in with the session
// only when the server lists it as an impersonation (so a crafted link cannot sign anyone into another account), and
// goes on to afterSignIn, where the impersonation banner shows.
import { readImpersonationLink } from "@gatehouse/sdk";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../i18n.ts";
import { useStackApp } from "../provider.tsx";
import { Alert, PageCard, Spinner } from "../ui/primitives.tsx";
import { useAction } from "../ui/use-action.ts";

export function ImpersonationPage() {
  const t = useTranslation();
  const app = useStackApp();
  const [tokens] = useState(() => readImpersonationLink(window.location.href));
  const [refused, setRefused] = useState(tokens === null);
  const started = useRef(false);
  const { run, error } = useAction(async () => {
    if (tokens && !(await app.signInWithImpersonation(tokens))) setRefused(true);
  });

  useEffect(() => {
    // Once (StrictMode runs effects twice): the address bar and this history entry lose the tokens, then sign in.
    if (started.current) return;
    started.current = true;
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
    if (tokens) void run();
  }, [run, tokens]);

  const failure = refused ? t("impersonation.invalid") : error;
  return (
    <PageCard title={t("impersonation.title")}>
      {failure ? <Alert>{failure}</Alert> : <Spinner label={t("impersonation.progress")} />}
    </PageCard>
  );
}
