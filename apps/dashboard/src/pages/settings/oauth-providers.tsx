// The project's OAuth providers: the configured ones (enable or disable, change, remove after confirming) and the
// form that adds one. The whole list is written back on every change (WIRE.md §4.13).
import type { OwnedProject } from "@gatehouse/react";
import { Alert, Button } from "@gatehouse/react/ui";
import { useState } from "react";
import { useDashboardTranslation } from "../../messages.ts";
import { ConfirmButton, FormRow, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { providerName, providerToWrite } from "./oauth-catalogue.ts";
import { OAuthProviderForm } from "./oauth-provider-form.tsx";
import { type OAuthProviderConfig, saveProject, useProjectSettings } from "./project-settings.ts";

export function OAuthProviders({ project }: { project: OwnedProject }) {
  const providers = useProjectSettings(project).config.oauthProviders;
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const t = useDashboardTranslation();
  const ERROR_TEXTS = {
    INVALID_SHARED_OAUTH_PROVIDER_ID: () => t("oauth.noShared"),
    INVALID_STANDARD_OAUTH_PROVIDER_ID: () => t("oauth.unsupported"),
  };
  const named = (provider: OAuthProviderConfig) => ({ name: providerName(provider.id) });

  const write = (list: OAuthProviderConfig[]) =>
    saveProject(project, { config: { oauthProviders: list.map(providerToWrite) } });
  const replace = (provider: OAuthProviderConfig) =>
    providers.map((p) => (p.id === provider.id ? provider : p));

  const add = useFormAction(async (provider: OAuthProviderConfig) => {
    await write([...providers, provider]);
    setAdding(false);
    setStatus(t("oauth.added", named(provider)));
  }, ERROR_TEXTS);
  const change = useFormAction(async (provider: OAuthProviderConfig) => {
    await write(replace(provider));
    setEditing(null);
    setStatus(t("oauth.saved", named(provider)));
  }, ERROR_TEXTS);
  const toggle = useFormAction(async (provider: OAuthProviderConfig) => {
    await write(replace({ ...provider, enabled: !provider.enabled }));
    setStatus(t(provider.enabled ? "oauth.disabledNow" : "oauth.enabledNow", named(provider)));
  }, ERROR_TEXTS);

  return (
    <>
      {providers.length === 0 ? (
        <p className="dash-muted">{t("oauth.none")}</p>
      ) : (
        <TableScroll label={t("oauth.table")}>
          <table className="dash-table" aria-label={t("auth.providers")}>
            <TableHead columns={[t("oauth.provider"), t("oauth.credentials"), t("oauth.status")]} actions />
            <tbody>
              {providers.map((provider) =>
                editing === provider.id ? (
                  <FormRow key={provider.id} span={4}>
                    <OAuthProviderForm
                      existing={provider}
                      taken={providers.map((p) => p.id)}
                      pending={change.pending}
                      error={change.error}
                      onSave={(p) => void change.run(p)}
                      onCancel={() => setEditing(null)}
                    />
                  </FormRow>
                ) : (
                  <tr key={provider.id}>
                    <td>
                      {providerName(provider.id)} <span className="dash-muted dash-mono">{provider.id}</span>
                    </td>
                    <td>
                      {provider.type === "shared" ? (
                        t("oauth.sharedKeys")
                      ) : (
                        <>
                          {t("oauth.ownApp")} <span className="dash-mono">{provider.clientId}</span>
                        </>
                      )}
                    </td>
                    <td>
                      <span className={`dash-badge ${provider.enabled ? "dash-ok" : ""}`}>
                        {provider.enabled ? t("oauth.enabled") : t("oauth.disabled")}
                      </span>
                    </td>
                    <td>
                      <span className="dash-actions">
                        <Button
                          aria-label={t(
                            provider.enabled ? "oauth.disableName" : "oauth.enableName",
                            named(provider),
                          )}
                          pending={toggle.pending}
                          onClick={() => void toggle.run(provider)}
                        >
                          {provider.enabled ? t("oauth.disable") : t("oauth.enable")}
                        </Button>
                        <Button
                          aria-label={t("oauth.editName", named(provider))}
                          onClick={() => {
                            change.setError(null);
                            setEditing(provider.id);
                          }}
                        >
                          {t("domains.edit")}
                        </Button>
                        <ConfirmButton
                          label={t("domains.remove")}
                          name={t("oauth.removeName", named(provider))}
                          confirmLabel={t("domains.removeYes")}
                          question={t("oauth.removeQuestion", named(provider))}
                          onConfirm={async () => {
                            await write(providers.filter((p) => p.id !== provider.id));
                            setStatus(t("oauth.removed", named(provider)));
                          }}
                        />
                      </span>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
      {toggle.error && <Alert>{toggle.error}</Alert>}
      {status && <Alert kind="success">{status}</Alert>}
      {adding ? (
        <OAuthProviderForm
          taken={providers.map((p) => p.id)}
          pending={add.pending}
          error={add.error}
          onSave={(p) => void add.run(p)}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <div>
          <Button
            variant="primary"
            onClick={() => {
              add.setError(null);
              setStatus(null);
              setAdding(true);
            }}
          >
            {t("oauth.add")}
          </Button>
        </div>
      )}
    </>
  );
}
