// The custom permission definitions as a tree: each with the permissions it contains nested below it (expanded
// through other definitions; system permissions are leaves), with edit and delete on each top-level definition.
import type { OwnedProject } from "@gatehouse/react";
import { Button } from "@gatehouse/react/ui";
import { useId, useState } from "react";
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
  const byId: ById = new Map(definitions.map((d) => [d.id, d]));
  const custom = definitions.filter((d) => !isSystemPermission(d.id));
  if (custom.length === 0) {
    return <p className="dash-muted">No permissions defined yet. Create the first one below.</p>;
  }
  return (
    <ul className="dash-tree" aria-label="Permission definitions">
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
          <Button aria-label={`Edit ${definition.id}`} onClick={onEdit}>
            Edit
          </Button>
          <ConfirmButton
            label="Delete"
            name={`Delete ${definition.id}`}
            confirmLabel="Yes, delete"
            question={`Delete ${definition.id}? It is also revoked from every member who has it.`}
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
  if (ids.length === 0) {
    return path.length === 1 ? (
      <p className="dash-muted dash-tree-empty">Contains no other permission.</p>
    ) : null;
  }
  return (
    <ul aria-label={`Permissions in ${id}`}>
      {ids.map((child) => {
        const definition = byId.get(child);
        const cycle = path.includes(child);
        return (
          <li key={child}>
            <span className="dash-mono">{child}</span>{" "}
            {isSystemPermission(child) && <span className="dash-badge">system</span>}
            {!definition && <span className="dash-badge dash-bad">not defined</span>}
            {cycle && <span className="dash-badge">contains itself</span>}
            {definition?.description && <span className="dash-muted"> — {definition.description}</span>}
            {!cycle && <Contained id={child} byId={byId} path={[...path, child]} />}
          </li>
        );
      })}
    </ul>
  );
}
