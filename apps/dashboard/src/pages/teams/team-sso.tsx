// [GO] A team's single sign-on: its identity provider connections with exactly the values to paste into the provider,
// the e-mail domains it claims with their DNS TXT record and a verify button, and its SCIM tokens (shown once).
import type { SsoConnection } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, Fragment, type ReactNode, useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
import { useDashboardTranslation } from "../../messages.ts";
import { projectKey } from "../../project.tsx";
import { ConfirmButton, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { When } from "../users/bricks.tsx";
import type { TeamPartProps } from "./team-page.tsx";

const keyOf = (props: TeamPartProps, part: string) => projectKey(props.project, "teams", props.team.id, part);
const ssoOf = ({ project, team }: TeamPartProps) => project.app.teamSso(team.id);

/** A translated text whose `{slot}` is an element (a value in a monospace span, a date) rather than a string. */
function withElement(text: string, slot: string, element: ReactNode) {
  const [before, after] = text.split(`{${slot}}`);
  return (
    <>
      {before}
      {element}
      {after}
    </>
  );
}

/** The values the identity provider asks for, each under the names the big providers give it. */
function PasteValues({ connection }: { connection: SsoConnection }) {
  const t = useDashboardTranslation();
  const rows: [string, string][] = connection.oidc
    ? [[t("sso.paste.redirect"), connection.oidc.redirect_uri]]
    : connection.saml
      ? [
          [t("sso.paste.entityId"), connection.saml.sp_entity_id],
          [t("sso.paste.acs"), connection.saml.acs_url],
          [t("sso.paste.metadata"), connection.saml.sp_metadata_url],
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
  const t = useDashboardTranslation();
  const sso = ssoOf(props);
  const connections = useQuery(keyOf(props, "sso-connections"), () => sso.listConnections());
  // A stack: the form to add another connection keeps its distance from the last connection's buttons.
  return (
    <div className="dash-stack">
      {connections.length === 0 && <p className="dash-muted">{t("sso.none")}</p>}
      {connections.map((connection) => (
        <article key={connection.id} aria-label={t("sso.connection", { name: connection.display_name })}>
          <h3>
            {t(connection.enabled ? "sso.title" : "sso.titleDisabled", {
              name: connection.display_name,
              protocol: connection.protocol.toUpperCase(),
            })}
          </h3>
          <PasteValues connection={connection} />
          <TestConnection {...props} connection={connection} />
          <ConfirmButton
            label={t("sso.removeName", { name: connection.display_name })}
            question={t("sso.removeQuestion", { name: connection.display_name })}
            confirmLabel={t("sso.remove")}
            onConfirm={async () => {
              await sso.deleteConnection(connection.id);
              invalidate(keyOf(props, "sso-connections"));
            }}
          />
        </article>
      ))}
      <AddConnection {...props} />
    </div>
  );
}

/**
 * "Test connection": a sign-in at the identity provider that signs no one in. The browser goes to the provider and
 * comes back to this page with `sso_test_id`; the panel then shows what the provider sent, or what failed.
 */
/** The error's reason, unless its message already says it (SSO_IDENTITY_PROVIDER_ERROR's does). */
const reasonOf = (message: string, details: unknown) => {
  const reason = (details as { reason?: unknown } | undefined)?.reason;
  return typeof reason === "string" && !message.includes(reason) ? reason : "";
};

function TestConnection(props: TeamPartProps & { connection: SsoConnection }) {
  const t = useDashboardTranslation();
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
    <section aria-label={t("sso.testOf", { name: connection.display_name })}>
      <Button pending={start.pending} onClick={() => void start.run()}>
        {t("sso.test")}
      </Button>
      {start.error && <Alert>{start.error}</Alert>}
      {result && result.status === "succeeded" && (
        <div role="status">
          <p>
            {withElement(
              t("sso.test.succeeded"),
              "subject",
              <span className="dash-mono">{result.subject}</span>,
            )}
          </p>
          <pre className="dash-mono">{JSON.stringify(result.attributes, null, 2)}</pre>
        </div>
      )}
      {result && result.status === "failed" && (
        <Alert>
          {t("sso.test.failed", {
            message: result.error?.message ?? "",
            reason: reasonOf(result.error?.message ?? "", result.error?.details),
          })}
        </Alert>
      )}
      {result && result.status === "pending" && <p className="dash-muted">{t("sso.test.pending")}</p>}
    </section>
  );
}

function AddConnection(props: TeamPartProps) {
  const t = useDashboardTranslation();
  const [protocol, setProtocol] = useState<"oidc" | "saml">("oidc");
  const [fields, setFields] = useState({ name: "", issuer: "", clientId: "", secret: "", metadata: "" });
  const [incomplete, setIncomplete] = useState(false);
  const error = incomplete ? t("sso.fillIn") : null;
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
    setIncomplete(missing);
    if (!missing) void add.run();
  };
  return (
    <form className="dash-form" noValidate onSubmit={onSubmit} aria-label={t("sso.addForm")}>
      <label>
        {t("sso.protocol")}{" "}
        <select value={protocol} onChange={(event) => setProtocol(event.target.value as "oidc" | "saml")}>
          <option value="oidc">OIDC</option>
          <option value="saml">SAML 2.0</option>
        </select>
      </label>
      <Field label={t("sso.name")} name="name" value={fields.name} onChange={set("name")} maxLength={256} />
      {protocol === "oidc" ? (
        <>
          <Field label={t("sso.issuer")} name="issuer" value={fields.issuer} onChange={set("issuer")} />
          <Field
            label={t("sso.clientId")}
            name="clientId"
            value={fields.clientId}
            onChange={set("clientId")}
          />
          <Field
            label={t("sso.secret")}
            name="secret"
            type="password"
            autoComplete="off"
            value={fields.secret}
            onChange={set("secret")}
          />
        </>
      ) : (
        <Field
          label={t("sso.idpMetadata")}
          name="metadata"
          value={fields.metadata}
          hint={t("sso.idpMetadataHint")}
          onChange={set("metadata")}
        />
      )}
      {(error ?? add.error) && <Alert>{error ?? add.error}</Alert>}
      <div>
        <Button type="submit" pending={add.pending}>
          {t("sso.add")}
        </Button>
      </div>
    </form>
  );
}

