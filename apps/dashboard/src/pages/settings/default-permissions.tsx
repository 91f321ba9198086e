// The permissions granted when a membership is created: to the team's creator and to every other member (WIRE.md §6).
// Saved to the project configuration; changing them does not touch existing members.
import type { OwnedProject } from "@gatehouse/react";
import { Alert, Button } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useDashboardTranslation } from "../../messages.ts";
import { useFormAction } from "../form.ts";
import { CheckList, type CheckOption } from "./controls.tsx";
import type { PermissionDefinition } from "./permission-definitions.ts";
import { saveProject, useProjectSettings } from "./project-settings.ts";

export function DefaultPermissions({
  project,
  definitions,
}: {
  project: OwnedProject;
  definitions: PermissionDefinition[];
}) {
  const { config } = useProjectSettings(project);
  const saved = {
    creator: config.teamCreatorDefaultPermissions.map((p) => p.id),
    member: config.teamMemberDefaultPermissions.map((p) => p.id),
  };
  // Unsaved choices; the saved ones are shown (and follow other screens' changes) until the first tick.
  const [draft, setDraft] = useState<typeof saved | null>(null);
  const [done, setDone] = useState(false);
  const current = draft ?? saved;
  const t = useDashboardTranslation();
  const ERROR_TEXTS = { PERMISSION_NOT_FOUND: () => t("perm.err.gone") };

  const save = useFormAction(async () => {
    await saveProject(project, {
      config: {
        teamCreatorDefaultPermissions: current.creator.map((id) => ({ id })),
        teamMemberDefaultPermissions: current.member.map((id) => ({ id })),
      },
    });
    setDraft(null);
    setDone(true);
  }, ERROR_TEXTS);

  const optionsFor = (chosen: string[]): CheckOption[] => [
    ...definitions.map((d) => ({ id: d.id, note: d.description })),
    ...chosen
      .filter((id) => !definitions.some((d) => d.id === id))
      .map((id) => ({ id, note: t("perm.noLonger") })),
  ];
  const change = (which: "creator" | "member") => (ids: string[]) => {
    setDone(false);
    setDraft({ ...current, [which]: ids });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };

  return (
    <form className="dash-form" noValidate onSubmit={onSubmit} aria-label={t("perm.defaults")}>
      <div className="dash-checklist-pair">
        <CheckList
          legend={t("perm.creators")}
          options={optionsFor(current.creator)}
          selected={current.creator}
          onChange={change("creator")}
        />
        <CheckList
          legend={t("perm.members")}
          options={optionsFor(current.member)}
          selected={current.member}
          onChange={change("member")}
        />
      </div>
      {save.error && <Alert>{save.error}</Alert>}
      {done && <Alert kind="success">{t("perm.defaultsSaved")}</Alert>}
      <div className="dash-actions">
        <Button type="submit" variant="primary" pending={save.pending}>
          {t("perm.saveDefaults")}
        </Button>
        {draft && <Button onClick={() => setDraft(null)}>{t("set.discard")}</Button>}
      </div>
    </form>
  );
}
