// Teams: the user's teams, creating one (when the project lets clients), and the chosen team's details below.
import type { CurrentUser } from "@gatehouse/sdk";
import { Suspense, useState } from "react";
import { useProject, useTeams } from "../../hooks.ts";
import { useTranslation } from "../../i18n.ts";
import { Button, Muted, Section, Spinner } from "../../ui/primitives.tsx";
import { NameForm } from "./name-form.tsx";
import { TeamDetails } from "./team-details.tsx";

export function TeamsSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const teams = useTeams();
  const project = useProject();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const chosen =
    teams.find((team) => team.id === chosenId) ??
    teams.find((team) => team.id === user.selectedTeam?.id) ??
    teams[0] ??
    null;

  return (
    <Section title={t("account.teams.title")}>
      {teams.length === 0 ? (
        <Muted>{t("account.teams.none")}</Muted>
      ) : (
        <ul className="gh-list" aria-label={t("account.teams.listLabel")}>
          {teams.map((team) => (
            <li key={team.id} className="gh-list-item">
              <span className="gh-text">{team.displayName}</span>
              <Button aria-pressed={team.id === chosen?.id} onClick={() => setChosenId(team.id)}>
                {t("account.teams.manage", { team: team.displayName })}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {project.config.clientTeamCreationEnabled && <CreateTeam user={user} onCreated={setChosenId} />}
      {chosen && (
        <Suspense fallback={<Spinner label={t("common.loading")} />}>
          <TeamDetails key={chosen.id} user={user} team={chosen} />
        </Suspense>
      )}
    </Section>
  );
}

function CreateTeam({ user, onCreated }: { user: CurrentUser; onCreated: (teamId: string) => void }) {
  const t = useTranslation();
  return (
    <NameForm
      label={t("account.teams.newName")}
      initial={null}
      required
      clearOnSave
      saveLabel={t("account.teams.create")}
      onSave={async (displayName) =>
        onCreated((await user.createTeam({ displayName: displayName ?? "" })).id)
      }
    />
  );
}
