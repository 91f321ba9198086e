// @vitest-environment happy-dom
// The users table against the real server: cursor paging forward and back over 45 users, sorting by sign-up date,
// search, the empty state, and creating a user (validated first) who then appears in the table.
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../../testing.tsx";
import { UsersPage } from "./index.tsx";

const live = dashboardLiveSuite();
const pad = (n: number) => String(n).padStart(2, "0");

beforeAll(async () => {
  // 45 users signed up one second apart: "Pager 01" first, "Pager 45" last.
  for (let n = 1; n <= 45; n++) {
    await live().project.app.createUser({
      primaryEmail: `pager-${pad(n)}@example.com`,
      displayName: `Pager ${pad(n)}`,
    });
    live().server.clock.advance(1000);
  }
}, 60_000);

/** The names in the table's rows, top to bottom (each row's first link opens the user). */
const names = () =>
  screen
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getAllByRole("link")[0]?.textContent);

const range = (from: number, to: number) => {
  const step = from <= to ? 1 : -1;
  return Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => `Pager ${pad(from + i * step)}`);
};

describe("the users table", () => {
  it("pages forward and back with cursors, 20 users at a time, newest first", async () => {
    await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    expect(names()).toEqual(range(45, 26));
    expect(screen.getByRole("button", { name: "Previous page" }).hasAttribute("disabled")).toBe(true);

    await user.click(screen.getByRole("button", { name: "Next page" }));
    await screen.findByText("Page 2");
    expect(names()).toEqual(range(25, 6));

    await user.click(screen.getByRole("button", { name: "Next page" }));
    await screen.findByText("Page 3");
    expect(names()).toEqual(range(5, 1));
    expect(screen.getByRole("button", { name: "Next page" }).hasAttribute("disabled")).toBe(true);

    await user.click(screen.getByRole("button", { name: "Previous page" }));
    await screen.findByText("Page 2");
    expect(names()).toEqual(range(25, 6));
    await user.click(screen.getByRole("button", { name: "Previous page" }));
    await screen.findByText("Page 1");
    expect(names()).toEqual(range(45, 26));
  });

  it("sorts by sign-up date, oldest first and back", async () => {
    await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    const header = () => screen.getByRole("columnheader", { name: /Signed up/ });
    expect(header().getAttribute("aria-sort")).toBe("descending");

    await user.click(within(header()).getByRole("button"));
    await waitFor(() => expect(header().getAttribute("aria-sort")).toBe("ascending"));
    await waitFor(() => expect(names()).toEqual(range(1, 20)));

    await user.click(screen.getByRole("button", { name: "Next page" }));
    await screen.findByText("Page 2");
    expect(names()).toEqual(range(21, 40));

    // A new order starts again from the first page.
    await user.click(within(header()).getByRole("button"));
    await waitFor(() => expect(header().getAttribute("aria-sort")).toBe("descending"));
    await waitFor(() => expect(names()).toEqual(range(45, 26)));
    expect(screen.getByText("Page 1")).toBeTruthy();
  });

  it("searches on the server, and says when nothing matches", async () => {
    await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Search users"), "pager-07@EXAMPLE");
    await user.click(screen.getByRole("button", { name: "Search" }));
    await waitFor(() => expect(names()).toEqual(["Pager 07"]));
    expect(screen.getByRole("button", { name: "Next page" }).hasAttribute("disabled")).toBe(true);

    await user.clear(screen.getByLabelText("Search users"));
    await user.type(screen.getByLabelText("Search users"), "nobody here");
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(await screen.findByText("No user matches “nobody here”.")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Clear search" }));
    await waitFor(() => expect(names()).toEqual(range(45, 26)));
  });

  it("creates a user after checking the form, and shows them in the table", async () => {
    await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "New user" }));
    await user.click(screen.getByRole("button", { name: "Create user" }));
    expect(await screen.findByText("Enter the user's e-mail.")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText("E-mail"));

    await user.type(screen.getByLabelText("E-mail"), "ada@example.com");
    await user.type(screen.getByLabelText("Password (optional)"), "short");
    await user.click(screen.getByRole("button", { name: "Create user" }));
    expect(await screen.findByText("A password has at least 8 characters.")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText("Password (optional)"));

    await user.type(screen.getByLabelText("Password (optional)"), " and long");
    await user.type(screen.getByLabelText("Display name (optional)"), "Ada Lovelace");
    await user.click(screen.getByLabelText("E-mail verified"));
    await user.click(screen.getByRole("button", { name: "Create user" }));
    await screen.findByText(/Created/);
    await waitFor(() => expect(names()[0]).toBe("Ada Lovelace"));
    const row = screen.getAllByRole("row")[1] as HTMLElement;
    expect(within(row).getAllByText("ada@example.com").length).toBeGreaterThan(0);
    expect(within(row).getByText("verified")).toBeTruthy();
    expect(within(row).getByText("password")).toBeTruthy();

    // The same sign-in e-mail again is refused by the server, in place.
    await user.type(screen.getByLabelText("E-mail"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Create user" }));
    expect(await screen.findByText("Another user already signs in with this e-mail.")).toBeTruthy();
  });
});

describe("an empty project", () => {
  it("says there are no users yet", async () => {
    const operator = live().operator;
    const team = (await operator.listTeams())[0] as { id: string };
    const created = await operator.createProject({ displayName: "Empty", teamId: team.id });
    const empty = (await operator.listOwnedProjects()).find((p) => p.id === created.id);
    if (!empty) throw new Error("the new project is not listed");
    await renderScreen(live().app, <UsersPage project={empty} />);
    expect(screen.getByText(/No users yet/)).toBeTruthy();
  });
});
