// @vitest-environment happy-dom
// The overview against the real server: the figures of the project (users, teams, active sessions, anonymous users),
// today's sign-ups in the chart's table, the project id and the quick links.
import { screen, within } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../testing.tsx";
import { Overview } from "./overview.tsx";

const live = dashboardLiveSuite();

beforeAll(async () => {
  const app = live().project.app;
  await app.createUser({ primaryEmail: "ann@example.com" });
  await app.createUser({ primaryEmail: "bob@example.com" });
  await live().server.signIn(live().project.id, { email: "cat@example.com" });
  await live().server.signIn(live().project.id, { audience: "anonymous" });
  await app.createTeam({ displayName: "Crew" });
});

const figure = (label: string) =>
  within(screen.getByRole("list", { name: "Figures" })).getByText(label).nextElementSibling?.textContent;

describe("the overview", () => {
  it("shows the project's figures, sign-ups per day, its id and links", async () => {
    await renderScreen(live().app, <Overview project={live().project} />);
    expect(figure("Users")).toBe("3");
    expect(figure("Teams")).toBe("1");
    expect(figure("Active sessions")).toBe("2");
    expect(figure("Anonymous users")).toBe("1");

    const chart = screen.getByRole("img", { name: /^Bar chart: 3 sign-ups in the last 30 days, most on / });
    expect(chart.querySelectorAll("rect")).toHaveLength(30);
    const table = screen.getByRole("table", { name: "Sign-ups per day" });
    const rows = within(table).getAllByRole("row");
    expect(rows).toHaveLength(31);
    expect(within(rows[30] as HTMLElement).getByRole("cell").textContent).toBe("3");
    expect(within(rows[29] as HTMLElement).getByRole("cell").textContent).toBe("0");

    expect(screen.getByText(live().project.id)).toBeTruthy();
    const links = screen.getByRole("navigation", { name: "Quick links" });
    expect(
      within(links)
        .getByRole("link", { name: /API keys/ })
        .getAttribute("href"),
    ).toBe(`/dashboard/projects/${live().project.id}/api-keys`);
  });
});
