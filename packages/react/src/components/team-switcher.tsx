// <SelectedTeamSwitcher>: shows the signed-in user's selected team and a menu of their teams; choosing one makes it
// the selected team. <TeamSwitcher>: the same menu for a team the app holds (`team`/`teamId`, `onChange`). Stack's
// components and props; both render nothing for a signed-out visitor.
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
  const user = useUser({ or: "throw" });
  return (
    <TeamMenu
      shown={selectedTeam ?? user.selectedTeam}
      onChoose={async (team) => {
        if (!noUpdateSelectedTeam && team) await user.setSelectedTeam(team);
        if (urlMap && team) window.location.assign(urlMap(team));
      }}
    />
  );
}

export type TeamSwitcherProps<AllowNull extends boolean = false> = {
  team?: Team;
  teamId?: string;
  /** The teams to offer, instead of the user's. */
  teams?: Team[];
  allowNull?: AllowNull;
  nullLabel?: string;
  triggerClassName?: string;
  /** What choosing does; without it the choice becomes the user's selected team. */
  onChange?: (team: AllowNull extends true ? Team | null : Team) => Promise<void>;
};

export function TeamSwitcher<AllowNull extends boolean = false>(props: TeamSwitcherProps<AllowNull>) {
  const user = useUser();
  return user ? <ControlledSwitcher {...(props as TeamSwitcherProps<boolean>)} /> : null;
}

function ControlledSwitcher({
  team,
  teamId,
  teams,
  allowNull,
  nullLabel,
  onChange,
}: TeamSwitcherProps<boolean>) {
  const user = useUser({ or: "throw" });
  const mine = useTeams();
  const offered = teams ?? mine;
  const shown = team ?? offered.find((candidate) => candidate.id === teamId) ?? null;
  return (
    <TeamMenu
      shown={shown}
      teams={offered}
      nullLabel={allowNull ? (nullLabel ?? "") : undefined}
      onChoose={async (chosen) => {
        if (onChange) await onChange(chosen as Team);
        else if (chosen) await user.setSelectedTeam(chosen);
      }}
    />
  );
}

/** The menu both switchers show: the teams (and "no team" where allowed), the current one checked. */
function TeamMenu({
  shown,
  teams: given,
  nullLabel,
  onChoose,
}: {
  shown: Team | null;
  teams?: Team[];
  nullLabel?: string;
  onChoose: (team: Team | null) => Promise<void>;
}) {
  const t = useTranslation();
  const app = useStackApp();
  const mine = useTeams();
  const teams = given ?? mine;
  const project = useProject();
  const { run, error } = useAction(async (action: () => Promise<void>) => {
    await action();
  });
  const choose = (team: Team | null) => run(() => onChoose(team));

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
  if (nullLabel !== undefined) {
    items.unshift({
      key: "no-team",
      label: nullLabel || t("teamSwitcher.noTeam"),
      checked: !shown,
      onSelect: () => choose(null),
    });
  }
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
