// The form that creates a team permission definition or changes one (id, description, contained permissions).
// Renaming changes the id everywhere it is used (WIRE.md §6); the server's refusals are shown in place.
import type { OwnedProject } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useDashboardTranslation } from "../../messages.ts";
import { useFormAction } from "../form.ts";
import { CheckList } from "./controls.tsx";
import {
  definitionsChanged,
  type PermissionDefinition,
  permissionIdProblem,
} from "./permission-definitions.ts";

export function PermissionForm({
  project,
  definitions,
  editing,
  onDone,
}: {
  project: OwnedProject;
  definitions: PermissionDefinition[];
  /** The definition being changed; none for a new one. */
  editing?: PermissionDefinition;
  /** After saving (with the saved id) or cancelling (with null). */
  onDone?: (savedId: string | null) => void;
}) {
  const [id, setId] = useState(editing?.id ?? "");
  const [description, setDescription] = useState(editing?.description ?? "");
  const [contained, setContained] = useState<string[]>(editing?.containedPermissionIds ?? []);
  const [idError, setIdError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const t = useDashboardTranslation();
  const ERROR_TEXTS = {
    PERMISSION_ID_ALREADY_EXISTS: () => t("perm.err.exists"),
    CONTAINED_PERMISSION_NOT_FOUND: () => t("perm.err.containedGone"),
    PERMISSION_NOT_FOUND: () => t("perm.err.notFound"),
  };

  const save = useFormAction(async () => {
    const newId = id.trim();
    try {
      if (editing) {
        await project.app.updateTeamPermissionDefinition(editing.id, {
          id: newId === editing.id ? undefined : newId,
          description: description.trim(),
          containedPermissionIds: contained,
        });
      } else {
        await project.app.createTeamPermissionDefinition({
          id: newId,
          description: description.trim() || undefined,
          containedPermissionIds: contained,
        });
        setId("");
        setDescription("");
        setContained([]);
        setSaved(t("perm.created", { id: newId }));
      }
    } finally {
      definitionsChanged(project);
    }
    onDone?.(newId);
  }, ERROR_TEXTS);

  const others = definitions.map((d) => d.id).filter((other) => other !== editing?.id);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(null);
    const problem = permissionIdProblem(id.trim(), others);
    setIdError(problem && t(problem));
    if (problem) event.currentTarget.querySelector<HTMLInputElement>("input")?.focus();
    else void save.run();
  };
  const options = definitions
    .filter((d) => d.id !== editing?.id)
    .map((d) => ({ id: d.id, note: d.description }));
  // Ids contained but no longer defined stay visible, so they can be unticked.
  for (const gone of contained.filter((c) => !definitions.some((d) => d.id === c))) {
    options.push({ id: gone, note: t("perm.noLonger") });
  }

  return (
    <form
      className="dash-form"
      noValidate
      onSubmit={onSubmit}
      aria-label={editing ? t("perm.editName", { id: editing.id }) : t("perm.new")}
      onKeyDown={(event) => {
        if (event.key === "Escape" && editing) onDone?.(null);
      }}
    >
      <Field
        label={t("perm.id")}
        value={id}
        maxLength={256}
        error={idError}
        hint={editing ? t("perm.renameHint") : t("perm.idHint")}
        autoComplete="off"
        onChange={(event) => setId(event.target.value)}
      />
      <Field
        label={t("perm.description")}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <CheckList legend={t("perm.contains")} options={options} selected={contained} onChange={setContained} />
      {save.error && <Alert>{save.error}</Alert>}
      {saved && <Alert kind="success">{saved}</Alert>}
      <div className="dash-actions">
        <Button type="submit" variant="primary" pending={save.pending}>
          {editing ? t("perm.save") : t("perm.create")}
        </Button>
        {editing && <Button onClick={() => onDone?.(null)}>{t("common.cancel")}</Button>}
      </div>
    </form>
  );
}
