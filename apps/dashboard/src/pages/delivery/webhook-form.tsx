// The form of a webhook endpoint, for adding one and editing it: its URL (absolute http or https), description,
// which event types it receives (all, or those checked), and whether it is enabled. A refused private address names
// the server setting that allows it.
import type { WebhookEndpoint } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useId, useState } from "react";
import { useQuery } from "../../data.ts";
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { useFormAction } from "../form.ts";

export type EndpointValues = {
  url: string;
  description: string | null;
  filterTypes: string[] | null;
  enabled: boolean;
};

/** Why `url` cannot receive webhooks (a text key), or null. */
export function urlError(url: string): DashboardKey | null {
  if (!url.trim()) return "hook.err.url";
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return null;
  } catch {
    // Not a URL at all: the same message.
  }
  return "hook.err.absolute";
}

/**
 * The server refuses loopback, private and link-local addresses unless its operator allows them (its refusal is a
 * plain sentence, WIRE.md §4.16): the operator is told which setting does.
 */
export function explainRefusal(refusal: string, explanation: string): string {
  if (!/public address/i.test(refusal)) return refusal;
  return `${refusal} ${explanation}`;
}

export function EndpointForm({
  project,
  endpoint,
  submitLabel,
  onSubmit,
  onCancel,
}: ProjectScreenProps & {
  endpoint?: WebhookEndpoint;
  submitLabel: string;
  onSubmit: (values: EndpointValues) => Promise<void>;
  onCancel?: () => void;
}) {
  const eventTypes = useQuery(projectKey(project, "webhooks", "event-types"), () =>
    project.app.listWebhookEventTypes(),
  );
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [allEvents, setAllEvents] = useState(!endpoint?.filterTypes);
  const [types, setTypes] = useState<string[]>(endpoint?.filterTypes ?? []);
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true);
  const [errors, setErrors] = useState<{ url?: string | null; types?: string | null }>({});
  const id = useId();
  const t = useDashboardTranslation();
  const submit = useFormAction(
    async () => {
      await onSubmit({
        url: url.trim(),
        description: description.trim() || null,
        filterTypes: allEvents ? null : eventTypes.filter((type) => types.includes(type)),
        enabled,
      });
    },
    {},
    (refusal) => explainRefusal(refusal, t("hook.err.private")),
  );

  const onFormSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const urlProblem = urlError(url);
    const found = {
      url: urlProblem && t(urlProblem),
      types: !allEvents && types.length === 0 ? t("hook.err.types") : null,
    };
    setErrors(found);
    const form = event.currentTarget;
    if (found.url) form.querySelector<HTMLInputElement>("input.gh-input")?.focus();
    else if (found.types) form.querySelector<HTMLInputElement>(`[data-event-type]`)?.focus();
    else void submit.run();
  };

  return (
    <form className="dash-form" noValidate onSubmit={onFormSubmit} aria-label={submitLabel}>
      <Field
        label={t("hook.url")}
        type="url"
        placeholder="https://example.com/webhooks"
        value={url}
        error={errors.url}
        onChange={(event) => setUrl(event.target.value)}
      />
      <Field
        label={t("hook.description")}
        value={description}
        maxLength={1024}
        onChange={(event) => setDescription(event.target.value)}
      />
      <fieldset className="dash-checks" aria-describedby={errors.types ? `${id}-types-error` : undefined}>
        <legend>{t("hook.eventsLegend")}</legend>
        <label>
          <input type="radio" name={`${id}-events`} checked={allEvents} onChange={() => setAllEvents(true)} />{" "}
          {t("hook.allEvents")}
        </label>
        <label>
          <input
            type="radio"
            name={`${id}-events`}
            checked={!allEvents}
            onChange={() => setAllEvents(false)}
          />{" "}
          {t("hook.onlyThese")}
        </label>
        <div className="dash-event-types">
          {eventTypes.map((type) => (
            <label key={type}>
              <input
                type="checkbox"
                data-event-type={type}
                disabled={allEvents}
                checked={!allEvents && types.includes(type)}
                onChange={(event) =>
                  setTypes(event.target.checked ? [...types, type] : types.filter((other) => other !== type))
                }
              />{" "}
              <span className="dash-mono">{type}</span>
            </label>
          ))}
        </div>
        {errors.types && (
          <p className="gh-field-error" id={`${id}-types-error`} role="alert">
            {errors.types}
          </p>
        )}
      </fieldset>
      <label className="dash-check">
        <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />{" "}
        {t("hook.enabledCheck")}
      </label>
      {submit.error && <Alert>{submit.error}</Alert>}
      <div className="dash-actions">
        <Button type="submit" variant="primary" pending={submit.pending}>
          {submitLabel}
        </Button>
        {onCancel && <Button onClick={onCancel}>{t("common.cancel")}</Button>}
      </div>
    </form>
  );
}
