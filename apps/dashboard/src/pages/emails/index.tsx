// The e-mail screen: the project's sender (shared or its own SMTP server, with a test e-mail), the templates with
// their editor and live preview, and the outbox that is also the development inbox. One tab at a time.
import { type KeyboardEvent, useState } from "react";
import { ScreenHeader } from "../../layout.tsx";
import type { ProjectScreenProps } from "../../project.tsx";
import { Part } from "../bricks.tsx";
import { Outbox } from "./outbox.tsx";
import { SmtpSettings } from "./smtp-settings.tsx";
import { EmailTemplates } from "./templates.tsx";

const TABS = [
  { id: "settings", label: "Settings" },
  { id: "templates", label: "Templates" },
  { id: "outbox", label: "Outbox" },
] as const;
type TabId = (typeof TABS)[number]["id"];

export function EmailsPage({ project }: ProjectScreenProps) {
  const [tab, setTab] = useState<TabId>("settings");
  // Arrow keys move between tabs (the tablist pattern); the chosen tab takes the focus.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    const index = (TABS.findIndex((t) => t.id === tab) + step + TABS.length) % TABS.length;
    const next = TABS[index] as (typeof TABS)[number];
    setTab(next.id);
    document.getElementById(`email-tab-${next.id}`)?.focus();
  };
  return (
    <>
      <ScreenHeader title="E-mails" />
      <div className="dash-tabs" role="tablist" aria-label="E-mail sections" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`email-tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={t.id === tab}
            aria-controls={`email-panel-${t.id}`}
            tabIndex={t.id === tab ? 0 : -1}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div id={`email-panel-${tab}`} role="tabpanel" aria-labelledby={`email-tab-${tab}`}>
        {tab === "settings" && (
          <Part label="e-mail settings">
            <SmtpSettings project={project} />
          </Part>
        )}
        {tab === "templates" && (
          <section className="dash-panel" aria-labelledby="email-templates">
            <h2 id="email-templates">Templates</h2>
            <Part label="templates">
              <EmailTemplates project={project} />
            </Part>
          </section>
        )}
        {tab === "outbox" && <Outbox project={project} />}
      </div>
    </>
  );
}
