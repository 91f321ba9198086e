// Allow localhost, and the production-mode switch (WIRE.md §7): before turning it on, the project is read again and
// any problem that would block it is listed in the server's words; the switch refuses while one remains. The
// server checks the same rules and its 400 refusal (one problem per line) is shown in place too.
import type { OwnedProject } from "@gatehouse/react";
import { Alert } from "@gatehouse/react/ui";
import { useState } from "react";
import { invalidate } from "../../data.ts";
import { useFormAction } from "../form.ts";
import { Switch } from "./controls.tsx";
import { saveProject, settingsKey, settingsOf, useProjectSettings } from "./project-settings.ts";

export function AllowLocalhost({ project }: { project: OwnedProject }) {
  const { config } = useProjectSettings(project);
  const [status, setStatus] = useState<string | null>(null);
  const change = useFormAction(async (on: boolean) => {
    setStatus(null);
    await saveProject(project, { config: { allowLocalhost: on } });
    setStatus(on ? "Localhost is allowed." : "Localhost is no longer allowed.");
  });
  return (
    <div className="dash-form">
      <Switch
        label="Allow localhost"
        hint="Trust localhost, *.localhost, 127.0.0.1 and [::1] on any port, for development."
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
    setStatus(on ? "Production mode is on." : "Production mode is off.");
  });

  return (
    <div className="dash-form dash-production">
      <Switch
        label="Production mode"
        hint="Enforces the rules below: no localhost, and trusted domains over HTTPS only."
        checked={settings.isProductionMode}
        onChange={(on) => void change.run(on)}
      />
      {refused && problems.length > 0 && (
        <Alert>Production mode cannot be turned on until these problems are fixed.</Alert>
      )}
      {!settings.isProductionMode &&
        (problems.length > 0 ? (
          <div>
            <p className="dash-muted" id="production-problems">
              These problems block production mode:
            </p>
            <ul className="dash-problems" aria-labelledby="production-problems">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </div>
        ) : (
          <p className="dash-muted">Nothing blocks production mode.</p>
        ))}
      {change.error && <Alert>{change.error}</Alert>}
      {status && <Alert kind="success">{status}</Alert>}
    </div>
  );
}
