// [GO] Apps that sign users in with this project as their OpenID Provider: register a client (confidential or public,
// exact redirect URIs, scopes, logo, first-party), whose secret is shown once (only its hash is kept); the provider's
// issuer and discovery URL to paste into the app; the list of clients with deletion.
import type { OidcClient } from "@gatehouse/contract";
import { Alert, Button, Field, Muted } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { invalidate, useQuery } from "../data.ts";
import { ScreenHeader } from "../layout.tsx";
import { type ProjectScreenProps, projectKey } from "../project.tsx";
import { serverUrl } from "../stack.ts";
import { ConfirmButton, Part, TableHead, TableScroll } from "./bricks.tsx";
import { CopyButton } from "./copy.tsx";
import { useFormAction } from "./form.ts";

const SCOPES = [
  { id: "profile", label: "profile (name, picture)" },
  { id: "email", label: "email" },
  { id: "offline_access", label: "offline_access (refresh tokens)" },
  { id: "team", label: "team (team ids)" },
];

const clientsKey = (project: { id: string }) => projectKey(project, "oidc-clients");
type Created = OidcClient & { client_secret: string | null };

export function OAuthClientsPage({ project }: ProjectScreenProps) {
  const [created, setCreated] = useState<Created | null>(null);
  const issuer = `${serverUrl().replace(/\/$/, "")}/api/v1/projects/${encodeURIComponent(project.id)}/oidc`;
  return (
    <>
      <ScreenHeader title="OAuth apps" />
      <section className="dash-panel" aria-labelledby="oidc-issuer">
        <h2 id="oidc-issuer">This project as an OpenID Provider</h2>
        <Muted>
          Apps (Grafana, a wiki, a partner's app) sign your users in here. Users sign in and consent on your
          app's handler pages, so the project needs a trusted domain.
        </Muted>
        <dl className="dash-reveal">
          <CopyRow label="Issuer" value={issuer} />
          <CopyRow label="Discovery" value={`${issuer}/.well-known/openid-configuration`} />
        </dl>
      </section>
      {created ? (
        <Reveal client={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateClient project={project} onCreated={setCreated} />
      )}
      <section className="dash-panel" aria-labelledby="oidc-client-list">
        <h2 id="oidc-client-list">Registered apps</h2>
        <Part label="OAuth apps" reads={clientsKey(project)}>
          <ClientList project={project} />
        </Part>
      </section>
    </>
  );
}

function CreateClient({
  project,
  onCreated,
}: ProjectScreenProps & { onCreated: (created: Created) => void }) {
  const [name, setName] = useState("");
  const [redirects, setRedirects] = useState("");
  const [logo, setLogo] = useState("");
  const [type, setType] = useState<"confidential" | "public">("confidential");
  const [scopes, setScopes] = useState<Record<string, boolean>>({ profile: true, email: true });
  const [firstParty, setFirstParty] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; redirects?: string }>({});

  const uris = () =>
    redirects
      .split(/\s+/)
      .map((line) => line.trim())
      .filter(Boolean);
  const create = useFormAction(async () => {
    const client = await project.app.createOidcClient({
      display_name: name.trim(),
      type,
      redirect_uris: uris(),
      allowed_scopes: ["openid", ...SCOPES.filter((s) => scopes[s.id]).map((s) => s.id)],
      logo_url: logo.trim() || null,
      first_party: firstParty,
    });
    invalidate(clientsKey(project));
    onCreated(client);
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = {
      name: name.trim() ? undefined : "Name the app.",
      redirects: uris().length > 0 ? undefined : "Give at least one redirect URI.",
    };
    setErrors(found);
    if (!found.name && !found.redirects) void create.run();
  };

  return (
    <section className="dash-panel" aria-labelledby="create-oidc-client">
      <h2 id="create-oidc-client">Register an app</h2>
      <form className="dash-form" noValidate onSubmit={onSubmit}>
        <Field
          label="Name"
          value={name}
          maxLength={200}
          placeholder="Grafana"
          error={errors.name}
          onChange={(event) => setName(event.target.value)}
        />
        <Field
          label="Redirect URIs (separated by spaces, matched exactly)"
          value={redirects}
          placeholder="https://grafana.example.com/login/generic_oauth"
          error={errors.redirects}
          onChange={(event) => setRedirects(event.target.value)}
        />
        <Field
          label="Logo URL (optional)"
          value={logo}
          placeholder="https://grafana.example.com/logo.png"
          onChange={(event) => setLogo(event.target.value)}
        />
        <label className="dash-select">
          <span>Type</span>
          <select value={type} onChange={(event) => setType(event.target.value as "confidential" | "public")}>
            <option value="confidential">Confidential (a server that keeps a secret)</option>
            <option value="public">Public (browser or native app; PKCE required)</option>
          </select>
        </label>
        <fieldset className="dash-checks">
          <legend>Scopes (openid is always allowed)</legend>
          {SCOPES.map((scope) => (
            <label key={scope.id}>
              <input
                type="checkbox"
                checked={scopes[scope.id] ?? false}
                onChange={(event) => setScopes({ ...scopes, [scope.id]: event.target.checked })}
              />{" "}
              {scope.label}
            </label>
          ))}
          <label>
            <input
              type="checkbox"
              checked={firstParty}
              onChange={(event) => setFirstParty(event.target.checked)}
            />{" "}
            First-party app <span className="dash-muted">(your own: users are not asked for consent)</span>
          </label>
        </fieldset>
        {create.error && <Alert>{create.error}</Alert>}
        <div>
          <Button type="submit" variant="primary" pending={create.pending}>
            Register app
          </Button>
        </div>
      </form>
    </section>
  );
}

function Reveal({ client, onDone }: { client: Created; onDone: () => void }) {
  return (
    <section className="dash-panel" aria-labelledby="new-oidc-client">
      <h2 id="new-oidc-client">New app: {client.display_name}</h2>
      {client.client_secret && (
        <Alert kind="info">Copy the client secret now. It will not be shown again.</Alert>
      )}
      <dl className="dash-reveal">
        <CopyRow label="Client id" value={client.client_id} />
        {client.client_secret && <CopyRow label="Client secret" value={client.client_secret} />}
      </dl>
      <Button variant="primary" onClick={onDone}>
        Done
      </Button>
    </section>
  );
}

function CopyRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="dash-reveal-row">
      <dt>{label}</dt>
      <dd>
        <code className="dash-code-block">{value}</code>
        <CopyButton value={value} what={label} />
      </dd>
    </div>
  );
}

