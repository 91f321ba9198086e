// [GO] The OpenID Provider's consent handler page (`oidc-consent?interaction_id=…`): an app signing in through this
// project sends the browser here. A signed-out visitor signs in first (and comes back); then the page shows the app's
// name, logo and the scopes it asks, or continues at once when nothing needs consent (first-party, granted before).
import type { OidcConsentRequest } from "@gatehouse/sdk";
import { useEffect, useRef, useState } from "react";
import { useUser } from "../hooks.ts";
import { useTranslation } from "../i18n.ts";
import { useStackApp } from "../provider.tsx";
import { Alert, Button, Muted, PageCard, Spinner } from "../ui/primitives.tsx";
import { useAction } from "../ui/use-action.ts";
import { OIDC_SCOPE_TEXTS } from "./oidc-scopes.ts";

const SCOPE_TEXTS = OIDC_SCOPE_TEXTS;
const ERROR_TEXTS = { OIDC_INTERACTION_NOT_FOUND: "oidcConsent.invalid" } as const;

export function OidcConsent() {
  const t = useTranslation();
  const app = useStackApp();
  // Signed out: to the sign-in page, which brings the user back here afterwards.
  useUser({ or: "redirect" });
  const interactionId = new URLSearchParams(window.location.search).get("interaction_id");
  const [request, setRequest] = useState<OidcConsentRequest | null>(null);
  const [leaving, setLeaving] = useState(false);

  const answer = useAction(async (accept: boolean) => {
    const next = await app.answerOidcConsent(interactionId ?? "", accept);
    setLeaving(true);
    window.location.assign(next);
  }, ERROR_TEXTS);
  const load = useAction(async () => {
    const loaded = await app.getOidcConsent(interactionId ?? "");
    setRequest(loaded);
    // The app asked for a fresh sign-in (prompt=login, max_age): out and in again, then back to this page.
    if (loaded.sign_in_required) {
      setLeaving(true);
      await app.signOut();
      await app.redirectToSignIn();
      return;
    }
    // Nothing to ask (a first-party app, or every scope granted before): continue without a click.
    if (!loaded.consent_required) await answer.run(true);
  }, ERROR_TEXTS);
  // Loaded once: useAction's run is a new function each render.
  const started = useRef(false);
  useEffect(() => {
    if (!interactionId || started.current) return;
    started.current = true;
    void load.run();
  });

  if (!interactionId) {
    return (
      <PageCard title={t("common.unexpectedError")}>
        <Alert>{t("oidcConsent.missing")}</Alert>
      </PageCard>
    );
  }
  const error = load.error ?? answer.error;
  const name = request?.client.display_name ?? "";
  if (error || !request || leaving || !request.consent_required) {
    return (
      <PageCard title={name ? t("oidcConsent.title", { app: name }) : t("common.loading")}>
        {error ? <Alert>{error}</Alert> : <Spinner label={t("oidcConsent.continuing", { app: name })} />}
      </PageCard>
    );
  }
  const logo = request.client.logo_url;
  return (
    <PageCard
      title={t("oidcConsent.title", { app: name })}
      top={logo ? <img className="gh-oidc-logo" src={logo} alt="" width={48} height={48} /> : undefined}
    >
      <Muted>{t("oidcConsent.prompt", { app: name })}</Muted>
      <ul className="gh-text">
        {request.scopes.map((scope) => {
          const text = SCOPE_TEXTS[scope];
          return <li key={scope}>{text ? t(text) : scope}</li>;
        })}
      </ul>
      <div className="gh-row">
        <Button variant="primary" pending={answer.pending} onClick={() => answer.run(true)}>
          {t("oidcConsent.allow")}
        </Button>
        <Button pending={answer.pending} onClick={() => answer.run(false)}>
          {t("oidcConsent.deny")}
        </Button>
      </div>
    </PageCard>
  );
}
