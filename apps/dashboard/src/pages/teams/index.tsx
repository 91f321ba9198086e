// The project's teams: a table (the server lists every team at once, oldest first, with no search or paging, so the
// filter and the pages are the browser's), and the form that creates a team, optionally with a creator (picked
// by searching the project's users).
import { Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useDeferredValue, useState } from "react";
import { useQuery } from "../../data.ts";
import { ScreenHeader } from "../../layout.tsx";
import { useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { Link } from "../../router.tsx";
import { Part, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { CreatePanel, checked, When } from "../users/bricks.tsx";
import { type PickedUser, UserPicker } from "../users/user-picker.tsx";
import { teamsChanged } from "./team-page.tsx";

const PAGE_SIZE = 50;

export const teamsKey = (project: { id: string }) => projectKey(project, "teams", "all");

export function TeamsPage({ project }: ProjectScreenProps) {
  const [filter, setFilter] = useState("");
  const [creating, setCreating] = useState(false);
  const deferred = useDeferredValue(filter.trim().toLowerCase());
  const t = useDashboardTranslation();
  return (
    <>
      <ScreenHeader title={t("nav.teams")}>
        <Button variant="primary" aria-expanded={creating} onClick={() => setCreating(!creating)}>
          {t("teams.new")}
        </Button>
      </ScreenHeader>
      {creating && <CreateTeam project={project} onClose={() => setCreating(false)} />}
      <div className="dash-toolbar">
        <Field
          label={t("teams.filter")}
          type="search"
          value={filter}
          placeholder={t("teams.filterPlaceholder")}
          onChange={(event) => setFilter(event.target.value)}
        />
      </div>
      <Part label="teams" reads={teamsKey(project)}>
        <TeamsTable project={project} filter={deferred} />
      </Part>
    </>
  );
}

function TeamsTable({ project, filter }: ProjectScreenProps & { filter: string }) {
  const teams = useQuery(teamsKey(project), () => project.app.listTeams());
  const [page, setPage] = useState(0);
  const t = useDashboardTranslation();
  const shown = filter
    ? teams.filter((team) => team.displayName.toLowerCase().includes(filter) || team.id === filter)
    : teams;
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  if (teams.length === 0) return <p className="dash-panel dash-muted">{t("teams.none")}</p>;
  if (shown.length === 0) return <p className="dash-panel dash-muted">{t("teams.noMatch", { filter })}</p>;
  return (
    <div>
      <TableScroll label={t("teams.table")}>
        <table className="dash-table">
          <caption className="dash-sr-only">{t("teams.caption")}</caption>
          <TableHead columns={[t("teams.col.name"), t("teams.col.id"), t("overview.created")]} />
          <tbody>
            {shown.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE).map((team) => (
              <tr key={team.id}>
                <td>
                  <Link to={`/projects/${project.id}/teams/${team.id}`}>{team.displayName}</Link>
                </td>
                <td className="dash-mono">{team.id}</td>
                <td>
                  <When date={team.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {pages > 1 && (
        <nav className="dash-pager" aria-label={t("teams.pages")}>
          <Button disabled={current === 0} onClick={() => setPage(current - 1)}>
            {t("pager.previous")}
          </Button>
          <span className="dash-muted">{t("pager.page", { page: current + 1, pages })}</span>
          <Button disabled={current === pages - 1} onClick={() => setPage(current + 1)}>
            {t("pager.next")}
          </Button>
        </nav>
      )}
    </div>
  );
}

type Errors = { name?: string; creator?: string };

function CreateTeam({ project, onClose }: ProjectScreenProps & { onClose: () => void }) {
  const [name, setName] = useState("");
  const [creator, setCreator] = useState<PickedUser | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<{ to: string; name: string } | null>(null);
  const t = useDashboardTranslation();
  const create = useFormAction(
    async () => {
      const team = await project.app.createTeam({
        displayName: name.trim(),
        creatorUserId: creator?.id,
      });
      teamsChanged(project);
      setCreated({ to: `/projects/${project.id}/teams/${team.id}`, name: team.displayName });
      setName("");
      setCreator(null);
    },
    // The chosen user was deleted meanwhile.
    { USER_ID_DOES_NOT_EXIST: () => t("teams.userGone") },
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Errors = {};
    if (!name.trim()) found.name = t("teams.nameMissing");
    const typed = event.currentTarget.querySelector<HTMLInputElement>("input[name=creator]")?.value.trim();
    if (!creator && typed) found.creator = t("teams.creatorPick");
    setErrors(found);
    setCreated(null);
    checked(event.currentTarget, found, () => void create.run());
  };
  return (
    <CreatePanel
      id="create-team"
      title={t("teams.new")}
      submit={t("teams.create")}
      action={create}
      created={created}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Field
        label={t("teams.name")}
        name="name"
        value={name}
        maxLength={256}
        error={errors.name}
        onChange={(event) => setName(event.target.value)}
      />
      <UserPicker
        project={project}
        label={t("teams.creator")}
        name="creator"
        value={creator}
        error={errors.creator}
        hint={t("teams.creatorHint")}
        onChange={setCreator}
      />
    </CreatePanel>
  );
}
