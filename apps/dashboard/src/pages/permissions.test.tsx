// @vitest-environment happy-dom
// The team permissions screen against the real server: definitions as a tree, create, rename, delete, and the
// default permissions for team creators and members saved to the project's configuration.
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../testing.tsx";
import { PermissionsPage } from "./permissions.tsx";

const live = dashboardLiveSuite();

const tree = () => screen.getByRole("list", { name: "Permission definitions" });
const newForm = () => screen.getByRole("form", { name: "New permission" });

async function create(id: string, description: string, contained: string[]) {
  const user = userEvent.setup();
  const form = newForm();
  await user.type(within(form).getByLabelText("Permission id"), id);
  await user.type(within(form).getByLabelText("Description (optional)"), description);
  for (const c of contained) await user.click(within(form).getByRole("checkbox", { name: c }));
  await user.click(within(form).getByRole("button", { name: "Create permission" }));
  await within(form).findByText(`Permission ${id} created.`);
}

describe("the team permissions screen", () => {
  it("shows the definitions as a tree and creates one containing another", async () => {
    await renderScreen(live().app, <PermissionsPage project={live().project} />);
    // A new project's team_member contains $read_members and $invite_members (WIRE.md §6).
    const member = within(tree()).getByRole("listitem", { name: "team_member" });
    expect(within(member).getByRole("list", { name: "Permissions in team_member" }).textContent).toContain(
      "$read_members",
    );

    const user = userEvent.setup();
    await user.type(within(newForm()).getByLabelText("Permission id"), "Shop Viewer");
    await user.click(within(newForm()).getByRole("button", { name: "Create permission" }));
    expect(within(newForm()).getByText("Use only lowercase letters, digits, _ and :.")).toBeTruthy();
    expect(document.activeElement).toBe(within(newForm()).getByLabelText("Permission id"));
    await user.clear(within(newForm()).getByLabelText("Permission id"));
    await user.type(within(newForm()).getByLabelText("Permission id"), "team_admin");
    await user.click(within(newForm()).getByRole("button", { name: "Create permission" }));
    expect(within(newForm()).getByText("A permission with this id already exists.")).toBeTruthy();
    await user.clear(within(newForm()).getByLabelText("Permission id"));

    await create("shop:viewer", "Sees the shop", ["$read_members"]);
    await create("shop:admin", "Runs the shop", ["shop:viewer", "$update_team"]);

    const admin = await within(tree()).findByRole("listitem", { name: "shop:admin" });
    const inAdmin = within(admin).getByRole("list", { name: "Permissions in shop:admin" });
    expect(within(inAdmin).getByText("$update_team")).toBeTruthy();
    const inViewer = within(inAdmin).getByRole("list", { name: "Permissions in shop:viewer" });
    expect(within(inViewer).getByText("$read_members")).toBeTruthy();
    const stored = await live().project.app.listTeamPermissionDefinitions();
    expect(stored.find((d) => d.id === "shop:admin")?.containedPermissionIds.sort()).toEqual([
      "$update_team",
      "shop:viewer",
    ]);
  });

  it("renames a definition everywhere and deletes one after confirming", async () => {
    await renderScreen(live().app, <PermissionsPage project={live().project} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Edit shop:viewer" }));
    const form = screen.getByRole("form", { name: "Edit shop:viewer" });
    await user.clear(within(form).getByLabelText("Permission id"));
    await user.type(within(form).getByLabelText("Permission id"), "shop:reader");
    await user.click(within(form).getByRole("button", { name: "Save permission" }));
    const reader = await within(tree()).findByRole("listitem", { name: "shop:reader" });
    expect(reader).toBeTruthy();
    // The containing definition now names the new id (the server rewrote it).
    const inAdmin = within(tree()).getByRole("list", { name: "Permissions in shop:admin" });
    expect(within(inAdmin).getByText("shop:reader")).toBeTruthy();
    expect(within(inAdmin).queryByText("shop:viewer")).toBeNull();

    // Description and contained permissions change in place.
    await user.click(screen.getByRole("button", { name: "Edit shop:admin" }));
    const adminForm = screen.getByRole("form", { name: "Edit shop:admin" });
    await user.type(within(adminForm).getByLabelText("Description (optional)"), " well");
    await user.click(within(adminForm).getByRole("checkbox", { name: "$delete_team" }));
    await user.click(within(adminForm).getByRole("button", { name: "Save permission" }));
    await waitFor(() =>
      expect(within(tree()).getByRole("list", { name: "Permissions in shop:admin" }).textContent).toContain(
        "$delete_team",
      ),
    );
    expect(within(tree()).getByText(/Runs the shop well/)).toBeTruthy();

    // Escape cancels the confirmation; confirming deletes.
    await user.click(within(reader).getByRole("button", { name: "Delete shop:reader" }));
    await user.keyboard("{Escape}");
    expect(within(reader).getByRole("button", { name: "Delete shop:reader" })).toBeTruthy();
    await user.click(within(reader).getByRole("button", { name: "Delete shop:reader" }));
    await user.click(within(reader).getByRole("button", { name: "Yes, delete" }));
    await waitFor(() => expect(within(tree()).queryByRole("listitem", { name: "shop:reader" })).toBeNull());
    const stored = await live().project.app.listTeamPermissionDefinitions();
    expect(stored.map((d) => d.id)).not.toContain("shop:reader");
    expect(stored.find((d) => d.id === "shop:admin")?.containedPermissionIds.sort()).toEqual([
      "$delete_team",
      "$update_team",
    ]);
  });

  it("saves the default permissions of team creators and members", async () => {
    await renderScreen(live().app, <PermissionsPage project={live().project} />);
    const user = userEvent.setup();
    const creators = screen.getByRole("group", { name: "Granted to team creators" });
    const members = screen.getByRole("group", { name: "Granted to team members" });
    expect((within(creators).getByRole("checkbox", { name: "team_admin" }) as HTMLInputElement).checked).toBe(
      true,
    );
    await user.click(within(creators).getByRole("checkbox", { name: "shop:admin" }));
    await user.click(within(members).getByRole("checkbox", { name: "team_member" }));
    await user.click(within(members).getByRole("checkbox", { name: "$read_members" }));
    await user.click(screen.getByRole("button", { name: "Save default permissions" }));
    expect(await screen.findByText("Default permissions saved.")).toBeTruthy();

    const fresh = await live().project.app.getProject();
    const config = fresh.config as unknown as Record<string, { id: string }[]>;
    expect(config.teamCreatorDefaultPermissions?.map((p) => p.id).sort()).toEqual([
      "shop:admin",
      "team_admin",
    ]);
    expect(config.teamMemberDefaultPermissions?.map((p) => p.id)).toEqual(["$read_members"]);
  });
});
