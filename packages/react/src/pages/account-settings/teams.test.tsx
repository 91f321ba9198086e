// @vitest-environment happy-dom
// The teams section against a real server: creating a team (only where the project lets clients), its details as
// its creator sees them (members, team name, own name in it), inviting by e-mail and revoking the invitation,
// removing another member (the creator may, a plain member may not), and leaving the team after confirming.
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLive, type LiveSetup } from "../../test-support/live.ts";
import { renderSettings, section, signUp } from "./test-helpers.tsx";

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive({ client_team_creation_enabled: true });
});
afterAll(() => live.close());
afterEach(cleanup);

async function createTeam(name: string) {
  const teams = await section("Teams");
  await userEvent.type(teams.getByLabelText("New team name"), name);
  await userEvent.click(teams.getByRole("button", { name: "Create team" }));
  return within(await screen.findByRole("region", { name: `Team ${name}` }));
}

describe("teams", () => {
  it("creates a team, which is listed with its details", async () => {
    await signUp(live);
    await renderSettings(live);
    const teams = await section("Teams");
    expect(teams.getByText("You are not in any team.")).toBeTruthy();
    await userEvent.click(teams.getByRole("button", { name: "Create team" }));
    expect(teams.getByRole("alert").textContent).toBe("This field is required.");

    const team = await createTeam("Rocket");
    expect(teams.getByRole("button", { name: "Manage Rocket" }).getAttribute("aria-pressed")).toBe("true");
    expect(teams.getByLabelText("New team name")).toHaveProperty("value", "");
    expect(await team.findByLabelText("Your name in this team")).toBeTruthy();
    expect(await team.findByRole("list", { name: "Members" })).toBeTruthy();
    expect(within(team.getByRole("list", { name: "Members" })).getAllByRole("listitem")).toHaveLength(1);
    const user = await live.app.getUser({ or: "throw" });
    expect((await user.listTeams()).map((t) => t.displayName)).toEqual(["Rocket"]);
  });

  it("renames the team and the user's name in it", async () => {
    await signUp(live);
    await renderSettings(live);
    const team = await createTeam("Old name");
    await userEvent.type(await team.findByLabelText("Your name in this team"), "Captain");
    const [saveProfile, saveTeam] = team.getAllByRole("button", { name: "Save" }) as [
      HTMLElement,
      HTMLElement,
    ];
    await userEvent.click(saveProfile);
    await waitFor(async () => {
      const user = await live.app.getUser({ or: "throw" });
      const [only] = await user.listTeams();
      expect((await user.getTeamProfile(only as { id: string })).displayName).toBe("Captain");
    });
    await userEvent.clear(team.getByLabelText("Team name"));
    await userEvent.type(team.getByLabelText("Team name"), "New name");
    await userEvent.click(saveTeam);
    expect(await screen.findByRole("region", { name: "Team New name" })).toBeTruthy();
    const user = await live.app.getUser({ or: "throw" });
    expect((await user.listTeams()).map((t) => t.displayName)).toEqual(["New name"]);
  });

  it("invites by e-mail, lists and revokes the invitation", async () => {
    await signUp(live);
    await renderSettings(live);
    const team = await createTeam("Crew");
    const invite = await team.findByRole("button", { name: "Send invitation" });
    await userEvent.click(invite);
    expect(team.getByRole("alert").textContent).toBe("This field is required.");

    const friend = `${crypto.randomUUID()}@example.com`;
    await userEvent.type(team.getByLabelText("Invite by e-mail"), friend);
    await userEvent.click(invite);
    expect(await team.findByText(`Invitation sent to ${friend}.`)).toBeTruthy();
    const pending = within(await team.findByRole("list", { name: "Pending invitations" }));
    expect(pending.getByText(friend)).toBeTruthy();
    expect((await live.lastEmail(friend)).text).toMatch(/team-invitation\?code=/);

    await userEvent.click(pending.getByRole("button", { name: "Revoke" }));
    expect(pending.getByText(`Revoke the invitation to ${friend}?`)).toBeTruthy();
    await userEvent.click(pending.getByRole("button", { name: "Revoke" }));
    expect(await team.findByText("No pending invitations.")).toBeTruthy();
  });

  it("leaves the team after confirming", async () => {
    await signUp(live);
    await renderSettings(live);
    const team = await createTeam("Short stay");
    await userEvent.click(team.getByRole("button", { name: "Leave team" }));
    expect(team.getByText("Leave Short stay?")).toBeTruthy();
    await userEvent.click(team.getByRole("button", { name: "Leave team" }));
    expect(await screen.findByText("You are not in any team.")).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Team Short stay" })).toBeNull();
  });

  it("shows a plain member what their permissions allow: members and invitations, not the team's name", async () => {
    await signUp(live);
    const { id } = await live.app.getUser({ or: "throw" });
    const team = await live.admin("POST", "/teams", { display_name: "Joined" });
    await live.admin("POST", `/team-memberships/${team.id}/${id}`, {});
    await renderSettings(live);
    await section("Teams");
    const details = within(await screen.findByRole("region", { name: "Team Joined" }));
    expect(await details.findByRole("list", { name: "Members" })).toBeTruthy();
    expect(details.getByLabelText("Invite by e-mail")).toBeTruthy();
    expect(details.getByLabelText("Your name in this team")).toBeTruthy();
    expect(details.queryByLabelText("Team name")).toBeNull();
  });

  it("lets the creator remove another member after confirming", async () => {
    await signUp(live);
    const user = await live.app.getUser({ or: "throw" });
    const created = await user.createTeam({ displayName: "Trimmed" });
    const other = await live.admin("POST", "/users", { display_name: "Bob" });
    await live.admin("POST", `/team-memberships/${created.id}/${other.id}`, {});
    await renderSettings(live);
    await section("Teams");
    const details = within(await screen.findByRole("region", { name: "Team Trimmed" }));
    const members = within(await details.findByRole("list", { name: "Members" }));
    await waitFor(() => expect(members.getAllByRole("listitem")).toHaveLength(2));
    // Only the other member can be removed, not the user themselves, who is marked as such.
    expect(members.getAllByRole("button", { name: "Remove" })).toHaveLength(1);
    const you = members.getByText("You").closest("li") as HTMLElement;
    expect(within(you).queryByText("Bob")).toBeNull();
    // Without a name in the team the user is shown by their e-mail, not as "Unnamed member".
    expect(within(you).getByText(user.primaryEmail ?? "")).toBeTruthy();
    expect(members.queryByText("Unnamed member")).toBeNull();
    const bob = members.getByText("Bob").closest("li") as HTMLElement;
    await userEvent.click(within(bob).getByRole("button", { name: "Remove" }));
    expect(within(bob).getByText("Remove Bob from the team?")).toBeTruthy();
    await userEvent.click(within(bob).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(members.getAllByRole("listitem")).toHaveLength(1));
    expect(members.queryByText("Bob")).toBeNull();
    expect(members.queryByRole("button", { name: "Remove" })).toBeNull();
    const left = (await live.admin("GET", `/team-member-profiles?team_id=${created.id}`)) as {
      items: { user_id: string }[];
    };
    expect(left.items.map((item) => item.user_id)).toEqual([user.id]);
  });

  it("shows a plain member no Remove buttons", async () => {
    await signUp(live);
    const { id } = await live.app.getUser({ or: "throw" });
    const team = await live.admin("POST", "/teams", { display_name: "Flat" });
    const other = await live.admin("POST", "/users", { display_name: "Carol" });
    await live.admin("POST", `/team-memberships/${team.id}/${other.id}`, {});
    await live.admin("POST", `/team-memberships/${team.id}/${id}`, {});
    await renderSettings(live);
    await section("Teams");
    const details = within(await screen.findByRole("region", { name: "Team Flat" }));
    const members = within(await details.findByRole("list", { name: "Members" }));
    await waitFor(() => expect(members.getAllByRole("listitem")).toHaveLength(2));
    expect(members.getByText("Carol")).toBeTruthy();
    expect(members.queryByRole("button", { name: "Remove" })).toBeNull();
  });

  it("offers no team creation where the project does not let clients create teams", async () => {
    const closed = await createLive({ client_team_creation_enabled: false });
    try {
      await signUp(closed);
      await renderSettings(closed);
      const teams = await section("Teams");
      expect(teams.getByText("You are not in any team.")).toBeTruthy();
      expect(teams.queryByRole("button", { name: "Create team" })).toBeNull();
      expect(teams.queryByLabelText("New team name")).toBeNull();
    } finally {
      await closed.close();
    }
  });
});
