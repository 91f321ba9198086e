// @vitest-environment happy-dom
// The user page against the real server: display name, metadata as JSON (invalid JSON refused, nothing sent),
// password set and removed, e-mails, teams, sessions revoked, and deletion behind its confirmation.
import type { ServerUser } from "@gatehouse/react";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../../testing.tsx";
import { UserPage } from "./user-page.tsx";

const live = dashboardLiveSuite();
let grace: ServerUser;

beforeAll(async () => {
  grace = await live().project.app.createUser({
    primaryEmail: "grace@example.com",
    primaryEmailAuthEnabled: true,
    password: "grace password",
    displayName: "Grace",
  });
  await grace.createSession();
  await grace.createSession();
  const team = await live().project.app.createTeam({ displayName: "Compilers", creatorUserId: grace.id });
  await live().project.app.createTeamPermissionDefinition({ id: "read_code", containedPermissionIds: [] });
  await grace.grantPermission(team, "read_code");
});

const fresh = async () => (await live().project.app.getUser(grace.id)) as ServerUser;
const page = () => renderScreen(live().app, <UserPage project={live().project} userId={grace.id} />);
const section = (name: string) => screen.getByRole("region", { name });

describe("the user page", () => {
  it("shows the profile, teams with permissions, and edits the display name", async () => {
    await page();
    const user = userEvent.setup();
    expect(screen.getByRole("heading", { level: 1, name: "Grace" })).toBeTruthy();
    expect(within(section("Profile")).getByText("grace@example.com")).toBeTruthy();
    const teams = section("Teams and permissions");
    expect(within(teams).getByRole("link", { name: "Compilers" })).toBeTruthy();
    expect(within(teams).getByText("read_code")).toBeTruthy();

    await user.clear(screen.getByLabelText("Display name"));
    await user.type(screen.getByLabelText("Display name"), "Grace Hopper");
    await user.click(screen.getByRole("button", { name: "Save display name" }));
    expect(await screen.findByText("Display name saved.")).toBeTruthy();
    expect((await fresh()).displayName).toBe("Grace Hopper");
    await waitFor(() => expect(screen.getByRole("heading", { level: 1, name: "Grace Hopper" })).toBeTruthy());
  });

  it("refuses invalid JSON metadata in place and saves valid JSON", async () => {
    await page();
    const user = userEvent.setup();
    const client = screen.getByLabelText("Client metadata");
    await user.clear(client);
    await user.click(client);
    await user.paste('{"plan": ');
    await user.click(screen.getByRole("button", { name: "Save client metadata" }));
    expect(await screen.findByText(/This is not valid JSON/)).toBeTruthy();
    expect(document.activeElement).toBe(client);
    expect((await fresh()).clientMetadata).toBeNull();

    await user.paste('"pro"}');
    await user.click(screen.getByRole("button", { name: "Save client metadata" }));
    expect(await screen.findByText("Client metadata saved.")).toBeTruthy();
    expect(screen.queryByText(/This is not valid JSON/)).toBeNull();
    expect((await fresh()).clientMetadata).toEqual({ plan: "pro" });

    const server = screen.getByLabelText("Server metadata");
    await user.clear(server);
    await user.click(server);
    await user.paste('{"stripe": "cus_1"}');
    await user.click(screen.getByRole("button", { name: "Save server metadata" }));
    expect(await screen.findByText("Server metadata saved.")).toBeTruthy();
    expect((await fresh()).serverMetadata).toEqual({ stripe: "cus_1" });
  });

  it("removes the password after confirming, then sets a new one", async () => {
    await page();
    const user = userEvent.setup();
    const auth = section("Authentication");
    await user.click(within(auth).getByRole("button", { name: "Remove password" }));
    await user.click(within(auth).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(within(auth).getByText("none")).toBeTruthy());
    expect((await fresh()).hasPassword).toBe(false);

    await user.type(screen.getByLabelText("Set a password"), "short");
    await user.click(screen.getByRole("button", { name: "Set password" }));
    expect(await screen.findByText("A password has at least 8 characters.")).toBeTruthy();
    expect((await fresh()).hasPassword).toBe(false);

    await user.type(screen.getByLabelText("Set a password"), " but longer now");
    await user.click(screen.getByRole("button", { name: "Set password" }));
    expect(await screen.findByText("Password set.")).toBeTruthy();
    expect((await fresh()).hasPassword).toBe(true);
  });

  it("adds an e-mail, marks it verified, makes it primary and removes the old one", async () => {
    await page();
    const user = userEvent.setup();
    const emails = section("E-mails");
    await user.type(within(emails).getByLabelText("Add an e-mail"), "hopper@example.com");
    await user.click(within(emails).getByRole("button", { name: "Add e-mail" }));
    await user.click(
      await within(emails).findByRole("button", { name: "Mark verified: hopper@example.com" }),
    );
    await waitFor(() =>
      expect(within(emails).queryByRole("button", { name: "Mark verified: hopper@example.com" })).toBeNull(),
    );
    await user.click(within(emails).getByRole("button", { name: "Make primary: hopper@example.com" }));
    await waitFor(() => expect(within(section("Profile")).getByText("hopper@example.com")).toBeTruthy());
    await user.click(within(emails).getByRole("button", { name: "Remove grace@example.com" }));
    await user.click(within(emails).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(within(emails).queryByText("grace@example.com")).toBeNull());
    const channels = await (await fresh()).listContactChannels();
    expect(channels.map((c) => [c.value, c.isPrimary, c.isVerified])).toEqual([
      ["hopper@example.com", true, true],
    ]);
  });

  it("revokes a session after confirming", async () => {
    const before = await grace.getActiveSessions();
    expect(before).toHaveLength(2);
    await page();
    const user = userEvent.setup();
    const sessions = section("Sessions");
    const target = before[0] as { id: string };
    await user.click(
      within(sessions).getByRole("button", { name: `Revoke session ${target.id.slice(0, 8)}` }),
    );
    await user.click(within(sessions).getByRole("button", { name: "Revoke" }));
    await waitFor(() => expect(within(sessions).queryByText(target.id)).toBeNull());
    expect((await grace.getActiveSessions()).map((s) => s.id)).toEqual([before[1]?.id]);
  });

  it("deletes the user only after confirming (Escape cancels)", async () => {
    window.history.replaceState(null, "", `/dashboard/projects/${live().project.id}/users/${grace.id}`);
    await page();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Delete user" }));
    expect(screen.getByText(/for good\?/)).toBeTruthy();
    await user.keyboard("{Escape}");
    expect(screen.queryByText(/for good\?/)).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Delete user" }));
    expect(await fresh()).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Delete user" }));
    await user.click(screen.getByRole("button", { name: "Delete" }));
    await waitFor(() =>
      expect(window.location.pathname).toBe(`/dashboard/projects/${live().project.id}/users`),
    );
    expect(await live().project.app.getUser(grace.id)).toBeNull();
    // The page still on screen reads again and says the user is gone.
    expect(await screen.findByRole("heading", { level: 1, name: "User not found" })).toBeTruthy();
  });
});
