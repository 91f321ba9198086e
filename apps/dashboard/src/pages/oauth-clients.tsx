// [GO] Apps that sign users in with this project as their OpenID Provider: register a client (confidential, sending
// its secret in an HTTP Basic header or in the request body, or signing a JWT with its own key published at a
// jwks_uri; or public; exact redirect URIs, scopes, logo,
// first-party, RS256 id_tokens, a back-channel logout URI), whose secret is shown once (only its hash is kept); the
// provider's issuer and discovery URL to paste into the app; the list of clients with deletion.
import type { OidcClient } from "@gatehouse/contract";
import { Alert, Button, Field, Muted } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { invalidate, useQuery } from "../data.ts";
import { ScreenHeader } from "../layout.tsx";
import { type DashboardKey, useDashboardTranslation } from "../messages.ts";
import { type ProjectScreenProps, projectKey } from "../project.tsx";
import { serverUrl } from "../stack.ts";
import { CopyRow, Reveal } from "./api-key-reveal.tsx";
import { ConfirmButton, Part, TableHead, TableScroll } from "./bricks.tsx";
import { useFormAction } from "./form.ts";

const SCOPES: { id: string; label: DashboardKey }[] = [
  { id: "profile", label: "oauth.scope.profile" },
  { id: "email", label: "oauth.scope.email" },
  { id: "offline_access", label: "oauth.scope.offline_access" },
  { id: "team", label: "oauth.scope.team" },
];

const clientsKey = (project: { id: string }) => projectKey(project, "oidc-clients");
type Created = OidcClient & { client_secret: string | null };
/** How a confidential client proves itself at the token endpoint (a key set given inline stays an API option). */
type SecretMethod = "client_secret_basic" | "client_secret_post" | "private_key_jwt";

