// The project's trusted domains (WIRE.md §7): origins that callback and redirect URLs may point to, each with the
// path of its handler pages; add, change and remove (after confirming). The whole list is written on every change.
import type { OwnedProject } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { ConfirmButton, FormRow, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { saveProject, type TrustedDomain, useProjectSettings } from "./project-settings.ts";

/** As the server checks it: `http(s)://host[:port]`, nothing after the port (contract schemas/projects.ts). */
const ORIGIN = /^https?:\/\/([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function domainProblem(domain: string, others: string[]): string | null {
  if (domain === "") return "Enter the domain, like https://example.com.";
  if (!/^https?:\/\//i.test(domain)) return "Start with https:// (or http://), like https://example.com.";
  if (!ORIGIN.test(domain)) return "Enter only the scheme, host and port, without a path or wildcard.";
  if (others.includes(domain)) return "This domain is already trusted.";
  return null;
}

export function TrustedDomains({ project }: { project: OwnedProject }) {
  const domains = useProjectSettings(project).config.domains;
  const [editing, setEditing] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const write = (list: TrustedDomain[]) => saveProject(project, { config: { domains: list } });

  return (
    <>
      {domains.length === 0 ? (
        <p className="dash-muted">No trusted domains yet: add the address your app is served from.</p>
      ) : (
        <TableScroll label="Trusted domains table">
          <table className="dash-table" aria-label="Trusted domains">
            <TableHead columns={["Domain", "Handler path"]} actions />
            <tbody>
              {domains.map((entry) =>
                editing === entry.domain ? (
                  <FormRow key={entry.domain} span={3}>
                    <DomainForm
                      existing={entry}
                      others={domains.map((d) => d.domain).filter((d) => d !== entry.domain)}
                      onSave={async (changed) => {
                        await write(domains.map((d) => (d.domain === entry.domain ? changed : d)));
                        setEditing(null);
                        setStatus(`${changed.domain} saved.`);
                      }}
                      onCancel={() => setEditing(null)}
                    />
                  </FormRow>
                ) : (
                  <tr key={entry.domain}>
                    <td className="dash-mono">{entry.domain}</td>
                    <td className="dash-mono">{entry.handlerPath}</td>
                    <td>
                      <span className="dash-actions">
                        <Button aria-label={`Edit ${entry.domain}`} onClick={() => setEditing(entry.domain)}>
                          Edit
                        </Button>
                        <ConfirmButton
                          label="Remove"
                          name={`Remove ${entry.domain}`}
                          confirmLabel="Yes, remove"
                          question={`Stop trusting ${entry.domain}?`}
                          onConfirm={async () => {
                            await write(domains.filter((d) => d.domain !== entry.domain));
                            setStatus(`${entry.domain} removed.`);
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
      {status && <Alert kind="success">{status}</Alert>}
      <h3 className="dash-subheading">Add a domain</h3>
      <DomainForm
        others={domains.map((d) => d.domain)}
        onSave={async (added) => {
          await write([...domains, added]);
          setStatus(`${added.domain} added.`);
        }}
      />
    </>
  );
}

function DomainForm({
  existing,
  others,
  onSave,
  onCancel,
}: {
  existing?: TrustedDomain;
  others: string[];
  onSave: (domain: TrustedDomain) => Promise<void>;
  onCancel?: () => void;
}) {
  const [domain, setDomain] = useState(existing?.domain ?? "");
  const [handlerPath, setHandlerPath] = useState(existing?.handlerPath ?? "/handler");
  const [errors, setErrors] = useState<{ domain?: string; handlerPath?: string }>({});
  const form = useRef<HTMLFormElement>(null);
  const save = useFormAction(async () => {
    await onSave({ domain: domain.trim().replace(/\/$/, ""), handlerPath: handlerPath.trim() });
    if (!existing) {
      setDomain("");
      setHandlerPath("/handler");
    }
  });

  useEffect(() => {
    if (existing) form.current?.querySelector("input")?.focus();
  }, [existing]);
  useEffect(() => {
    // After a refused submit (a new errors object), the first invalid field takes the focus.
    if (Object.keys(errors).length > 0)
      form.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [errors]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    const domainError = domainProblem(domain.trim().replace(/\/$/, ""), others);
    if (domainError) found.domain = domainError;
    if (!handlerPath.trim().startsWith("/"))
      found.handlerPath = "The handler path starts with /, like /handler.";
    setErrors(found);
    if (!found.domain && !found.handlerPath) void save.run();
  };

  return (
    <form
      ref={form}
      className="dash-form dash-inline-form"
      noValidate
      onSubmit={onSubmit}
      aria-label={existing ? `Edit ${existing.domain}` : "Add a domain"}
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel?.();
      }}
    >
      <Field
        label="Domain"
        type="url"
        placeholder="https://example.com"
        value={domain}
        error={errors.domain}
        onChange={(event) => setDomain(event.target.value)}
      />
      <Field
        label="Handler path"
        value={handlerPath}
        error={errors.handlerPath}
        hint="Where the app serves Gatehouse's handler pages."
        onChange={(event) => setHandlerPath(event.target.value)}
      />
      {save.error && <Alert>{save.error}</Alert>}
      <div className="dash-actions">
        <Button type="submit" variant="primary" pending={save.pending}>
          {existing ? "Save domain" : "Add domain"}
        </Button>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      </div>
    </form>
  );
}
