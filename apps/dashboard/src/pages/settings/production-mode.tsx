// Allow localhost, and the production-mode switch (WIRE.md §7): before turning it on, the project is read again and
// any problem that would block it is listed in the server's words; the switch refuses while one remains. The
// server checks the same rules and its 400 refusal (one problem per line) is shown in place too.
import type { OwnedProject } from "@gatehouse/react";
import { Alert } from "@gatehouse/react/ui";
import { useState } from "react";
import { invalidate } from "../../data.ts";
import { useDashboardTranslation } from "../../messages.ts";
import { useFormAction } from "../form.ts";
import { Switch } from "./controls.tsx";
import { saveProject, settingsKey, settingsOf, useProjectSettings } from "./project-settings.ts";

export function AllowLocalhost({ project }: { project: OwnedProject }) {
  const { config } = useProjectSettings(project);
  const t = useDashboardTranslation();
  const [status, setStatus] = useState<string | null>(null);
  const change = useFormAction(async (on: boolean) => {
    setStatus(null);
    await saveProject(project, { config: { allowLocalhost: on } });
    setStatus(on ? t("localhost.on") : t("localhost.off"));
  });
  return (
    <div className="dash-form">
      <Switch
        label={t("localhost.label")}
        hint={t("localhost.hint")}
        checked={config.allowLocalhost}
        onChange={(on) => void change.run(on)}
      />
      {change.error && <Alert>{change.error}</Alert>}
      {status && <Alert kind="success">{status}</Alert>}
    </div>
  );
}

/** The problems that block production mode, from a fresh read: the server's list, else the SDK's. */
async function currentProblems(project: OwnedProject): Promise<string[]> {
  const fresh = await project.app.getProject();
  const fromServer = settingsOf(fresh).productionModeErrors;
  return fromServer ?? (await fresh.getProductionModeErrors()).map((problem) => problem.message);
}

export function ProductionMode({ project }: { project: OwnedProject }) {
  const settings = useProjectSettings(project);
  const t = useDashboardTranslation();
  const [refused, setRefused] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const problems = settings.productionModeErrors ?? [];

  const change = useFormAction(async (on: boolean) => {
    setRefused(false);
    setStatus(null);
    if (on) {
      const found = await currentProblems(project);
      if (found.length > 0) {
        setRefused(true);
        // Show the list just read, which may differ from the one on screen.
        invalidate(settingsKey(project));
        return;
      }
    }
    await saveProject(project, { isProductionMode: on });
    setStatus(on ? t("production.on") : t("production.off"));
  });

  return (
    <div className="dash-form dash-production">
      <Switch
        label={t("domains.production")}
        hint={t("production.hint")}
        checked={settings.isProductionMode}
        onChange={(on) => void change.run(on)}
      />
      {refused && problems.length > 0 && <Alert>{t("production.refused")}</Alert>}
      {!settings.isProductionMode &&
        (problems.length > 0 ? (
          <div>
            <p className="dash-muted" id="production-problems">
              {t("production.problems")}
            </p>
            <ul className="dash-problems" aria-labelledby="production-problems">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </div>
        ) : (
          <p className="dash-muted">{t("production.clear")}</p>
        ))}
      {change.error && <Alert>{change.error}</Alert>}
      {status && <Alert kind="success">{status}</Alert>}
    </div>
  );
}
