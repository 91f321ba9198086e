// The teams a user is in (links to the team pages) and their permissions in each, contained ones included;
// permissions are granted and revoked on the team's page.
import { useQuery } from "../../data.ts";
import { useDashboardTranslation } from "../../messages.ts";
import { projectKey } from "../../project.tsx";
import { Link } from "../../router.tsx";
import { TableHead, TableScroll } from "../bricks.tsx";
import type { UserPartProps } from "./user-page.tsx";

export function UserTeams({ project, user }: UserPartProps) {
  const t = useDashboardTranslation();
  const teams = useQuery(projectKey(project, "users", user.id, "teams"), async () => {
    const list = await user.listTeams();
    return Promise.all(
      list.map(async (team) => ({
        team,
        permissions: await user.listPermissions(team, { recursive: true }),
      })),
    );
  });
  if (teams.length === 0) return <p className="dash-muted">{t("userTeams.none")}</p>;
  return (
    <TableScroll label={t("userTeams.table")}>
      <table className="dash-table">
        <TableHead columns={[t("userTeams.col.team"), t("userTeams.col.permissions")]} />
        <tbody>
          {teams.map(({ team, permissions }) => (
            <tr key={team.id}>
              <td>
                <Link to={`/projects/${project.id}/teams/${team.id}`}>{team.displayName}</Link>
              </td>
              <td>
                {permissions.length === 0 ? (
                  <span className="dash-muted">{t("user.none")}</span>
                ) : (
                  <span className="dash-badges">
                    {permissions.map((permission) => (
                      <span key={permission.id} className="dash-badge dash-mono">
                        {permission.id}
                      </span>
                    ))}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
