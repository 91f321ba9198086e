// [GO] A team's single sign-on: its identity provider connections with exactly the values to paste into the provider,
// the e-mail domains it claims with their DNS TXT record and a verify button, and its SCIM tokens (shown once).
import type { SsoConnection } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, Fragment, useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
import { projectKey } from "../../project.tsx";
import { ConfirmButton, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { When } from "../users/bricks.tsx";
import type { TeamPartProps } from "./team-page.tsx";

const keyOf = (props: TeamPartProps, part: string) => projectKey(props.project, "teams", props.team.id, part);
const ssoOf = ({ project, team }: TeamPartProps) => project.app.teamSso(team.id);

/** The values the identity provider asks for, each under the names the big providers give it. */
function PasteValues({ connection }: { connection: SsoConnection }) {
  const rows: [string, string][] = connection.oidc
    ? [["Redirect URI (sign-in redirect URI, callback URL)", connection.oidc.redirect_uri]]
    : connection.saml
      ? [
          ["SP entity id (Audience URI, Identifier)", connection.saml.sp_entity_id],
          ["ACS URL (Single sign-on URL, Reply URL)", connection.saml.acs_url],
          ["SP metadata URL", connection.saml.sp_metadata_url],
        ]
      : [];
  return (
    <dl className="dash-facts">
      {rows.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd className="dash-mono">{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

export function TeamSsoConnections(props: TeamPartProps) {
  const sso = ssoOf(props);
  const connections = useQuery(keyOf(props, "sso-connections"), () => sso.listConnections());
  return (
    <>
      {connections.length === 0 && (
        <p className="dash-muted">
          No identity provider yet. Add one below, then paste the values it shows into the provider's
          application.
        </p>
      )}
      {connections.map((connection) => (
        <article key={connection.id} aria-label={`Connection ${connection.display_name}`}>
          <h3>
            {connection.display_name} ({connection.protocol.toUpperCase()}
            {connection.enabled ? "" : ", disabled"})
          </h3>
          <PasteValues connection={connection} />
          <TestConnection {...props} connection={connection} />
          <ConfirmButton
            label={`Remove the connection ${connection.display_name}`}
            question={`Remove ${connection.display_name}? Its users can no longer sign in through it.`}
            confirmLabel="Remove"
            onConfirm={async () => {
              await sso.deleteConnection(connection.id);
              invalidate(keyOf(props, "sso-connections"));
            }}
          />
        </article>
      ))}
      <AddConnection {...props} />
    </>
  );
}

/**
 * "Test connection": a sign-in at the identity provider that signs no one in. The browser goes to the provider and
 * comes back to this page with `sso_test_id`; the panel then shows what the provider sent, or what failed.
 */
const reasonOf = (details: unknown) => {
  const reason = (details as { reason?: unknown } | undefined)?.reason;
  return typeof reason === "string" ? reason : "";
};

function TestConnection(props: TeamPartProps & { connection: SsoConnection }) {
  const { connection } = props;
  const here = new URL(globalThis.location?.href ?? "http://localhost/");
  const testId =
    here.searchParams.get("sso_test_connection") === connection.id && here.searchParams.get("sso_test_id");
  const result = useQuery(keyOf(props, `sso-test-${connection.id}-${testId || "none"}`), async () =>
    testId ? ssoOf(props).getConnectionTest(connection.id, testId) : null,
  );
  const start = useFormAction(async () => {
    const back = new URL(globalThis.location.href);
    back.searchParams.delete("sso_test_id");
    back.searchParams.set("sso_test_connection", connection.id);
    const started = await ssoOf(props).startConnectionTest(connection.id, back.toString());
    globalThis.location.assign(started.location);
  });
  return (
    <section aria-label={`Test of ${connection.display_name}`}>
      <Button pending={start.pending} onClick={() => void start.run()}>
        Test connection
      </Button>
      {start.error && <Alert>{start.error}</Alert>}
      {result && result.status === "succeeded" && (
        <div role="status">
          <p>
            The identity provider signed in <span className="dash-mono">{result.subject}</span>. It sent these
            attributes (no user or session was created):
          </p>
          <pre className="dash-mono">{JSON.stringify(result.attributes, null, 2)}</pre>
        </div>
      )}
      {result && result.status === "failed" && (
        <Alert>
          The test failed: {result.error?.message} {reasonOf(result.error?.details)}
        </Alert>
      )}
      {result && result.status === "pending" && (
        <p className="dash-muted">The identity provider has not answered this test yet.</p>
      )}
    </section>
  );
}

function AddConnection(props: TeamPartProps) {
  const [protocol, setProtocol] = useState<"oidc" | "saml">("oidc");
  const [fields, setFields] = useState({ name: "", issuer: "", clientId: "", secret: "", metadata: "" });
  const [error, setError] = useState<string | null>(null);
  const add = useFormAction(async () => {
    const common = { protocol, display_name: fields.name.trim() };
    await ssoOf(props).createConnection(
      protocol === "oidc"
        ? {
            ...common,
            oidc: {
              issuer_url: fields.issuer.trim(),
              client_id: fields.clientId.trim(),
              client_secret: fields.secret,
            },
          }
        : { ...common, saml: { idp_metadata_url: fields.metadata.trim() } },
    );
    invalidate(keyOf(props, "sso-connections"));
    setFields({ name: "", issuer: "", clientId: "", secret: "", metadata: "" });
  });
  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) =>
    setFields({ ...fields, [name]: event.target.value });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const missing =
      !fields.name.trim() ||
      (protocol === "oidc"
        ? !fields.issuer.trim() || !fields.clientId.trim() || !fields.secret
        : !fields.metadata.trim());
    setError(missing ? "Fill in every field of the connection." : null);
    if (!missing) void add.run();
  };
  return (
    <form className="dash-form" noValidate onSubmit={onSubmit} aria-label="Add an identity provider">
      <label>
        Protocol{" "}
        <select value={protocol} onChange={(event) => setProtocol(event.target.value as "oidc" | "saml")}>
          <option value="oidc">OIDC</option>
          <option value="saml">SAML 2.0</option>
        </select>
      </label>
      <Field label="Connection name" name="name" value={fields.name} onChange={set("name")} maxLength={256} />
      {protocol === "oidc" ? (
        <>
          <Field label="Issuer URL" name="issuer" value={fields.issuer} onChange={set("issuer")} />
          <Field label="Client id" name="clientId" value={fields.clientId} onChange={set("clientId")} />
          <Field
            label="Client secret"
            name="secret"
            type="password"
            autoComplete="off"
            value={fields.secret}
            onChange={set("secret")}
          />
        </>
      ) : (
        <Field
          label="IdP metadata URL"
          name="metadata"
          value={fields.metadata}
          hint="Okta: Metadata URL; Entra ID: App Federation Metadata Url."
          onChange={set("metadata")}
        />
      )}
      {(error ?? add.error) && <Alert>{error ?? add.error}</Alert>}
      <div>
        <Button type="submit" pending={add.pending}>
          Add connection
        </Button>
      </div>
    </form>
  );
}

export function TeamSsoDomains(props: TeamPartProps) {
  const sso = ssoOf(props);
  const domains = useQuery(keyOf(props, "sso-domains"), () => sso.listDomains());
  const [domain, setDomain] = useState("");
  const [result, setResult] = useState<string | null>(null);
  const verify = useFormAction(async (id: string, name: string) => {
    setResult(null);
    const verified = await sso.verifyDomain(id);
    invalidate(keyOf(props, "sso-domains"));
    setResult(verified.verified ? `${name} is verified.` : null);
  });
  const add = useFormAction(async (name: string) => {
    await sso.createDomain(name);
    invalidate(keyOf(props, "sso-domains"));
    setDomain("");
  });
  return (
    <>
      {domains.length === 0 ? (
        <p className="dash-muted">No domain claimed yet.</p>
      ) : (
        <TableScroll label="Domains table">
          <table className="dash-table">
            <TableHead columns={["Domain", "TXT record to publish", "Status", "Actions"]} />
            <tbody>
              {domains.map((d) => (
                <tr key={d.id}>
                  <td>{d.domain}</td>
                  <td className="dash-mono">
                    {d.verification_record.name} TXT "{d.verification_record.value}"
                  </td>
                  <td>
                    {d.verified ? (
                      <>
                        verified <When date={new Date(d.verified_at_millis ?? 0)} />
                      </>
                    ) : (
                      "not verified"
                    )}
                  </td>
                  <td className="dash-actions">
                    {!d.verified && (
                      <Button
                        aria-label={`Verify ${d.domain}`}
                        pending={verify.pending}
                        onClick={() => void verify.run(d.id, d.domain)}
                      >
                        Verify
                      </Button>
                    )}
                    <ConfirmButton
                      label={`Give up ${d.domain}`}
                      question={`Give up ${d.domain}? Its addresses are no longer sent to this team's SSO.`}
                      confirmLabel="Give up"
                      onConfirm={async () => {
                        await sso.deleteDomain(d.id);
                        invalidate(keyOf(props, "sso-domains"));
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {verify.error && <Alert>{verify.error}</Alert>}
      {result && <Alert kind="success">{result}</Alert>}
      <form
        className="dash-form dash-inline-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (domain.trim()) void add.run(domain.trim());
        }}
      >
        <Field
          label="Claim a domain"
          name="domain"
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
        />
        {add.error && <Alert>{add.error}</Alert>}
        <div>
          <Button type="submit" pending={add.pending}>
            Claim domain
          </Button>
        </div>
      </form>
    </>
  );
}

export function TeamScimTokens(props: TeamPartProps) {
  const sso = ssoOf(props);
  const tokens = useQuery(keyOf(props, "scim-tokens"), () => sso.listScimTokens());
  const [description, setDescription] = useState("");
  const [created, setCreated] = useState<{ token: string; url: string } | null>(null);
  const create = useFormAction(async (text: string) => {
    const answer = await sso.createScimToken(text);
    invalidate(keyOf(props, "scim-tokens"));
    setCreated({ token: answer.token, url: answer.scim_base_url });
    setDescription("");
  });
  return (
    <>
      {tokens.length === 0 ? (
        <p className="dash-muted">No SCIM token. Create one to let the identity provider provision users.</p>
      ) : (
        <TableScroll label="SCIM tokens table">
          <table className="dash-table">
            <TableHead columns={["Description", "Created", "Last used", "Actions"]} />
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id}>
                  <td>{token.description}</td>
                  <td>
                    <When date={new Date(token.created_at_millis)} />
                  </td>
                  <td>
                    {token.last_used_at_millis ? (
                      <When date={new Date(token.last_used_at_millis)} />
                    ) : (
                      "never"
                    )}
                  </td>
                  <td>
                    <ConfirmButton
                      label={`Revoke the SCIM token ${token.description}`}
                      question={`Revoke ${token.description}? The identity provider's next request with it is refused.`}
                      confirmLabel="Revoke"
                      onConfirm={async () => {
                        await sso.revokeScimToken(token.id);
                        invalidate(keyOf(props, "scim-tokens"));
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {created && (
        <Alert kind="success">
          Paste into the identity provider now; the token is not shown again. SCIM base URL:{" "}
          <span className="dash-mono">{created.url}</span> Token:{" "}
          <span className="dash-mono">{created.token}</span>
        </Alert>
      )}
      <form
        className="dash-form dash-inline-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setCreated(null);
          if (description.trim()) void create.run(description.trim());
        }}
      >
        <Field
          label="New SCIM token for"
          name="description"
          value={description}
          hint="For example: Okta provisioning."
          maxLength={256}
          onChange={(event) => setDescription(event.target.value)}
        />
        {create.error && <Alert>{create.error}</Alert>}
        <div>
          <Button type="submit" pending={create.pending}>
            Create SCIM token
          </Button>
        </div>
      </form>
    </>
  );
}
