// Team permissions: the project's definitions as a tree (each with what it contains), creating, renaming, editing
// and deleting them, and the permissions granted by default to team creators and members (WIRE.md §4.12, §6).
import { ScreenHeader } from "../layout.tsx";
import { useDashboardTranslation } from "../messages.ts";
import type { ProjectScreenProps } from "../project.tsx";
import { TableHead, TableScroll } from "./bricks.tsx";
import { DefaultPermissions } from "./settings/default-permissions.tsx";
import { isSystemPermission, usePermissionDefinitions } from "./settings/permission-definitions.ts";
import { PermissionForm } from "./settings/permission-form.tsx";
import { PermissionTree } from "./settings/permission-tree.tsx";

export function PermissionsPage({ project }: ProjectScreenProps) {
  const definitions = usePermissionDefinitions(project);
  const system = definitions.filter((d) => isSystemPermission(d.id));
  const t = useDashboardTranslation();
  return (
    <>
      <ScreenHeader title={t("nav.permissions")} />
      <section className="dash-panel" aria-labelledby="permission-definitions">
        <h2 id="permission-definitions">{t("perm.definitions")}</h2>
        <PermissionTree project={project} definitions={definitions} />
      </section>
      <section className="dash-panel" aria-labelledby="new-permission">
        <h2 id="new-permission">{t("perm.new")}</h2>
        <PermissionForm project={project} definitions={definitions} />
      </section>
      <section className="dash-panel" aria-labelledby="default-permissions">
        <h2 id="default-permissions">{t("perm.defaults")}</h2>
        <p className="dash-muted">{t("perm.defaultsExplain")}</p>
        <DefaultPermissions project={project} definitions={definitions} />
      </section>
      <section className="dash-panel" aria-labelledby="system-permissions">
        <h2 id="system-permissions">{t("perm.system")}</h2>
        <p className="dash-muted">{t("perm.systemExplain")}</p>
        <TableScroll label={t("perm.systemTable")}>
          <table className="dash-table">
            <TableHead columns={[t("perm.idCol"), t("perm.descriptionCol")]} />
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
