// The project's trusted domains (WIRE.md §7): origins that callback and redirect URLs may point to, each with the
// path of its handler pages; add, change and remove (after confirming). The whole list is written on every change.
import type { OwnedProject } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";
import { ConfirmButton, FormRow, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { saveProject, type TrustedDomain, useProjectSettings } from "./project-settings.ts";

/** As the server checks it: `http(s)://host[:port]`, nothing after the port (contract schemas/projects.ts). */
const ORIGIN = /^https?:\/\/([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function domainProblem(domain: string, others: string[]): DashboardKey | null {
  if (domain === "") return "domains.err.empty";
  if (!/^https?:\/\//i.test(domain)) return "domains.err.scheme";
  if (!ORIGIN.test(domain)) return "domains.err.origin";
  if (others.includes(domain)) return "domains.err.duplicate";
  return null;
}

export function TrustedDomains({ project }: { project: OwnedProject }) {
  const domains = useProjectSettings(project).config.domains;
  const t = useDashboardTranslation();
  const [editing, setEditing] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const write = (list: TrustedDomain[]) => saveProject(project, { config: { domains: list } });

  return (
    <>
      {domains.length === 0 ? (
        <p className="dash-muted">{t("domains.none")}</p>
      ) : (
        <TableScroll label={t("domains.table")}>
          <table className="dash-table" aria-label={t("domains.trusted")}>
            <TableHead columns={[t("domains.domain"), t("domains.handlerPath")]} actions />
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
                        setStatus(t("domains.saved", { domain: changed.domain }));
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
                        <Button
                          aria-label={t("domains.editName", { domain: entry.domain })}
                          onClick={() => setEditing(entry.domain)}
                        >
                          {t("domains.edit")}
                        </Button>
                        <ConfirmButton
                          label={t("domains.remove")}
                          name={t("domains.removeName", { domain: entry.domain })}
                          confirmLabel={t("domains.removeYes")}
                          question={t("domains.removeQuestion", { domain: entry.domain })}
                          onConfirm={async () => {
                            await write(domains.filter((d) => d.domain !== entry.domain));
                            setStatus(t("domains.removed", { domain: entry.domain }));
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
      <h3 className="dash-subheading">{t("domains.addTitle")}</h3>
      <DomainForm
        others={domains.map((d) => d.domain)}
        onSave={async (added) => {
          await write([...domains, added]);
          setStatus(t("domains.added", { domain: added.domain }));
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
  const t = useDashboardTranslation();
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
    if (domainError) found.domain = t(domainError);
    if (!handlerPath.trim().startsWith("/")) found.handlerPath = t("domains.err.path");
    setErrors(found);
    if (!found.domain && !found.handlerPath) void save.run();
  };

  return (
    <form
      ref={form}
      className="dash-form dash-inline-form"
      noValidate
      onSubmit={onSubmit}
      aria-label={existing ? t("domains.editName", { domain: existing.domain }) : t("domains.addTitle")}
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel?.();
      }}
    >
      <Field
        label={t("domains.domain")}
        type="url"
        placeholder="https://example.com"
        value={domain}
        error={errors.domain}
        onChange={(event) => setDomain(event.target.value)}
      />
      <Field
        label={t("domains.handlerPath")}
        value={handlerPath}
        error={errors.handlerPath}
        hint={t("domains.handlerHint")}
        onChange={(event) => setHandlerPath(event.target.value)}
      />
      {save.error && <Alert>{save.error}</Alert>}
      <div className="dash-actions">
        <Button type="submit" variant="primary" pending={save.pending}>
          {existing ? t("domains.save") : t("domains.add")}
        </Button>
        {onCancel && <Button onClick={onCancel}>{t("common.cancel")}</Button>}
      </div>
    </form>
  );
}
