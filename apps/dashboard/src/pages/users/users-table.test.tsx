// @vitest-environment happy-dom
// The users table over a large project (20,000 users written straight into the database): the table asks the
// server for exactly one page of `limit` rows, whatever the project's size, pages on with the server's cursor, and
// sorts by asking the server for its order (never by loading everything). Counted on the dashboard's own requests.
import { bulkUser, insertUsers } from "@gatehouse/server/testing/bulk-users";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../../testing.tsx";
import { UsersPage } from "./index.tsx";

const COUNT = 20_000;
const live = dashboardLiveSuite();

beforeAll(async () => {
  await insertUsers(live().server.deps.db, live().project.id, COUNT);
}, 60_000);

/** The listing requests the dashboard sent since `from` (an index into the live's request log). */
const listings = (from: number) =>
  live()
    .requests.slice(from)
    .filter((request) => request.startsWith("GET /api/v1/users?"))
    .map((request) => new URL(request.slice(4), "http://x").searchParams);

/** The names in the grid's rows, top to bottom (each row's first link opens the user). */
const names = () =>
  screen
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getAllByRole("link")[0]?.textContent);

/** The listed users (anonymous ones are hidden) in an order, as insertUsers made them. */
function expected(order: "signedUpAt" | "lastActiveAt", desc: boolean, from: number, count: number) {
  const users = Array.from({ length: COUNT }, (_, i) => bulkUser(i + 1, COUNT)).filter((u) => !u.anonymous);
  users.sort((a, b) => a[order].getTime() - b[order].getTime());
  if (desc) users.reverse();
  return users.slice(from, from + count).map((u) => u.name);
}

describe("the users table of a project with 20,000 users", () => {
  it("reads exactly one page of 20 rows, and one more request for the next page by its cursor", async () => {
    const from = live().requests.length;
    await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    expect(names()).toEqual(expected("signedUpAt", true, 0, 20));
    const first = listings(from);
    expect(first).toHaveLength(1);
    expect(first[0]?.get("limit")).toBe("20");
    expect(first[0]?.get("cursor")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Next page" }));
    await screen.findByText("Page 2");
    expect(names()).toEqual(expected("signedUpAt", true, 20, 20));
    const both = listings(from);
    expect(both).toHaveLength(2);
    expect(both[1]?.get("limit")).toBe("20");
    expect(both[1]?.get("cursor")).toMatch(/^[0-9a-f-]{36}$/);

    // Back to page 1: already read, so no request at all.
    await user.click(screen.getByRole("button", { name: "Previous page" }));
    await screen.findByText("Page 1");
    expect(listings(from)).toHaveLength(2);
  });

  it("sorts by last activity on the server, newest first then oldest first, and pages in that order", async () => {
    await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    const header = () => screen.getByRole("columnheader", { name: /Last active/ });
    expect(header().getAttribute("aria-sort")).toBeNull();

    let from = live().requests.length;
    await user.click(within(header()).getByRole("button"));
    await waitFor(() => expect(header().getAttribute("aria-sort")).toBe("descending"));
    expect(names()).toEqual(expected("lastActiveAt", true, 0, 20));
    expect(listings(from).map((q) => [q.get("order_by"), q.get("desc"), q.get("limit")])).toEqual([
      ["last_active_at", "true", "20"],
    ]);
    // The other sortable column is no longer the sorted one.
    expect(screen.getByRole("columnheader", { name: /Signed up/ }).getAttribute("aria-sort")).toBeNull();

    from = live().requests.length;
    await user.click(within(header()).getByRole("button"));
    await waitFor(() => expect(header().getAttribute("aria-sort")).toBe("ascending"));
    expect(names()).toEqual(expected("lastActiveAt", false, 0, 20));
    await user.click(screen.getByRole("button", { name: "Next page" }));
    await screen.findByText("Page 2");
    expect(names()).toEqual(expected("lastActiveAt", false, 20, 20));
    expect(listings(from).map((q) => [q.get("order_by"), q.get("desc"), q.has("cursor")])).toEqual([
      ["last_active_at", "false", false],
      ["last_active_at", "false", true],
    ]);
  });

  it("reads pages of the size chosen, still one request each", async () => {
    await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    const from = live().requests.length;
    await user.selectOptions(screen.getByLabelText("Rows per page"), "100");
    await waitFor(() => expect(names()).toHaveLength(100));
    expect(names()).toEqual(expected("signedUpAt", true, 0, 100));
    expect(listings(from).map((q) => q.get("limit"))).toEqual(["100"]);
  });

  it("searches on the server among all 20,000", async () => {
    await renderScreen(live().app, <UsersPage project={live().project} />);
    const user = userEvent.setup();
    const target = bulkUser(12_345, COUNT);
    await user.type(screen.getByLabelText("Search users"), target.email);
    await user.click(screen.getByRole("button", { name: "Search" }));
    await waitFor(() => expect(names()).toEqual([target.name]));
  });
});
