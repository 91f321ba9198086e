// The custom permission definitions as a tree: each with the permissions it contains nested below it (expanded
// through other definitions; system permissions are leaves), with edit and delete on each top-level definition.
import type { OwnedProject } from "@gatehouse/react";
import { Button } from "@gatehouse/react/ui";
import { useId, useState } from "react";
import { useDashboardTranslation } from "../../messages.ts";
import { ConfirmButton } from "../bricks.tsx";
import {
  definitionsChanged,
  isSystemPermission,
  type PermissionDefinition,
} from "./permission-definitions.ts";
import { PermissionForm } from "./permission-form.tsx";

type ById = Map<string, PermissionDefinition>;

export function PermissionTree({
  project,
  definitions,
}: {
  project: OwnedProject;
  definitions: PermissionDefinition[];
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const t = useDashboardTranslation();
  const byId: ById = new Map(definitions.map((d) => [d.id, d]));
  const custom = definitions.filter((d) => !isSystemPermission(d.id));
  if (custom.length === 0) {
    return <p className="dash-muted">{t("perm.none")}</p>;
  }
  return (
    <ul className="dash-tree" aria-label={t("perm.definitions")}>
      {custom.map((definition) =>
        editing === definition.id ? (
          <li key={definition.id} className="dash-tree-root">
            <PermissionForm
              project={project}
              definitions={definitions}
              editing={definition}
              onDone={() => setEditing(null)}
            />
          </li>
        ) : (
          <RootItem
            key={definition.id}
            project={project}
            definition={definition}
            byId={byId}
            onEdit={() => setEditing(definition.id)}
          />
        ),
      )}
    </ul>
  );
}

function RootItem({
  project,
  definition,
  byId,
  onEdit,
}: {
  project: OwnedProject;
  definition: PermissionDefinition;
  byId: ById;
  onEdit: () => void;
}) {
  const nameId = useId();
  const t = useDashboardTranslation();
  return (
    <li className="dash-tree-root" aria-labelledby={nameId}>
      <div className="dash-tree-row">
        <span>
          <strong className="dash-mono" id={nameId}>
            {definition.id}
          </strong>
          {definition.description && <span className="dash-muted"> — {definition.description}</span>}
        </span>
        <span className="dash-actions">
          <Button aria-label={t("perm.editName", { id: definition.id })} onClick={onEdit}>
            {t("domains.edit")}
          </Button>
          <ConfirmButton
            label={t("perm.delete")}
            name={t("perm.deleteName", { id: definition.id })}
            confirmLabel={t("perm.deleteYes")}
            question={t("perm.deleteQuestion", { id: definition.id })}
            onConfirm={async () => {
              try {
                await project.app.deleteTeamPermissionDefinition(definition.id);
              } finally {
                definitionsChanged(project);
              }
            }}
          />
        </span>
      </div>
      <Contained id={definition.id} byId={byId} path={[definition.id]} />
    </li>
  );
}

/** The permissions `id` contains, each with its own; `path` guards against cycles (which the server tolerates). */
function Contained({ id, byId, path }: { id: string; byId: ById; path: string[] }) {
  const ids = byId.get(id)?.containedPermissionIds ?? [];
  const t = useDashboardTranslation();
  if (ids.length === 0) {
    return path.length === 1 ? <p className="dash-muted dash-tree-empty">{t("perm.containsNone")}</p> : null;
  }
  return (
    <ul aria-label={t("perm.in", { id })}>
      {ids.map((child) => {
        const definition = byId.get(child);
        const cycle = path.includes(child);
        return (
          <li key={child}>
            <span className="dash-mono">{child}</span>{" "}
            {isSystemPermission(child) && <span className="dash-badge">{t("perm.badge.system")}</span>}
            {!definition && <span className="dash-badge dash-bad">{t("perm.badge.undefined")}</span>}
            {cycle && <span className="dash-badge">{t("perm.badge.cycle")}</span>}
            {definition?.description && <span className="dash-muted"> — {definition.description}</span>}
            {!cycle && <Contained id={child} byId={byId} path={[...path, child]} />}
          </li>
        );
      })}
    </ul>
  );
}
