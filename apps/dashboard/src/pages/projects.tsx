// The operator's projects (those their teams own) and the form that creates one, which then opens it.
import { useTeams } from "@gatehouse/react";
import { Alert, Button, Field, Muted } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { invalidate } from "../data.ts";
import { TopBar } from "../layout.tsx";
import { useDashboardTranslation } from "../messages.ts";
import { OWNED_PROJECTS, useOperator, useOwnedProjects } from "../project.tsx";
import { Link, navigate } from "../router.tsx";
import { useFormAction } from "./form.ts";

export function ProjectsPage() {
  const projects = useOwnedProjects();
  const t = useDashboardTranslation();
  return (
    <div className="dash-app">
      <TopBar />
      <main className="dash-main dash-narrow">
        <div className="dash-screen-header">
          <h1>{t("projects.title")}</h1>
        </div>
        {projects.length === 0 ? (
          <Muted>{t("projects.none")}</Muted>
        ) : (
          <ul className="dash-cards" aria-label={t("projects.yours")}>
            {projects.map((project) => (
              <li key={project.id}>
                <Link to={`/projects/${project.id}`} className="dash-card-link">
                  <strong>{project.displayName}</strong>
                  <span className="dash-muted">{project.description || t("projects.noDescription")}</span>
                  <span className="dash-muted dash-mono">{project.id}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        <CreateProject />
      </main>
    </div>
  );
}

function CreateProject() {
  const operator = useOperator();
  const t = useDashboardTranslation();
  const teams = useTeams();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [teamId, setTeamId] = useState(operator.selectedTeam?.id ?? teams[0]?.id ?? "");
  const [nameError, setNameError] = useState<string | null>(null);
  const create = useFormAction(async () => {
    const project = await operator.createProject({
      displayName: name.trim(),
      description: description.trim() || undefined,
      teamId,
    });
    invalidate(OWNED_PROJECTS);
    navigate(`/projects/${project.id}`);
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const error = name.trim() ? null : t("projects.nameMissing");
    setNameError(error);
    if (error) event.currentTarget.querySelector<HTMLInputElement>("input")?.focus();
    else void create.run();
  };

  return (
    <section className="dash-panel" aria-labelledby="create-project">
      <h2 id="create-project">{t("projects.create")}</h2>
      <form className="dash-form" noValidate onSubmit={onSubmit}>
        <Field
          label={t("projects.name")}
          value={name}
          maxLength={256}
          error={nameError}
          onChange={(event) => setName(event.target.value)}
        />
        <Field
          label={t("projects.description")}
          value={description}
          maxLength={1024}
          onChange={(event) => setDescription(event.target.value)}
        />
        {teams.length > 1 && (
          <label className="dash-select">
            <span>{t("projects.ownedBy")}</span>
            <select value={teamId} onChange={(event) => setTeamId(event.target.value)}>
              {teams.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.displayName}
                </option>
              ))}
            </select>
          </label>
        )}
        {teams.length === 0 && <Alert>{t("projects.needTeam")}</Alert>}
        {create.error && <Alert>{create.error}</Alert>}
        <div>
          <Button type="submit" variant="primary" pending={create.pending} disabled={teams.length === 0}>
            {t("projects.submit")}
          </Button>
        </div>
      </form>
    </section>
  );
}
