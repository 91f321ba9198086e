// One webhook endpoint: its settings (edit, enable/disable, delete), its signing secret (shown on request, rotated
// after confirmation), a test event with its result in place, and the table of its recent delivery attempts.
import type { WebhookAttempt, WebhookEndpoint } from "@gatehouse/react";
import { Alert, Button, Muted } from "@gatehouse/react/ui";
import { useState } from "react";
import { invalidate, useQuery } from "../../data.ts";
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
    <article className="dash-panel dash-endpoint" aria-label={`Endpoint ${name}`}>
      <div className="dash-screen-header">
        <div>
          <h2 className="dash-mono dash-endpoint-url">{endpoint.url}</h2>
          {endpoint.description && <p className="dash-muted">{endpoint.description}</p>}
        </div>
        <span className={`dash-badge ${endpoint.enabled ? "dash-ok" : "dash-bad"}`}>
          {endpoint.enabled ? "Enabled" : "Disabled"}
        </span>
      </div>
      <p className="dash-muted">
        Events:{" "}
        {endpoint.filterTypes ? (
          <span className="dash-mono">{endpoint.filterTypes.join(", ")}</span>
        ) : (
          "all events"
        )}
      </p>

      {editing ? (
        <Part label="event types">
          <EndpointForm
            project={project}
            endpoint={endpoint}
            submitLabel="Save endpoint"
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
          <Button onClick={() => setEditing(true)}>Edit</Button>
          <Button pending={toggle.pending} onClick={() => void toggle.run()}>
            {endpoint.enabled ? "Disable" : "Enable"}
          </Button>
          <Button variant="primary" pending={sendTest.pending} onClick={() => void sendTest.run()}>
            Send test event
          </Button>
          <ConfirmButton
            label="Delete"
            name={`Delete endpoint ${name}`}
            question="Delete this endpoint and stop its deliveries?"
            confirmLabel="Delete endpoint"
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
        <h3>Signing secret</h3>
        {secret ? (
          <>
            <input
              className="dash-code-block dash-secret-value"
              readOnly
              aria-label="Signing secret"
              value={secret.value}
              onFocus={(event) => event.currentTarget.select()}
            />
            {secret.rotated && (
              <Alert kind="success">
                New secret made. For 24 hours deliveries are signed with both the new and the old secret.
              </Alert>
            )}
          </>
        ) : (
          <Muted>Receivers check the svix-signature header with this secret.</Muted>
        )}
        <div className="dash-actions">
          {secret ? (
            <Button onClick={() => setSecret(null)}>Hide secret</Button>
          ) : (
            <Button pending={showSecret.pending} onClick={() => void showSecret.run()}>
              Show secret
            </Button>
          )}
          <ConfirmButton
            label="Rotate secret"
            question="Make a new secret? Receivers must switch to it within 24 hours."
            confirmLabel="Rotate"
            variant="secondary"
            pending={rotate.pending}
            error={rotate.error}
            onConfirm={rotate.run}
          />
        </div>
        {showSecret.error && <Alert>{showSecret.error}</Alert>}
      </div>

      <details className="dash-attempts">
        <summary>Recent attempts</summary>
        <Part label="attempts" reads={webhooksKey(project, "attempts", endpoint.id)}>
          <Attempts project={project} endpointId={endpoint.id} />
        </Part>
      </details>
    </article>
  );
}

function TestResult({ attempt }: { attempt: WebhookAttempt }) {
  const http = attempt.responseStatusCode === null ? "" : `HTTP ${attempt.responseStatusCode}, `;
  return attempt.status === "succeeded" ? (
    <Alert kind="success">
      Test event delivered: {http}
      {attempt.durationMillis} ms.
    </Alert>
  ) : (
    <Alert>
      Test event failed: {http}
      {attempt.error ?? "the receiver did not answer with a 2xx status."}
    </Alert>
  );
}

const STATUS: Record<WebhookAttempt["status"], { label: string; tone: string }> = {
  succeeded: { label: "Succeeded", tone: "dash-ok" },
  failed: { label: "Failed", tone: "dash-bad" },
  pending: { label: "Pending", tone: "" },
};

function Attempts({ project, endpointId }: ProjectScreenProps & { endpointId: string }) {
  const attempts = useQuery(webhooksKey(project, "attempts", endpointId), () =>
    project.app.listWebhookAttempts(endpointId),
  );
  if (attempts.length === 0) return <Muted>No delivery attempts yet.</Muted>;
  return (
    <>
      <div className="dash-actions">
        <Button onClick={() => invalidate(webhooksKey(project, "attempts", endpointId))}>
          Refresh attempts
        </Button>
      </div>
      <TableScroll label="Delivery attempts table">
        <table className="dash-table">
          <caption className="dash-sr-only">Recent delivery attempts, newest first</caption>
          <TableHead columns={["Event", "Status", "HTTP", "Response", "Error", "Time", "Duration"]} />
          <tbody>
            {attempts.map((attempt) => (
              <tr key={attempt.id}>
                <td className="dash-mono">
                  {attempt.eventType}
                  {attempt.attemptNumber > 1 && (
                    <span className="dash-muted"> (try {attempt.attemptNumber})</span>
                  )}
                </td>
                <td>
                  <span className={`dash-badge ${STATUS[attempt.status].tone}`}>
                    {STATUS[attempt.status].label}
                  </span>
                  {attempt.nextAttemptAt && (
                    <span className="dash-muted"> next {dateTime(attempt.nextAttemptAt)}</span>
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