function ClientList({ project }: ProjectScreenProps) {
  const clients = useQuery(clientsKey(project), () => project.app.listOidcClients());
  if (clients.length === 0) return <Muted>No apps yet.</Muted>;
  return (
    <TableScroll label="OAuth apps table">
      <table className="dash-table">
        <TableHead columns={["Name", "Client id", "Type", "Redirect URIs", "Scopes"]} actions />
        <tbody>
          {clients.map((client) => (
            <ClientRow key={client.client_id} project={project} client={client} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function ClientRow({ project, client }: ProjectScreenProps & { client: OidcClient }) {
  const remove = useFormAction(async () => {
    await project.app.deleteOidcClient(client.client_id);
    invalidate(clientsKey(project));
  });
  return (
    <tr>
      <td>
        {client.display_name}
        {client.first_party && <span className="dash-badge dash-ok"> first-party</span>}
      </td>
      <td className="dash-mono">{client.client_id}</td>
      <td>{client.type}</td>
      <td>
        <ul className="dash-plain-list">
          {client.redirect_uris.map((uri) => (
            <li key={uri}>{uri}</li>
          ))}
        </ul>
      </td>
      <td>{client.allowed_scopes.join(" ")}</td>
      <td>
        <ConfirmButton
          label="Delete"
          name={`Delete ${client.display_name}`}
          question="Delete this app? Its users are signed out of it and its tokens stop working."
          confirmLabel="Delete"
          pending={remove.pending}
          error={remove.error}
          onConfirm={remove.run}
        />
      </td>
    </tr>
  );
}
