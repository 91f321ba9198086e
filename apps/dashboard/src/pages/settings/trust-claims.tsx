// The rest of Trust & safety: the new-device e-mail switch, the access-token claim template (JSON, checked by the
// server on save, its refusal shown in place), and the audit log's retention and webhook events.
import type { OwnedProject } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useDashboardTranslation } from "../../messages.ts";
import { useFormAction } from "../form.ts";
import { JsonEditor } from "../users/bricks.tsx";
import { Switch } from "./controls.tsx";
import { saveProject } from "./project-settings.ts";
import { useTrustConfig } from "./trust.tsx";

export function NewDeviceNotice({ project }: { project: OwnedProject }) {
  const t = useDashboardTranslation();
  const config = useTrustConfig(project);
  const [status, setStatus] = useState<string | null>(null);
  const change = useFormAction(async (on: boolean) => {
    setStatus(null);
    await saveProject(project, { config: { newDeviceNoticeEnabled: on } });
    setStatus(t(on ? "trust.newDeviceOn" : "trust.newDeviceOff"));
  });
  return (
    <div className="dash-form">
      <Switch
        label={t("trust.newDevice")}
        hint={t("trust.newDeviceHint")}
        checked={config.newDeviceNoticeEnabled}
        onChange={(on) => void change.run(on)}
      />
      {change.error && <Alert>{change.error}</Alert>}
      {status && <Alert kind="success">{status}</Alert>}
    </div>
  );
}

/** The SDK reads configuration keys in camelCase; the template is written as documented, in the wire's snake_case. */
function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(v)]),
  );
}

export function AccessTokenClaims({ project }: { project: OwnedProject }) {
  const t = useDashboardTranslation();
  const config = useTrustConfig(project);
  return (
    <JsonEditor
      label={t("trust.claims")}
      submit={t("trust.saveClaims")}
      hint={t("trust.claimsHint")}
      value={snakeKeys(config.accessTokenClaims ?? null)}
      onSave={(template) =>
        saveProject(project, { config: { accessTokenClaims: template as Record<string, unknown> | null } })
      }
    />
  );
}

export function AuditSettings({ project }: { project: OwnedProject }) {
  const t = useDashboardTranslation();
  const config = useTrustConfig(project);
  const [days, setDays] = useState(String(config.auditLogRetentionDays ?? ""));
  const [webhooks, setWebhooks] = useState(config.auditLogWebhooks);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useFormAction(async (retention: number | null) => {
    await saveProject(project, {
      config: { auditLogRetentionDays: retention, auditLogWebhooks: webhooks },
    });
    setSaved(true);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const text = days.trim();
    const n = Number(text);
    const valid = text === "" || (/^\d+$/.test(text) && n >= 1 && n <= 36500);
    setError(valid ? null : t("trust.err.retention"));
    if (valid) void save.run(text === "" ? null : n);
  };
  return (
    <form className="dash-form" noValidate onSubmit={submit} aria-label={t("trust.audit")}>
      <Field
        label={t("trust.retention")}
        hint={t("trust.retentionHint")}
        name="retentionDays"
        inputMode="numeric"
        value={days}
        onChange={(event) => setDays(event.target.value)}
        error={error}
      />
      <Switch label={t("trust.auditWebhooks")} checked={webhooks} onChange={setWebhooks} />
      {save.error && <Alert>{save.error}</Alert>}
      {saved && <Alert kind="success">{t("trust.saved")}</Alert>}
      <div>
        <Button type="submit" pending={save.pending}>
          {t("trust.saveAudit")}
        </Button>
      </div>
    </form>
  );
}