export function OAuthClientsPage({ project }: ProjectScreenProps) {
  const t = useDashboardTranslation();
  const [created, setCreated] = useState<Created | null>(null);
  const issuer = `${serverUrl().replace(/\/$/, "")}/api/v1/projects/${encodeURIComponent(project.id)}/oidc`;
  return (
    <>
      <ScreenHeader title={t("oauth.title")} />
      <section className="dash-panel" aria-labelledby="oidc-issuer">
        <h2 id="oidc-issuer">{t("oauth.provider.title")}</h2>
        <Muted>{t("oauth.provider.explain")}</Muted>
        <dl className="dash-reveal">
          <CopyRow label={t("oauth.clients.issuer")} value={issuer} />
          <CopyRow label={t("oauth.discovery")} value={`${issuer}/.well-known/openid-configuration`} />
        </dl>
      </section>
      {created ? (
        <Reveal
          project={project}
          revealed={{
            description: created.display_name,
            keys: [
              { label: t("oauth.clients.clientId"), value: created.client_id, env: "" },
              ...(created.client_secret
                ? [{ label: t("oauth.clients.clientSecret"), value: created.client_secret, env: "" }]
                : []),
            ],
          }}
          texts={{
            title: t("oauth.new", { name: created.display_name }),
            notice: created.client_secret ? t("oauth.copySecret") : "",
            done: t("oauth.done"),
          }}
          onDone={() => setCreated(null)}
        />
      ) : (
        <CreateClient project={project} onCreated={setCreated} />
      )}
      <section className="dash-panel" aria-labelledby="oidc-client-list">
        <h2 id="oidc-client-list">{t("oauth.registered")}</h2>
        <Part label={t("oauth.title")} reads={clientsKey(project)}>
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
  const t = useDashboardTranslation();
  const [name, setName] = useState("");
  const [redirects, setRedirects] = useState("");
  const [logo, setLogo] = useState("");
  const [backchannel, setBackchannel] = useState("");
  const [jwksUri, setJwksUri] = useState("");
  const [type, setType] = useState<"confidential" | "public">("confidential");
  const [authMethod, setAuthMethod] = useState<SecretMethod>("client_secret_basic");
  const [scopes, setScopes] = useState<Record<string, boolean>>({ profile: true, email: true });
  const [firstParty, setFirstParty] = useState(false);
  const [rs256, setRs256] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; redirects?: string; jwksUri?: string }>({});
  const signsWithKey = type === "confidential" && authMethod === "private_key_jwt";

  const uris = () =>
    redirects
      .split(/\s+/)
      .map((line) => line.trim())
      .filter(Boolean);
  const create = useFormAction(async () => {
    const client = await project.app.createOidcClient({
      display_name: name.trim(),
      type,
      ...(type === "confidential" ? { token_endpoint_auth_method: authMethod } : {}),
      ...(signsWithKey ? { jwks_uri: jwksUri.trim() } : {}),
      redirect_uris: uris(),
      allowed_scopes: ["openid", ...SCOPES.filter((s) => scopes[s.id]).map((s) => s.id)],
      logo_url: logo.trim() || null,
      first_party: firstParty,
      id_token_signed_response_alg: rs256 ? "RS256" : "ES256",
      backchannel_logout_uri: backchannel.trim() || null,
    });
    invalidate(clientsKey(project));
    onCreated(client);
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = {
      name: name.trim() ? undefined : t("oauth.err.name"),
      redirects: uris().length > 0 ? undefined : t("oauth.err.redirects"),
      jwksUri: !signsWithKey || /^https:\/\/\S+$/.test(jwksUri.trim()) ? undefined : t("oauth.err.jwksUri"),
    };
    setErrors(found);
    if (!found.name && !found.redirects && !found.jwksUri) void create.run();
  };

  return (
    <section className="dash-panel" aria-labelledby="create-oidc-client">
      <h2 id="create-oidc-client">{t("oauth.registerTitle")}</h2>
      <form className="dash-form" noValidate onSubmit={onSubmit}>
        <Field
          label={t("oauth.name")}
          value={name}
          maxLength={200}
          placeholder="Grafana"
          error={errors.name}
          onChange={(event) => setName(event.target.value)}
        />
        <Field
          label={t("oauth.redirects")}
          value={redirects}
          placeholder="https://grafana.example.com/login/generic_oauth"
          error={errors.redirects}
          onChange={(event) => setRedirects(event.target.value)}
        />
        <Field
          label={t("oauth.logo")}
          value={logo}
          placeholder="https://grafana.example.com/logo.png"
          onChange={(event) => setLogo(event.target.value)}
        />
        <Field
          label={t("oauth.backchannel")}
          value={backchannel}
          placeholder="https://grafana.example.com/logout/backchannel"
          onChange={(event) => setBackchannel(event.target.value)}
        />
        <label className="dash-select">
          <span>{t("oauth.type")}</span>
          <select value={type} onChange={(event) => setType(event.target.value as "confidential" | "public")}>
            <option value="confidential">{t("oauth.type.confidential")}</option>
            <option value="public">{t("oauth.type.public")}</option>
          </select>
        </label>
        {type === "confidential" && (
          <label className="dash-select">
            <span>{t("oauth.authMethod")}</span>
            <select
              value={authMethod}
              onChange={(event) => setAuthMethod(event.target.value as SecretMethod)}
            >
              <option value="client_secret_basic">{t("oauth.authMethod.basic")}</option>
              <option value="client_secret_post">{t("oauth.authMethod.post")}</option>
              <option value="private_key_jwt">{t("oauth.authMethod.privateKeyJwt")}</option>
            </select>
          </label>
        )}
        {signsWithKey && (
          <Field
            label={t("oauth.jwksUri")}
            value={jwksUri}
            placeholder="https://grafana.example.com/.well-known/jwks.json"
            error={errors.jwksUri}
            onChange={(event) => setJwksUri(event.target.value)}
          />
        )}
        <fieldset className="dash-checks">
          <legend>{t("oauth.scopes")}</legend>
          {SCOPES.map((scope) => (
            <label key={scope.id}>
              <input
                type="checkbox"
                checked={scopes[scope.id] ?? false}
                onChange={(event) => setScopes({ ...scopes, [scope.id]: event.target.checked })}
              />{" "}
              {t(scope.label)}
            </label>
          ))}
          <label>
            <input
              type="checkbox"
              checked={firstParty}
              onChange={(event) => setFirstParty(event.target.checked)}
            />{" "}
            {t("oauth.firstParty")} <span className="dash-muted">{t("oauth.firstPartyHint")}</span>
          </label>
          <label>
            <input type="checkbox" checked={rs256} onChange={(event) => setRs256(event.target.checked)} />{" "}
            {t("oauth.rs256")}
          </label>
        </fieldset>
        {create.error && <Alert>{create.error}</Alert>}
        <div>
          <Button type="submit" variant="primary" pending={create.pending}>
            {t("oauth.register")}
          </Button>
        </div>
      </form>
    </section>
  );
}

function ClientList({ project }: ProjectScreenProps) {
  const t = useDashboardTranslation();
  const clients = useQuery(clientsKey(project), () => project.app.listOidcClients());
  if (clients.length === 0) return <Muted>{t("oauth.clientsNone")}</Muted>;
  return (
    <TableScroll label={t("oauth.clients.table")}>
      <table className="dash-table">
        <TableHead
          columns={[
            t("oauth.name"),
            t("oauth.clients.clientId"),
            t("oauth.type"),
            t("oauth.col.redirects"),
            t("oauth.col.scopes"),
          ]}
          actions
        />
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
  const t = useDashboardTranslation();
  const remove = useFormAction(async () => {
    await project.app.deleteOidcClient(client.client_id);
    invalidate(clientsKey(project));
  });
  return (
    <tr>
      <td>
        {client.display_name}
        {client.first_party && <span className="dash-badge dash-ok"> {t("oauth.firstPartyBadge")}</span>}
      </td>
      <td className="dash-mono">{client.client_id}</td>
      <td>{t(client.type === "public" ? "oauth.type.publicShort" : "oauth.type.confidentialShort")}</td>
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
          label={t("oauth.delete")}
          name={t("oauth.deleteName", { name: client.display_name })}
          question={t("oauth.deleteQuestion")}
          confirmLabel={t("oauth.delete")}
          pending={remove.pending}
          error={remove.error}
          onConfirm={remove.run}
        />
      </td>
    </tr>
  );
}
