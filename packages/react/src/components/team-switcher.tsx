// <SelectedTeamSwitcher>: shows the signed-in user's selected team and a menu of their teams; choosing one makes it
// the selected team (Stack's component and props). Renders nothing for a signed-out visitor.
import type { Team } from "@gatehouse/sdk";
import { useProject, useTeams, useUser } from "../hooks.ts";
import { useTranslation } from "../i18n.ts";
import { useStackApp } from "../provider.tsx";
import { Alert, Avatar, Root } from "../ui/primitives.tsx";
import { useAction } from "../ui/use-action.ts";
import { Menu, type MenuItem } from "./user-button.tsx";

export type SelectedTeamSwitcherProps = {
  /** The team to show as selected, instead of the user's selected team. */
  selectedTeam?: Team;
  /** Where to go after choosing a team (a team's page, for example). */
  urlMap?: (team: Team) => string;
  /** Only navigate (with urlMap); leave the user's selected team as it is. */
  noUpdateSelectedTeam?: boolean;
};

export function SelectedTeamSwitcher(props: SelectedTeamSwitcherProps) {
  const user = useUser();
  return user ? <Switcher {...props} /> : null;
}

function Switcher({ selectedTeam, urlMap, noUpdateSelectedTeam = false }: SelectedTeamSwitcherProps) {
  const t = useTranslation();
  const app = useStackApp();
  const user = useUser({ or: "throw" });
  const teams = useTeams();
  const project = useProject();
  const { run, error } = useAction(async (action: () => Promise<void>) => {
    await action();
  });
  const shown = selectedTeam ?? user.selectedTeam;

  const choose = (team: Team) =>
    run(async () => {
      if (!noUpdateSelectedTeam) await user.setSelectedTeam(team);
      if (urlMap) window.location.assign(urlMap(team));
    });

  const items: MenuItem[] = teams.map((team) => ({
    key: team.id,
    label: (
      <span className="gh-row">
        <Avatar name={team.displayName} imageUrl={team.profileImageUrl} />
        {team.displayName}
      </span>
    ),
    checked: team.id === shown?.id,
    onSelect: () => choose(team),
  }));
  if (project.config.clientTeamCreationEnabled) {
    items.push({
      key: "create-team",
      label: t("teamSwitcher.createTeam"),
      onSelect: () => run(() => app.redirectToAccountSettings()),
    });
  }
  const current = shown?.displayName ?? t("teamSwitcher.noTeam");

  return (
    <Root>
      <span className="gh-row">
        <Menu
          label={t("teamSwitcher.menu", { team: current })}
          trigger={
            <>
              {shown && <Avatar name={shown.displayName} imageUrl={shown.profileImageUrl} />}
              {current}
            </>
          }
          header={
            <div className="gh-menu-header">
              <span className="gh-muted">
                {teams.length ? t("teamSwitcher.teams") : t("teamSwitcher.noTeams")}
              </span>
            </div>
          }
          items={items}
        />
        {error && <Alert>{error}</Alert>}
      </span>
    </Root>
  );
}
