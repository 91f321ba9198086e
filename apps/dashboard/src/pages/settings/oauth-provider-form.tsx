// The form that adds an OAuth provider or changes one: which provider (a standard id or a generic OpenID Connect
// one), shared development keys or the project's own client id and secret (with the callback URL to register at the
// provider), and the provider's extras.
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
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
      if (oidcName.trim() && !OIDC_NAME.test(oidcName.trim()))
        found.oidcName = "Use lowercase letters, digits and -, starting with a letter or digit.";
      else if (taken.includes(id))
        found.oidcName = "This provider is already configured: give it another name.";
    }
    if (!shared) {
      if (!clientId.trim()) found.clientId = "Enter the client id of your OAuth app.";
      if (!clientSecret.trim()) found.clientSecret = "Enter the client secret of your OAuth app.";
    }
    if (choice === OIDC && !isHttpUrl(issuer.trim()))
      found.issuerUrl = "Enter the issuer URL, like https://accounts.example.com.";
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
      aria-label={existing ? `Edit ${providerName(existing.id)}` : "Add a provider"}
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel?.();
      }}
    >
      {!existing && (
        <label className="dash-select">
          <span>Provider</span>
          <select value={choice} onChange={(event) => setChoice(event.target.value)}>
            {available.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
            <option value={OIDC}>Generic OpenID Connect</option>
          </select>
        </label>
      )}
      {!existing && choice === OIDC && (
        <Field
          label="Name (optional)"
          hint={`The provider's id becomes ${id}.`}
          value={oidcName}
          error={errors.oidcName}
          onChange={(event) => setOidcName(event.target.value)}
        />
      )}
      <fieldset className="dash-checklist">
        <legend>Credentials</legend>
        <label>
          <input
            type="radio"
            name={typeName}
            checked={shared}
            disabled={!canShare}
            onChange={() => setType("shared")}
          />
          <span>Shared (development keys of this instance)</span>
        </label>
        <label>
          <input type="radio" name={typeName} checked={!shared} onChange={() => setType("standard")} />
          <span>Standard (your own OAuth app)</span>
        </label>
        {!canShare && (
          <span className="dash-muted">This provider has no shared keys: use your own OAuth app.</span>
        )}
      </fieldset>
      {!shared && (
        <>
          <CallbackUrl providerId={id} />
          <Field
            label="Client id"
            value={clientId}
            error={errors.clientId}
            autoComplete="off"
            onChange={(event) => setClientId(event.target.value)}
          />
          <Field
            label="Client secret"
            type="password"
            value={clientSecret}
            error={errors.clientSecret}
            autoComplete="off"
            onChange={(event) => setClientSecret(event.target.value)}
          />
          {choice === "microsoft" && (
            <Field
              label="Tenant id (optional)"
              value={tenant}
              onChange={(event) => setTenant(event.target.value)}
            />
          )}
          {choice === "facebook" && (
            <Field
              label="Configuration id (optional)"
              hint="For Facebook Login for Business."
              value={configId}
              onChange={(event) => setConfigId(event.target.value)}
            />
          )}
        </>
      )}
      {choice === OIDC && (
        <Field
          label="Issuer URL"
          type="url"
          value={issuer}
          error={errors.issuerUrl}
          onChange={(event) => setIssuer(event.target.value)}
        />
      )}
      {error && <Alert>{error}</Alert>}
      <div className="dash-actions">
        <Button type="submit" variant="primary" pending={pending}>
          {existing ? "Save provider" : "Add provider"}
        </Button>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      </div>
    </form>
  );
}

/** The read-only callback URL to register at the provider, with its Copy button. */
function CallbackUrl({ providerId }: { providerId: string }) {
  const id = useId();
  const url = callbackUrl(serverUrl(), providerId);
  return (
    <div className="gh-field">
      <label className="gh-label" htmlFor={id}>
        Callback URL
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
        <CopyButton value={url} what="callback URL" />
      </div>
      <p className="gh-muted" id={`${id}-hint`}>
        Register it at {providerName(providerId)} as your OAuth app's redirect (callback) URL.
      </p>
    </div>
  );
}
