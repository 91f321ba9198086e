// Team permissions: the project's definitions as a tree (each with what it contains), creating, renaming, editing
// and deleting them, and the permissions granted by default to team creators and members (WIRE.md §4.12, §6).
import { ScreenHeader } from "../layout.tsx";
import type { ProjectScreenProps } from "../project.tsx";
import { TableHead, TableScroll } from "./bricks.tsx";
import { DefaultPermissions } from "./settings/default-permissions.tsx";
import { isSystemPermission, usePermissionDefinitions } from "./settings/permission-definitions.ts";
import { PermissionForm } from "./settings/permission-form.tsx";
import { PermissionTree } from "./settings/permission-tree.tsx";

export function PermissionsPage({ project }: ProjectScreenProps) {
  const definitions = usePermissionDefinitions(project);
  const system = definitions.filter((d) => isSystemPermission(d.id));
  return (
    <>
      <ScreenHeader title="Team permissions" />
      <section className="dash-panel" aria-labelledby="permission-definitions">
        <h2 id="permission-definitions">Permission definitions</h2>
        <PermissionTree project={project} definitions={definitions} />
      </section>
      <section className="dash-panel" aria-labelledby="new-permission">
        <h2 id="new-permission">New permission</h2>
        <PermissionForm project={project} definitions={definitions} />
      </section>
      <section className="dash-panel" aria-labelledby="default-permissions">
        <h2 id="default-permissions">Default permissions</h2>
        <p className="dash-muted">
          Granted when someone creates a team or joins one. Changing them does not affect existing members.
        </p>
        <DefaultPermissions project={project} definitions={definitions} />
      </section>
      <section className="dash-panel" aria-labelledby="system-permissions">
        <h2 id="system-permissions">System permissions</h2>
        <p className="dash-muted">Built in: they can be contained and granted, but not changed.</p>
        <TableScroll label="System permissions table">
          <table className="dash-table">
            <TableHead columns={["Id", "Description"]} />
            <tbody>
              {system.map((d) => (
                <tr key={d.id}>
                  <td className="dash-mono">{d.id}</td>
                  <td>{d.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>
    </>
  );
}
