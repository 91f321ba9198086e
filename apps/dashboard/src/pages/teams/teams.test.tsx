// @vitest-environment happy-dom
// The teams table and team page against the real server: create a team (and one with a creator picked by search),
// add a member picked by search and remove them, grant and revoke a permission, send and revoke an invitation (and
// the explanation when no domain is trusted).
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeAll, describe, expect, it } from "vitest";
import { createDashboardLive, dashboardLiveSuite, renderScreen } from "../../testing.tsx";
import { TeamsPage } from "./index.tsx";
import { TeamPage } from "./team-page.tsx";

const live = dashboardLiveSuite({
  domains: [{ domain: "https://app.example.com", handler_path: "/auth" }],
});
let teamId = "";

beforeAll(async () => {
  await live().project.app.createUser({ primaryEmail: "linus@example.com", displayName: "Linus" });
  await live().project.app.createTeamPermissionDefinition({ id: "deploy", containedPermissionIds: [] });
});

const section = (name: string) => screen.getByRole("region", { name });
const teamPage = () => renderScreen(live().app, <TeamPage project={live().project} teamId={teamId} />);

describe("the teams screens", () => {
  it("creates a team after checking the form, and one with a creator picked by search", async () => {
    await renderScreen(live().app, <TeamsPage project={live().project} />);
    const user = userEvent.setup();
    expect(screen.getByText("No teams yet.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "New team" }));
    // Typed but not chosen from the list: refused in place with the name, and nothing is sent.
    await user.type(screen.getByRole("combobox", { name: "Creator (optional)" }), "nope");
    expect(await screen.findByText("No user matches “nope”.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Create team" }));
    expect(await screen.findByText("Give the team a name.")).toBeTruthy();
    expect(screen.getByText("Choose the creator from the list, or empty the field.")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText("Team name"));

    await user.clear(screen.getByRole("combobox", { name: "Creator (optional)" }));
    await user.type(screen.getByLabelText("Team name"), "Kernel");
    await user.click(screen.getByRole("button", { name: "Create team" }));
    const link = await within(screen.getByRole("table")).findByRole("link", { name: "Kernel" });
    const teams = await live().project.app.listTeams();
    expect(teams.map((t) => t.displayName)).toEqual(["Kernel"]);
    teamId = (teams[0] as { id: string }).id;
    expect(link.getAttribute("href")).toBe(`/dashboard/projects/${live().project.id}/teams/${teamId}`);
    expect(await live().project.app.listUsers({ teamId })).toHaveLength(0);

    // A creator found by part of their e-mail and chosen with the keyboard becomes the team's first member.
    await user.type(screen.getByLabelText("Team name"), "Ops");
    await user.type(screen.getByRole("combobox", { name: "Creator (optional)" }), "linus@");
    const option = await screen.findByRole("option", { name: /Linus.*linus@example\.com/ });
    await user.keyboard("{ArrowDown}");
    expect(option.getAttribute("aria-selected")).toBe("true");
    await user.keyboard("{Enter}");
    expect((screen.getByRole("combobox", { name: "Creator (optional)" }) as HTMLInputElement).value).toBe(
      "Linus (linus@example.com)",
    );
    await user.click(screen.getByRole("button", { name: "Create team" }));
    await within(screen.getByRole("table")).findByRole("link", { name: "Ops" });
    const ops = (await live().project.app.listTeams()).find((t) => t.displayName === "Ops");
    expect((await live().project.app.listUsers({ teamId: ops?.id })).map((u) => u.primaryEmail)).toEqual([
      "linus@example.com",
    ]);
    // The form is empty again for the next team.
    expect((screen.getByRole("combobox", { name: "Creator (optional)" }) as HTMLInputElement).value).toBe("");
    await ops?.delete();
  });

  it("adds a member picked by search, grants and revokes a permission, and removes the member", async () => {
    await teamPage();
    const user = userEvent.setup();
    const members = section("Members");
    const picker = within(members).getByRole("combobox", { name: "Add a member" });
    expect(within(members).getByText("No members yet.")).toBeTruthy();
    await user.type(picker, "nobody@example.com");
    expect(await within(members).findByText("No user matches “nobody@example.com”.")).toBeTruthy();
    await user.click(within(members).getByRole("button", { name: "Add member" }));
    expect(
      await within(members).findByText("Choose the user to add: type part of their name, e-mail or id."),
    ).toBeTruthy();
    expect(document.activeElement).toBe(picker);

    await user.clear(picker);
    await user.type(picker, "LINUS");
    await user.click(await within(members).findByRole("option", { name: /Linus/ }));
    await user.click(within(members).getByRole("button", { name: "Add member" }));
    expect(await within(members).findByRole("link", { name: "Linus" })).toBeTruthy();
    const linus = (await live().project.app.listUsers({ query: "linus" }))[0];
    if (!linus) throw new Error("Linus is gone");
    const team = { id: teamId };

    const permissions = section("Member permissions");
    await user.selectOptions(within(permissions).getByLabelText("Permission to grant to Linus"), "deploy");
    await user.click(within(permissions).getByRole("button", { name: "Grant to Linus" }));
    expect(await within(permissions).findByRole("button", { name: "Revoke deploy from Linus" })).toBeTruthy();
    expect((await linus.listPermissions(team, { recursive: false })).map((p) => p.id)).toContain("deploy");

    await user.click(within(permissions).getByRole("button", { name: "Revoke deploy from Linus" }));
    await waitFor(() =>
      expect(within(permissions).queryByRole("button", { name: "Revoke deploy from Linus" })).toBeNull(),
    );
    expect((await linus.listPermissions(team, { recursive: false })).map((p) => p.id)).not.toContain(
      "deploy",
    );

    await user.click(within(members).getByRole("button", { name: "Remove Linus" }));
    await user.click(within(members).getByRole("button", { name: "Remove" }));
    expect(await within(members).findByText("No members yet.")).toBeTruthy();
    expect(await live().project.app.listUsers({ teamId })).toHaveLength(0);
  });

  it("sends an invitation to the trusted domain's handler page and revokes it", async () => {
    await teamPage();
    const user = userEvent.setup();
    const invitations = section("Invitations");
    expect(within(invitations).getByText(/https:\/\/app\.example\.com\/auth\/team-invitation/)).toBeTruthy();
    await user.type(within(invitations).getByLabelText("Invite by e-mail"), "not an e-mail");
    await user.click(within(invitations).getByRole("button", { name: "Send invitation" }));
    expect(await within(invitations).findByText("This is not an e-mail address.")).toBeTruthy();

    await user.clear(within(invitations).getByLabelText("Invite by e-mail"));
    await user.type(within(invitations).getByLabelText("Invite by e-mail"), "ken@example.com");
    await user.click(within(invitations).getByRole("button", { name: "Send invitation" }));
    expect(await within(invitations).findByText("Invitation sent to ken@example.com.")).toBeTruthy();
    await within(invitations).findByRole("cell", { name: "ken@example.com" });
    const team = await live().project.app.getTeam(teamId);
    expect((await team?.listInvitations())?.map((i) => i.recipientEmail)).toEqual(["ken@example.com"]);

    await user.click(
      within(invitations).getByRole("button", { name: "Revoke the invitation to ken@example.com" }),
    );
    await user.click(within(invitations).getByRole("button", { name: "Revoke" }));
    expect(await within(invitations).findByText("No pending invitations.")).toBeTruthy();
    expect(await team?.listInvitations()).toEqual([]);
  });

  it("edits the name and metadata, then deletes the team after confirming", async () => {
    await teamPage();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText("Team name"));
    await user.type(screen.getByLabelText("Team name"), "Kernel team");
    await user.click(screen.getByRole("button", { name: "Save team name" }));
    expect(await screen.findByText("Team name saved.")).toBeTruthy();

    const readOnly = screen.getByLabelText("Client read-only metadata");
    await user.clear(readOnly);
    await user.click(readOnly);
    await user.paste("[1, 2");
    await user.click(screen.getByRole("button", { name: "Save client read-only metadata" }));
    expect(await screen.findByText(/This is not valid JSON/)).toBeTruthy();
    await user.paste("]");
    await user.click(screen.getByRole("button", { name: "Save client read-only metadata" }));
    expect(await screen.findByText("Client read-only metadata saved.")).toBeTruthy();
    const saved = await live().project.app.getTeam(teamId);
    expect([saved?.displayName, saved?.clientReadOnlyMetadata]).toEqual(["Kernel team", [1, 2]]);

    await user.click(screen.getByRole("button", { name: "Delete team" }));
    await user.click(screen.getByRole("button", { name: "Delete" }));
    await waitFor(() =>
      expect(window.location.pathname).toBe(`/dashboard/projects/${live().project.id}/teams`),
    );
    expect(await live().project.app.getTeam(teamId)).toBeNull();
  });
});

describe("a project without trusted domains", () => {
  it("explains that invitations need a trusted domain", async () => {
    const other = await createDashboardLive();
    try {
      const team = await other.project.app.createTeam({ displayName: "Lonely" });
      await renderScreen(other.app, <TeamPage project={other.project} teamId={team.id} />);
      expect(within(section("Invitations")).getByText(/add a trusted domain/)).toBeTruthy();
      expect(screen.queryByLabelText("Invite by e-mail")).toBeNull();
    } finally {
      await other.close();
    }
  });
});
