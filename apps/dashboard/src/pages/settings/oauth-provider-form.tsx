// The form that adds an OAuth provider or changes one: which provider (a standard id or a generic OpenID Connect
// one), shared development keys or the project's own client id and secret (with the callback URL to register at the
// provider), and the provider's extras.
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useDashboardTranslation } from "../../messages.ts";
import { serverUrl } from "../../stack.ts";
import { CopyButton } from "../copy.tsx";
import {
  callbackUrl,
  isHttpUrl,
  isOidc,
  OIDC,
  OIDC_NAME,
  providerName,
  SHARED_PROVIDER_IDS,
  STANDARD_PROVIDERS,
} from "./oauth-catalogue.ts";
import type { OAuthProviderConfig } from "./project-settings.ts";

type Errors = Partial<Record<"oidcName" | "clientId" | "clientSecret" | "issuerUrl", string>>;

export function OAuthProviderForm({
  existing,
  taken,
  pending,
  error,
  onSave,
  onCancel,
}: {
  /** The provider being changed; none to add one. */
  existing?: OAuthProviderConfig;
  /** Ids already configured (for adding). */
  taken: string[];
  pending: boolean;
  error: string | null;
  onSave: (provider: OAuthProviderConfig) => void;
  onCancel?: () => void;
}) {
  const available = STANDARD_PROVIDERS.filter((p) => !taken.includes(p.id));
  const [choice, setChoice] = useState(
    existing ? (isOidc(existing.id) ? OIDC : existing.id) : (available[0]?.id ?? OIDC),
  );
  const [oidcName, setOidcName] = useState("");
  const canShare = SHARED_PROVIDER_IDS.includes(choice);
  const [type, setType] = useState<"shared" | "standard">(
    existing?.type ?? (canShare ? "shared" : "standard"),
  );
  const [clientId, setClientId] = useState(existing?.clientId ?? "");
  const [clientSecret, setClientSecret] = useState(existing?.clientSecret ?? "");
  const [tenant, setTenant] = useState(existing?.microsoftTenantId ?? "");
  const [configId, setConfigId] = useState(existing?.facebookConfigId ?? "");
  const [issuer, setIssuer] = useState(existing?.issuerUrl ?? "");
  const [errors, setErrors] = useState<Errors>({});
  const typeName = useId();
  const t = useDashboardTranslation();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // The form opens on a click: its first control takes the focus.
    form.current?.querySelector<HTMLElement>("select, input")?.focus();
  }, []);
  useEffect(() => {
    // After a refused submit (a new errors object), the first invalid field takes the focus.
    if (Object.keys(errors).length > 0)
      form.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [errors]);

  const shared = type === "shared" && canShare;
  const id =
    existing?.id ?? (choice === OIDC ? (oidcName.trim() ? `oidc-${oidcName.trim()}` : OIDC) : choice);

  const validate = (): Errors => {
    const found: Errors = {};
    if (!existing && choice === OIDC) {
      if (oidcName.trim() && !OIDC_NAME.test(oidcName.trim())) found.oidcName = t("oauth.err.oidcName");
      else if (taken.includes(id)) found.oidcName = t("oauth.err.taken");
    }
    if (!shared) {
      if (!clientId.trim()) found.clientId = t("oauth.err.clientId");
      if (!clientSecret.trim()) found.clientSecret = t("oauth.err.clientSecret");
    }
    if (choice === OIDC && !isHttpUrl(issuer.trim())) found.issuerUrl = t("oauth.err.issuer");
    return found;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    onSave({
      id,
      type: shared ? "shared" : "standard",
      enabled: existing?.enabled ?? true,
      clientId: clientId.trim(),
      clientSecret: clientSecret.trim(),
      microsoftTenantId: choice === "microsoft" ? tenant.trim() || undefined : undefined,
      facebookConfigId: choice === "facebook" ? configId.trim() || undefined : undefined,
      issuerUrl: choice === OIDC ? issuer.trim() : undefined,
    });
  };

  return (
    <form
      ref={form}
      className="dash-form"
      noValidate
      onSubmit={onSubmit}
      aria-label={existing ? t("oauth.editName", { name: providerName(existing.id) }) : t("oauth.addTitle")}
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel?.();
      }}
    >
      {!existing && (
        <label className="dash-select">
          <span>{t("oauth.provider")}</span>
          <select value={choice} onChange={(event) => setChoice(event.target.value)}>
            {available.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
            <option value={OIDC}>{t("oauth.generic")}</option>
          </select>
        </label>
      )}
      {!existing && choice === OIDC && (
        <Field
          label={t("oauth.oidcName")}
          hint={t("oauth.oidcHint", { id })}
          value={oidcName}
          error={errors.oidcName}
          onChange={(event) => setOidcName(event.target.value)}
        />
      )}
      <fieldset className="dash-checklist">
        <legend>{t("oauth.credentials")}</legend>
        <label>
          <input
            type="radio"
            name={typeName}
            checked={shared}
            disabled={!canShare}
            onChange={() => setType("shared")}
          />
          <span>{t("oauth.shared")}</span>
        </label>
        <label>
          <input type="radio" name={typeName} checked={!shared} onChange={() => setType("standard")} />
          <span>{t("oauth.standard")}</span>
        </label>
        {!canShare && <span className="dash-muted">{t("oauth.noShared")}</span>}
      </fieldset>
      {!shared && (
        <>
          <CallbackUrl providerId={id} />
          <Field
            label={t("oauth.clientId")}
            value={clientId}
            error={errors.clientId}
            autoComplete="off"
            onChange={(event) => setClientId(event.target.value)}
          />
          <Field
            label={t("oauth.clientSecret")}
            type="password"
            value={clientSecret}
            error={errors.clientSecret}
            autoComplete="off"
            onChange={(event) => setClientSecret(event.target.value)}
          />
          {choice === "microsoft" && (
            <Field
              label={t("oauth.tenant")}
              value={tenant}
              onChange={(event) => setTenant(event.target.value)}
            />
          )}
          {choice === "facebook" && (
            <Field
              label={t("oauth.configId")}
              hint={t("oauth.configHint")}
              value={configId}
              onChange={(event) => setConfigId(event.target.value)}
            />
          )}
        </>
      )}
      {choice === OIDC && (
        <Field
          label={t("oauth.issuer")}
          type="url"
          value={issuer}
          error={errors.issuerUrl}
          onChange={(event) => setIssuer(event.target.value)}
        />
      )}
      {error && <Alert>{error}</Alert>}
      <div className="dash-actions">
        <Button type="submit" variant="primary" pending={pending}>
          {existing ? t("oauth.save") : t("oauth.add")}
        </Button>
        {onCancel && <Button onClick={onCancel}>{t("common.cancel")}</Button>}
      </div>
    </form>
  );
}

/** The read-only callback URL to register at the provider, with its Copy button. */
function CallbackUrl({ providerId }: { providerId: string }) {
  const id = useId();
  const url = callbackUrl(serverUrl(), providerId);
  const t = useDashboardTranslation();
  return (
    <div className="gh-field">
      <label className="gh-label" htmlFor={id}>
        {t("oauth.callback")}
      </label>
      <div className="dash-copy-row">
        <input
          id={id}
          className="gh-input"
          readOnly
          value={url}
          aria-describedby={`${id}-hint`}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton value={url} what={t("oauth.callbackWhat")} />
      </div>
      <p className="gh-muted" id={`${id}-hint`}>
        {t("oauth.callbackHint", { name: providerName(providerId) })}
      </p>
    </div>
  );
}
