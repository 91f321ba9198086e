// The e-mail screen: the project's sender (shared or its own SMTP server, with a test e-mail), the templates with
// their editor and live preview, and the outbox that is also the development inbox. One tab at a time.
import { type KeyboardEvent, useState } from "react";
import { ScreenHeader } from "../../layout.tsx";
import { useDashboardTranslation } from "../../messages.ts";
import type { ProjectScreenProps } from "../../project.tsx";
import { Part } from "../bricks.tsx";
import { Outbox } from "./outbox.tsx";
import { SmtpSettings } from "./smtp-settings.tsx";
import { EmailTemplates } from "./templates.tsx";

const TABS = [
  { id: "settings", label: "mail.tab.settings" },
  { id: "templates", label: "mail.tab.templates" },
  { id: "outbox", label: "mail.tab.outbox" },
] as const;
type TabId = (typeof TABS)[number]["id"];

export function EmailsPage({ project }: ProjectScreenProps) {
  const [tab, setTab] = useState<TabId>("settings");
  const t = useDashboardTranslation();
  // Arrow keys move between tabs (the tablist pattern); the chosen tab takes the focus.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    const index = (TABS.findIndex((each) => each.id === tab) + step + TABS.length) % TABS.length;
    const next = TABS[index] as (typeof TABS)[number];
    setTab(next.id);
    document.getElementById(`email-tab-${next.id}`)?.focus();
  };
  return (
    <>
      <ScreenHeader title={t("nav.emails")} />
      <div className="dash-tabs" role="tablist" aria-label={t("mail.tabs")} onKeyDown={onKeyDown}>
        {TABS.map((each) => (
          <button
            key={each.id}
            id={`email-tab-${each.id}`}
            type="button"
            role="tab"
            aria-selected={each.id === tab}
            aria-controls={`email-panel-${each.id}`}
            tabIndex={each.id === tab ? 0 : -1}
            onClick={() => setTab(each.id)}
          >
            {t(each.label)}
          </button>
        ))}
      </div>
      <div id={`email-panel-${tab}`} role="tabpanel" aria-labelledby={`email-tab-${tab}`}>
        {tab === "settings" && (
          <Part label={t("mail.part.settings")}>
            <SmtpSettings project={project} />
          </Part>
        )}
        {tab === "templates" && (
          <section className="dash-panel" aria-labelledby="email-templates">
            <h2 id="email-templates">{t("mail.templates")}</h2>
            <Part label={t("mail.part.templates")}>
              <EmailTemplates project={project} />
            </Part>
          </section>
        )}
        {tab === "outbox" && <Outbox project={project} />}
      </div>
    </>
  );
}
