// The project's OAuth providers: the configured ones (enable or disable, change, remove after confirming) and the
// form that adds one. The whole list is written back on every change (WIRE.md §4.13).
import type { OwnedProject } from "@gatehouse/react";
import { Alert, Button } from "@gatehouse/react/ui";
import { useState } from "react";
import { ConfirmButton, FormRow, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { providerName, providerToWrite } from "./oauth-catalogue.ts";
import { OAuthProviderForm } from "./oauth-provider-form.tsx";
import { type OAuthProviderConfig, saveProject, useProjectSettings } from "./project-settings.ts";

const ERROR_TEXTS = {
  INVALID_SHARED_OAUTH_PROVIDER_ID: () => "This provider has no shared keys: use your own OAuth app.",
  INVALID_STANDARD_OAUTH_PROVIDER_ID: () => "This provider is not supported.",
};

export function OAuthProviders({ project }: { project: OwnedProject }) {
  const providers = useProjectSettings(project).config.oauthProviders;
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [status, setStatus] = useState<string | null>(null);

  const write = (list: OAuthProviderConfig[]) =>
    saveProject(project, { config: { oauthProviders: list.map(providerToWrite) } });
  const replace = (provider: OAuthProviderConfig) =>
    providers.map((p) => (p.id === provider.id ? provider : p));

  const add = useFormAction(async (provider: OAuthProviderConfig) => {
    await write([...providers, provider]);
    setAdding(false);
    setStatus(`${providerName(provider.id)} added.`);
  }, ERROR_TEXTS);
  const change = useFormAction(async (provider: OAuthProviderConfig) => {
    await write(replace(provider));
    setEditing(null);
    setStatus(`${providerName(provider.id)} saved.`);
  }, ERROR_TEXTS);
  const toggle = useFormAction(async (provider: OAuthProviderConfig) => {
    await write(replace({ ...provider, enabled: !provider.enabled }));
    setStatus(`${providerName(provider.id)} ${provider.enabled ? "disabled" : "enabled"}.`);
  }, ERROR_TEXTS);

  return (
    <>
      {providers.length === 0 ? (
        <p className="dash-muted">No OAuth providers yet: users sign in with the methods above.</p>
      ) : (
        <TableScroll label="OAuth providers table">
          <table className="dash-table" aria-label="OAuth providers">
            <TableHead columns={["Provider", "Credentials", "Status"]} actions />
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
                        "Shared development keys"
                      ) : (
                        <>
                          Own app <span className="dash-mono">{provider.clientId}</span>
                        </>
                      )}
                    </td>
                    <td>
                      <span className={`dash-badge ${provider.enabled ? "dash-ok" : ""}`}>
                        {provider.enabled ? "Enabled" : "Disabled"}
                      </span>
                    </td>
                    <td>
                      <span className="dash-actions">
                        <Button
                          aria-label={`${provider.enabled ? "Disable" : "Enable"} ${providerName(provider.id)}`}
                          pending={toggle.pending}
                          onClick={() => void toggle.run(provider)}
                        >
                          {provider.enabled ? "Disable" : "Enable"}
                        </Button>
                        <Button
                          aria-label={`Edit ${providerName(provider.id)}`}
                          onClick={() => {
                            change.setError(null);
                            setEditing(provider.id);
                          }}
                        >
                          Edit
                        </Button>
                        <ConfirmButton
                          label="Remove"
                          name={`Remove ${providerName(provider.id)}`}
                          confirmLabel="Yes, remove"
                          question={`Remove ${providerName(provider.id)}? Its keys are forgotten.`}
                          onConfirm={async () => {
                            await write(providers.filter((p) => p.id !== provider.id));
                            setStatus(`${providerName(provider.id)} removed.`);
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
            Add provider
          </Button>
        </div>
      )}
    </>
  );
}
