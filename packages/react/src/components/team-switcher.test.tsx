// @vitest-environment happy-dom
// <SelectedTeamSwitcher> against a real server: the user's teams in the menu, switching the selected team (as the
// server sees it), the "Create a team" entry following the project flag, and the props Stack's component takes.
import type { StackClientApp } from "@gatehouse/sdk";
import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { liveSuite } from "../pages/auth/test-helpers.ts";
import type { LiveSetup } from "../test-support/live.ts";
import { renderWithApp } from "../test-support/render.tsx";
import { SelectedTeamSwitcher } from "./team-switcher.tsx";

let users = 0;

/** A fresh app signed in as a new user who is a member of teams with these names (created by the server). */
async function memberOf(live: LiveSetup, teamNames: string[]) {
  const app = live.newApp();
  const email = `team-switcher-${++users}@example.com`;
  const result = await app.signUpWithCredential({ email, password: "correct-horse-9", noRedirect: true });
  if (result.status === "error") throw result.error;
  const userId = (await app.getUser({ or: "throw" })).id;
  const teams: { id: string; display_name: string }[] = [];
  for (const name of teamNames) {
    teams.push(await live.admin("POST", "/teams", { display_name: name, creator_user_id: userId }));
  }
  return { app, userId, teams };
}

const menuButton = () => screen.findByRole("button", { name: /^switch team/i });

describe("with team creation enabled", () => {
  const live = liveSuite({ client_team_creation_enabled: true });

  it("lists the user's teams and switches the selected team at the server", async () => {
    const { app, userId, teams } = await memberOf(live, ["Alpha", "Beta"]);
    const user = userEvent.setup();
    await renderWithApp(app, <SelectedTeamSwitcher />);
    const trigger = await menuButton();
    expect(trigger.getAttribute("aria-label")).toBe("Switch team, current: No team selected");

    trigger.focus();
    await user.keyboard("{ArrowDown}");
    // The server's order of the teams is its own; the test walks to Beta with the arrows.
    const options = screen.getAllByRole("menuitemradio");
    const betaItem = screen.getByRole("menuitemradio", { name: "Beta" });
    expect(options).toHaveLength(2);
    expect(options).toContain(screen.getByRole("menuitemradio", { name: "Alpha" }));
    expect(options.map((option) => option.getAttribute("aria-checked"))).toEqual(["false", "false"]);
    expect(document.activeElement).toBe(options[0]);
    if (options[0] !== betaItem) await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(betaItem);
    await user.keyboard("{Enter}");

    await waitFor(() => expect(trigger.getAttribute("aria-label")).toBe("Switch team, current: Beta"));
    const beta = teams.find((team) => team.display_name === "Beta");
    expect((await live.admin("GET", `/users/${userId}`)).selected_team_id).toBe(beta?.id);

    await user.click(trigger);
    expect(screen.getByRole("menuitemradio", { name: /beta/i }).getAttribute("aria-checked")).toBe("true");
    expect(screen.getByRole("menuitemradio", { name: /alpha/i }).getAttribute("aria-checked")).toBe("false");
  });

  it("offers to create a team, in account settings", async () => {
    const { app } = await memberOf(live, []);
    const user = userEvent.setup();
    await renderWithApp(app, <SelectedTeamSwitcher />);
    await user.click(await menuButton());
    expect(screen.getByText("You are not in a team yet.")).toBeTruthy();
    await user.click(screen.getByRole("menuitem", { name: "Create a team" }));
    await waitFor(() => expect(live.navigations).toEqual(["/handler/account-settings"]));
  });

  it("shows the team it is given and, with noUpdateSelectedTeam, only goes to the team's URL", async () => {
    const { app, userId, teams } = await memberOf(live, ["Alpha", "Beta"]);
    const alpha = (await app.getUser({ or: "throw" }).then((u) => u.listTeams())).find(
      (t) => t.displayName === "Alpha",
    );
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    const user = userEvent.setup();
    await renderWithApp(
      app,
      <SelectedTeamSwitcher
        selectedTeam={alpha}
        noUpdateSelectedTeam
        urlMap={(team) => `/teams/${team.id}`}
      />,
    );
    const trigger = await menuButton();
    expect(trigger.getAttribute("aria-label")).toBe("Switch team, current: Alpha");
    await user.click(trigger);
    await user.click(screen.getByRole("menuitemradio", { name: /beta/i }));

    const beta = teams.find((team) => team.display_name === "Beta");
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`/teams/${beta?.id}`));
    expect((await live.admin("GET", `/users/${userId}`)).selected_team_id).toBeNull();
  });

  it("renders nothing for a signed-out visitor", async () => {
    const { container } = await renderWithApp(live.newApp(), <SelectedTeamSwitcher />);
    await waitFor(() => expect(screen.queryByText("loading")).toBeNull());
    expect(container.textContent).toBe("");
  });
});

describe("with team creation disabled", () => {
  const live = liveSuite({ client_team_creation_enabled: false });
  let app: StackClientApp;
  beforeAll(async () => {
    ({ app } = await memberOf(live, ["Alpha"]));
  });

  it("has no create entry", async () => {
    const user = userEvent.setup();
    await renderWithApp(app, <SelectedTeamSwitcher />);
    await user.click(await menuButton());
    expect(screen.getAllByRole("menuitemradio")).toEqual([
      screen.getByRole("menuitemradio", { name: "Alpha" }),
    ]);
    expect(screen.queryByRole("menuitem", { name: "Create a team" })).toBeNull();
  });
});
