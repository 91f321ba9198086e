// A new key set, shown once (keys are stored as hashes, so nobody can show them again): each key with its Copy
// button, and the same keys as a ready-to-paste `.env` block in the variables Stack Auth's SDKs (and ours) read.
// [GO] Also a new OAuth app's id and secret (`texts` and no `.env` block: an app's settings are not Stack's).
import { Alert, Button } from "@gatehouse/react/ui";
import { useDashboardTranslation } from "../messages.ts";
import type { ProjectScreenProps } from "../project.tsx";
import { serverUrl } from "../stack.ts";
import { CopyButton } from "./copy.tsx";

export type RevealedKey = { label: string; value: string; env: string };
export type Revealed = { description: string; keys: RevealedKey[] };
/** What the panel says when it shows something other than API keys, which has no `.env` block then. */
export type RevealTexts = { title: string; notice: string; done: string };

/** The `.env` lines for a project's new keys, in the order Stack Auth's dashboard shows them, then the API URL. */
export function envBlock(projectId: string, keys: RevealedKey[], apiUrl: string): string {
  return [
    `NEXT_PUBLIC_STACK_PROJECT_ID=${projectId}`,
    ...keys.map((key) => `${key.env}=${key.value}`),
    `NEXT_PUBLIC_STACK_API_URL=${apiUrl}`,
  ].join("\n");
}

export function Reveal({
  project,
  revealed,
  texts,
  onDone,
}: ProjectScreenProps & { revealed: Revealed; texts?: RevealTexts; onDone: () => void }) {
  const t = useDashboardTranslation();
  const env = envBlock(project.id, revealed.keys, serverUrl());
  return (
    <section className="dash-panel" aria-labelledby="new-api-keys">
      <h2 id="new-api-keys">{texts?.title ?? t("keys.newKeys", { description: revealed.description })}</h2>
      {texts?.notice !== "" && <Alert kind="info">{texts?.notice ?? t("keys.copyNow")}</Alert>}
      <dl className="dash-reveal">
        {!texts && <CopyRow label={t("overview.projectId")} value={project.id} />}
        {revealed.keys.map((key) => (
          <CopyRow key={key.label} label={key.label} value={key.value} />
        ))}
      </dl>
      {!texts && (
        <div className="dash-env">
          <h3>{t("keys.env")}</h3>
          <pre className="dash-code-block">{env}</pre>
          <div className="dash-actions">
            <CopyButton value={env} what={t("keys.envBlock")} />
          </div>
        </div>
      )}
      <Button variant="primary" onClick={onDone}>
        {texts?.done ?? t("keys.done")}
      </Button>
    </section>
  );
}

export function CopyRow({ label, value }: { label: string; value: string }) {
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
