// @vitest-environment happy-dom
// The users table's operator tools against the real server: the column choice (kept in localStorage across
// visits), the grid's keyboard (arrows, Home/End, Space selects, Enter opens), bulk ban and unban with a
// confirmation naming how many, the result naming a failure, and the row actions (ban, unban, delete).
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../../testing.tsx";
import { COLUMNS_STORAGE_KEY, UsersPage } from "./index.tsx";

const live = dashboardLiveSuite();
const ids: Record<string, string> = {};

beforeAll(async () => {
  // Five users one second apart; newest first, the table shows Eve, Dan, Cy, Bo, Al.
  for (const name of ["Al", "Bo", "Cy", "Dan", "Eve"]) {
    const user = await live().project.app.createUser({
      primaryEmail: `${name.toLowerCase()}@example.com`,
      displayName: name,
    });
    ids[name] = user.id;
    live().server.clock.advance(1000);
  }
});

afterEach(() => window.localStorage.clear());

const rows = () => screen.getAllByRole("row").slice(1);
const rowOf = (name: string) => {
  const row = rows().find((r) => within(r).queryByRole("link", { name }));
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};
const headers = () =>
  screen.getAllByRole("columnheader").map((h) => h.textContent?.replace(/[↓↑↕].*$/, "").trim());
const banned = async (name: string) =>
  (await live().project.app.getUser(ids[name] as string))?.restrictedByAdmin;

describe("the users table's tools", () => {
  it("shows and hides columns, and remembers the choice in this browser", async () => {
    const first = await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    expect(headers()).toContain("Last active");
    expect(headers()).not.toContain("User ID");

    await user.click(screen.getByText("Columns"));
    await user.click(screen.getByRole("checkbox", { name: "Last active" }));
    await user.click(screen.getByRole("checkbox", { name: "User ID" }));
    expect(headers()).not.toContain("Last active");
    expect(headers()).toContain("User ID");
    expect(JSON.parse(window.localStorage.getItem(COLUMNS_STORAGE_KEY) ?? "{}")).toMatchObject({
      lastActiveAt: false,
      id: true,
    });

    // Another visit of the screen shows the same columns.
    first.unmount();
    await renderScreen(live().app, <UsersPage project={live().project} />);
    expect(headers()).not.toContain("Last active");
    expect(headers()).toContain("User ID");
    expect(within(rowOf("Eve")).getByText(ids.Eve as string)).toBeTruthy();
  });

  it("moves between rows with the arrow keys, selects with Space and opens with Enter", async () => {
    await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    const grid = screen.getByRole("grid");
    expect(grid.getAttribute("aria-multiselectable")).toBe("true");
    // One row is the grid's Tab stop; the other rows' buttons are out of the Tab sequence until their row is.
    expect(rows().map((row) => row.tabIndex)).toEqual([0, -1, -1, -1, -1]);
    expect(within(rowOf("Dan")).getByRole("button", { name: "Ban dan@example.com" }).tabIndex).toBe(-1);

    rowOf("Eve").focus();
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(rowOf("Dan"));
    expect(rows().map((row) => row.tabIndex)).toEqual([-1, 0, -1, -1, -1]);
    expect(within(rowOf("Dan")).getByRole("button", { name: "Ban dan@example.com" }).tabIndex).toBe(0);
    await user.keyboard("{End}");
    expect(document.activeElement).toBe(rowOf("Al"));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(rowOf("Al"));
    await user.keyboard("{ArrowUp}");
    expect(document.activeElement).toBe(rowOf("Bo"));

    await user.keyboard(" ");
    expect(rowOf("Bo").getAttribute("aria-selected")).toBe("true");
    expect(screen.getByText("1 user selected")).toBeTruthy();
    await user.keyboard("{Home}");
    expect(document.activeElement).toBe(rowOf("Eve"));
    await user.keyboard(" ");
    expect(screen.getByText("2 users selected")).toBeTruthy();
    await user.keyboard(" ");
    expect(rowOf("Eve").getAttribute("aria-selected")).toBe("false");

    await user.keyboard("{Enter}");
    expect(window.location.pathname).toMatch(new RegExp(`/projects/${live().project.id}/users/${ids.Eve}$`));
  });

  it("bans the selected users after a confirmation naming how many, and reports the one it could not ban", async () => {
    await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    for (const name of ["Dan", "Cy", "Bo"])
      await user.click(screen.getByRole("checkbox", { name: `Select ${name}` }));
    expect(screen.getByText("3 users selected")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Ban 3 users" }));
    expect(
      screen.getByText("Ban 3 users? They are signed out everywhere and cannot sign in until unbanned."),
    ).toBeTruthy();
    // Meanwhile Cy is deleted elsewhere: that ban fails, the others go through.
    await (await live().project.app.getUser(ids.Cy as string))?.delete();
    await user.click(screen.getByRole("button", { name: "Ban 3 users" }));

    expect(await screen.findByText("Banned 2 of 3 users; 1 failed:")).toBeTruthy();
    expect(screen.getByRole("listitem").textContent).toBe("cy@example.com: User not found.");
    expect(await banned("Dan")).toBe(true);
    expect(await banned("Bo")).toBe(true);
    expect(await banned("Eve")).toBe(false);
    // The table reads again: banned users stay listed, with their badge; the deleted one is gone.
    await waitFor(() => expect(within(rowOf("Dan")).getByText("banned")).toBeTruthy());
    expect(within(rowOf("Bo")).getByText("banned")).toBeTruthy();
    expect(rows().some((row) => within(row).queryByRole("link", { name: "Cy" }))).toBe(false);
    expect(screen.queryByText(/selected$/)).toBeNull();

    // And back: unban both at once.
    await user.click(screen.getByRole("checkbox", { name: "Select Dan" }));
    await user.click(screen.getByRole("checkbox", { name: "Select Bo" }));
    await user.click(screen.getByRole("button", { name: "Unban 2 users" }));
    expect(screen.getByText("Let 2 users sign in again?")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Unban 2 users" }));
    expect(await screen.findByText("Unbanned 2 users.")).toBeTruthy();
    expect(await banned("Dan")).toBe(false);
    expect(await banned("Bo")).toBe(false);
  });

  it("bans, unbans and deletes one user from the row's actions, each after a confirmation", async () => {
    await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    await user.click(within(rowOf("Al")).getByRole("button", { name: "Ban al@example.com" }));
    expect(within(rowOf("Al")).getByText("Ban this user? They are signed out everywhere.")).toBeTruthy();
    await user.click(within(rowOf("Al")).getByRole("button", { name: "Ban" }));
    await waitFor(() => expect(within(rowOf("Al")).getByText("banned")).toBeTruthy());
    expect(await banned("Al")).toBe(true);

    await user.click(within(rowOf("Al")).getByRole("button", { name: "Unban al@example.com" }));
    await user.click(within(rowOf("Al")).getByRole("button", { name: "Unban" }));
    await waitFor(() => expect(within(rowOf("Al")).getByText("active")).toBeTruthy());
    expect(await banned("Al")).toBe(false);

    await user.click(within(rowOf("Al")).getByRole("button", { name: "Delete al@example.com" }));
    expect(within(rowOf("Al")).getByText("Delete this user for good?")).toBeTruthy();
    await user.click(within(rowOf("Al")).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByRole("link", { name: "Al" })).toBeNull());
    expect(await live().project.app.getUser(ids.Al as string)).toBeNull();
  });
});
