// The project's webhooks: the endpoints that receive its events (add, edit, enable/disable, delete), their signing
// secrets, test events and recent delivery attempts. Gatehouse delivers the events itself (WIRE.md §4.16).
import { Button, Muted } from "@gatehouse/react/ui";
import { useState } from "react";
import { invalidate, useQuery } from "../data.ts";
import { ScreenHeader } from "../layout.tsx";
import { useDashboardTranslation } from "../messages.ts";
import type { ProjectScreenProps } from "../project.tsx";
import { Part } from "./bricks.tsx";
import { EndpointCard, webhooksKey } from "./delivery/webhook-endpoint.tsx";
import { EndpointForm } from "./delivery/webhook-form.tsx";

export function WebhooksPage({ project }: ProjectScreenProps) {
  const [adding, setAdding] = useState(false);
  const t = useDashboardTranslation();
  return (
    <>
      <ScreenHeader title={t("nav.webhooks")}>
        {!adding && (
          <Button variant="primary" onClick={() => setAdding(true)}>
            {t("webhooks.add")}
          </Button>
        )}
      </ScreenHeader>
      <Muted>{t("webhooks.explain")}</Muted>
      {adding && (
        <section className="dash-panel" aria-labelledby="add-endpoint">
          <h2 id="add-endpoint">{t("webhooks.addTitle")}</h2>
          <Part label={t("hook.part.eventTypes")}>
            <EndpointForm
              project={project}
              submitLabel={t("webhooks.add")}
              onCancel={() => setAdding(false)}
              onSubmit={async (values) => {
                await project.app.createWebhookEndpoint(values);
                invalidate(webhooksKey(project, "endpoints"));
                setAdding(false);
              }}
            />
          </Part>
        </section>
      )}
      <Part label={t("hook.part.endpoints")} reads={webhooksKey(project, "endpoints")}>
        <Endpoints project={project} />
      </Part>
    </>
  );
}

function Endpoints({ project }: ProjectScreenProps) {
  const endpoints = useQuery(webhooksKey(project, "endpoints"), () => project.app.listWebhookEndpoints());
  const t = useDashboardTranslation();
  if (endpoints.length === 0)
    return (
      <section className="dash-panel">
        <Muted>{t("webhooks.none")}</Muted>
      </section>
    );
  return (
    <div className="dash-endpoints">
      {endpoints.map((endpoint) => (
        <EndpointCard key={endpoint.id} project={project} endpoint={endpoint} />
      ))}
    </div>
  );
}
