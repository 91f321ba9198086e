// One webhook endpoint: its settings (edit, enable/disable, delete), its signing secret (shown on request, rotated
// after confirmation), a test event with its result in place, and the table of its recent delivery attempts.
import type { WebhookAttempt, WebhookEndpoint } from "@gatehouse/react";
import { Alert, Button, Muted } from "@gatehouse/react/ui";
import { useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { ConfirmButton, Part, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { dateTime } from "./confirm.tsx";
import { EndpointForm } from "./webhook-form.tsx";

export const webhooksKey = (project: { id: string }, ...parts: string[]) =>
  projectKey(project, "webhooks", ...parts);

export function EndpointCard({ project, endpoint }: ProjectScreenProps & { endpoint: WebhookEndpoint }) {
  const app = project.app;
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<{ value: string; rotated: boolean } | null>(null);
  const [test, setTest] = useState<WebhookAttempt | null>(null);
  const changed = () => invalidate(webhooksKey(project, "endpoints"));
  const t = useDashboardTranslation();

  const toggle = useFormAction(async () => {
    await app.updateWebhookEndpoint(endpoint.id, { enabled: !endpoint.enabled });
    changed();
  });
  const remove = useFormAction(async () => {
    await app.deleteWebhookEndpoint(endpoint.id);
    changed();
  });
  const showSecret = useFormAction(async () => {
    setSecret({ value: await app.getWebhookEndpointSecret(endpoint.id), rotated: false });
  });
  const rotate = useFormAction(async () => {
    setSecret({ value: await app.rotateWebhookEndpointSecret(endpoint.id), rotated: true });
  });
  const sendTest = useFormAction(async () => {
    setTest(null);
    setTest(await app.sendTestWebhook(endpoint.id));
    invalidate(webhooksKey(project, "attempts", endpoint.id));
  });
  const name = endpoint.description || endpoint.url;

  return (
    <article className="dash-panel dash-endpoint" aria-label={t("hook.endpointName", { name })}>
      <div className="dash-screen-header">
        <div>
          <h2 className="dash-mono dash-endpoint-url">{endpoint.url}</h2>
          {endpoint.description && <p className="dash-muted">{endpoint.description}</p>}
        </div>
        <span className={`dash-badge ${endpoint.enabled ? "dash-ok" : "dash-bad"}`}>
          {endpoint.enabled ? t("hook.enabled") : t("hook.disabled")}
        </span>
      </div>
      <p className="dash-muted">
        {t("hook.events")}{" "}
        {endpoint.filterTypes ? (
          <span className="dash-mono">{endpoint.filterTypes.join(", ")}</span>
        ) : (
          t("hook.allEventsLower")
        )}
      </p>

      {editing ? (
        <Part label={t("hook.part.eventTypes")}>
          <EndpointForm
            project={project}
            endpoint={endpoint}
            submitLabel={t("hook.save")}
            onCancel={() => setEditing(false)}
            onSubmit={async (values) => {
              await app.updateWebhookEndpoint(endpoint.id, values);
              changed();
              setEditing(false);
            }}
          />
        </Part>
      ) : (
        <div className="dash-actions">
          <Button onClick={() => setEditing(true)}>{t("hook.edit")}</Button>
          <Button pending={toggle.pending} onClick={() => void toggle.run()}>
            {endpoint.enabled ? t("hook.disable") : t("hook.enable")}
          </Button>
          <Button variant="primary" pending={sendTest.pending} onClick={() => void sendTest.run()}>
            {t("hook.sendTest")}
          </Button>
          <ConfirmButton
            label={t("hook.delete")}
            name={t("hook.deleteName", { name })}
            question={t("hook.deleteQuestion")}
            confirmLabel={t("hook.deleteYes")}
            pending={remove.pending}
            error={remove.error}
            onConfirm={remove.run}
          />
        </div>
      )}
      {toggle.error && <Alert>{toggle.error}</Alert>}
      {sendTest.error && <Alert>{sendTest.error}</Alert>}
      {test && <TestResult attempt={test} />}

      <div className="dash-secret">
        <h3>{t("hook.secret")}</h3>
        {secret ? (
          <>
            <input
              className="dash-code-block dash-secret-value"
              readOnly
              aria-label={t("hook.secret")}
              value={secret.value}
              onFocus={(event) => event.currentTarget.select()}
            />
            {secret.rotated && <Alert kind="success">{t("hook.rotated")}</Alert>}
          </>
        ) : (
          <Muted>{t("hook.secretExplain")}</Muted>
        )}
        <div className="dash-actions">
          {secret ? (
            <Button onClick={() => setSecret(null)}>{t("hook.hideSecret")}</Button>
          ) : (
            <Button pending={showSecret.pending} onClick={() => void showSecret.run()}>
              {t("hook.showSecret")}
            </Button>
          )}
          <ConfirmButton
            label={t("hook.rotate")}
            question={t("hook.rotateQuestion")}
            confirmLabel={t("hook.rotateYes")}
            variant="secondary"
            pending={rotate.pending}
            error={rotate.error}
            onConfirm={rotate.run}
          />
        </div>
        {showSecret.error && <Alert>{showSecret.error}</Alert>}
      </div>

      <details className="dash-attempts">
        <summary>{t("hook.recent")}</summary>
        <Part label={t("hook.part.attempts")} reads={webhooksKey(project, "attempts", endpoint.id)}>
          <Attempts project={project} endpointId={endpoint.id} />
        </Part>
      </details>
    </article>
  );
}

function TestResult({ attempt }: { attempt: WebhookAttempt }) {
  const t = useDashboardTranslation();
  const http = attempt.responseStatusCode === null ? "" : `HTTP ${attempt.responseStatusCode}, `;
  return attempt.status === "succeeded" ? (
    <Alert kind="success">{t("hook.testDelivered", { http, ms: attempt.durationMillis ?? 0 })}</Alert>
  ) : (
    <Alert>{t("hook.testFailed", { http, error: attempt.error ?? t("hook.no2xx") })}</Alert>
  );
}

const STATUS: Record<WebhookAttempt["status"], { label: DashboardKey; tone: string }> = {
  succeeded: { label: "hook.status.succeeded", tone: "dash-ok" },
  failed: { label: "hook.status.failed", tone: "dash-bad" },
  pending: { label: "hook.status.pending", tone: "" },
};

function Attempts({ project, endpointId }: ProjectScreenProps & { endpointId: string }) {
  const attempts = useQuery(webhooksKey(project, "attempts", endpointId), () =>
    project.app.listWebhookAttempts(endpointId),
  );
  const t = useDashboardTranslation();
  if (attempts.length === 0) return <Muted>{t("hook.noAttempts")}</Muted>;
  return (
    <>
      <div className="dash-actions">
        <Button onClick={() => invalidate(webhooksKey(project, "attempts", endpointId))}>
          {t("hook.refresh")}
        </Button>
      </div>
      <TableScroll label={t("hook.attemptsTable")}>
        <table className="dash-table">
          <caption className="dash-sr-only">{t("hook.attemptsCaption")}</caption>
          <TableHead
            columns={[
              t("hook.col.event"),
              t("hook.col.status"),
              t("hook.col.http"),
              t("hook.col.response"),
              t("hook.col.error"),
              t("hook.col.time"),
              t("hook.col.duration"),
            ]}
          />
          <tbody>
            {attempts.map((attempt) => (
              <tr key={attempt.id}>
                <td className="dash-mono">
                  {attempt.eventType}
                  {attempt.attemptNumber > 1 && (
                    <span className="dash-muted"> {t("hook.try", { n: attempt.attemptNumber })}</span>
                  )}
                </td>
                <td>
                  <span className={`dash-badge ${STATUS[attempt.status].tone}`}>
                    {t(STATUS[attempt.status].label)}
                  </span>
                  {attempt.nextAttemptAt && (
                    <span className="dash-muted">
                      {" "}
                      {t("hook.next", { time: dateTime(attempt.nextAttemptAt) })}
                    </span>
                  )}
                </td>
                <td>{attempt.responseStatusCode ?? "—"}</td>
                <td className="dash-mono dash-excerpt">{attempt.responseBodyExcerpt || "—"}</td>
                <td className="dash-muted">{attempt.error ?? "—"}</td>
                <td>{dateTime(attempt.attemptedAt)}</td>
                <td>{attempt.durationMillis} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