export function TeamSsoDomains(props: TeamPartProps) {
  const t = useDashboardTranslation();
  const sso = ssoOf(props);
  const domains = useQuery(keyOf(props, "sso-domains"), () => sso.listDomains());
  const [domain, setDomain] = useState("");
  const [verifiedName, setVerifiedName] = useState<string | null>(null);
  const verify = useFormAction(async (id: string, name: string) => {
    setVerifiedName(null);
    const verified = await sso.verifyDomain(id);
    invalidate(keyOf(props, "sso-domains"));
    setVerifiedName(verified.verified ? name : null);
  });
  const enforce = useFormAction(async (id: string, enforceSso: boolean) => {
    await sso.updateDomain(id, { enforce_sso: enforceSso });
    invalidate(keyOf(props, "sso-domains"));
  });
  const add = useFormAction(async (name: string) => {
    await sso.createDomain(name);
    invalidate(keyOf(props, "sso-domains"));
    setDomain("");
  });
  return (
    <>
      {domains.length === 0 ? (
        <p className="dash-muted">{t("sso.domain.none")}</p>
      ) : (
        <TableScroll label={t("sso.domain.table")}>
          <table className="dash-table">
            <TableHead
              columns={[
                t("sso.domain.col.domain"),
                t("sso.domain.col.txt"),
                t("sso.domain.col.status"),
                t("sso.col.actions"),
              ]}
            />
            <tbody>
              {domains.map((d) => (
                <tr key={d.id}>
                  <td>{d.domain}</td>
                  <td className="dash-mono">
                    {d.verification_record.name} TXT "{d.verification_record.value}"
                  </td>
                  <td>
                    {d.verified
                      ? withElement(
                          t("sso.domain.verified"),
                          "when",
                          <When date={new Date(d.verified_at_millis ?? 0)} />,
                        )
                      : t("sso.domain.notVerified")}
                  </td>
                  <td className="dash-actions">
                    <label className="dash-check">
                      <input
                        type="checkbox"
                        aria-label={t("sso.domain.enforceName", { domain: d.domain })}
                        checked={d.enforce_sso}
                        disabled={enforce.pending}
                        onChange={(event) => void enforce.run(d.id, event.target.checked)}
                      />
                      {t("sso.domain.enforce")}
                    </label>
                    {!d.verified && (
                      <Button
                        aria-label={t("sso.domain.verifyName", { domain: d.domain })}
                        pending={verify.pending}
                        onClick={() => void verify.run(d.id, d.domain)}
                      >
                        {t("sso.domain.verify")}
                      </Button>
                    )}
                    <ConfirmButton
                      label={t("sso.domain.giveUpName", { domain: d.domain })}
                      question={t("sso.domain.giveUpQuestion", { domain: d.domain })}
                      confirmLabel={t("sso.domain.giveUp")}
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
      {enforce.error && <Alert>{enforce.error}</Alert>}
      {verifiedName && <Alert kind="success">{t("sso.domain.isVerified", { name: verifiedName })}</Alert>}
      <form
        className="dash-form dash-inline-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (domain.trim()) void add.run(domain.trim());
        }}
      >
        <Field
          label={t("sso.domain.claim")}
          name="domain"
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
        />
        {add.error && <Alert>{add.error}</Alert>}
        <div>
          <Button type="submit" pending={add.pending}>
            {t("sso.domain.claimButton")}
          </Button>
        </div>
      </form>
    </>
  );
}

export function TeamScimTokens(props: TeamPartProps) {
  const t = useDashboardTranslation();
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
        <p className="dash-muted">{t("sso.scim.none")}</p>
      ) : (
        <TableScroll label={t("sso.scim.table")}>
          <table className="dash-table">
            <TableHead
              columns={[
                t("sso.scim.col.description"),
                t("sso.scim.col.created"),
                t("sso.scim.col.lastUsed"),
                t("sso.col.actions"),
              ]}
            />
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
                      t("sso.scim.never")
                    )}
                  </td>
                  <td>
                    <ConfirmButton
                      label={t("sso.scim.revokeName", { description: token.description })}
                      question={t("sso.scim.revokeQuestion", { description: token.description })}
                      confirmLabel={t("sso.scim.revoke")}
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
          {t("sso.scim.shownOnce")} {t("sso.scim.baseUrl")} <span className="dash-mono">{created.url}</span>{" "}
          {t("sso.scim.token")} <span className="dash-mono">{created.token}</span>
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
          label={t("sso.scim.newFor")}
          name="description"
          value={description}
          hint={t("sso.scim.example")}
          maxLength={256}
          onChange={(event) => setDescription(event.target.value)}
        />
        {create.error && <Alert>{create.error}</Alert>}
        <div>
          <Button type="submit" pending={create.pending}>
            {t("sso.scim.create")}
          </Button>
        </div>
      </form>
    </>
  );
}
