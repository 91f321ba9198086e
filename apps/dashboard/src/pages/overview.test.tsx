// @vitest-environment happy-dom
// The overview against the real server: the project's figures (users, daily and monthly active users, teams, active
// sessions, anonymous users), the latest sign-ups linking to the users, users by sign-in method, today's sign-ups in
// the chart's table, the project id and the quick links.
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../testing.tsx";
import { Overview } from "./overview.tsx";
import { timeAgo } from "./recent-sign-ups.tsx";

const live = dashboardLiveSuite();
const DAY = 86_400_000;

beforeAll(async () => {
  const { server, project } = live();
  const app = project.app;
  // Forty days ago, a user who has not been back since: counted as a user, not as active.
  server.clock.advance(-40 * DAY);
  await app.createUser({
    primaryEmail: "old@example.com",
    displayName: "Old Timer",
    password: "a long password",
  });
  // Ten days ago: active this month, not today.
  server.clock.advance(30 * DAY);
  await app.createUser({
    primaryEmail: "ann@example.com",
    password: "a long password",
    otpAuthEnabled: true,
    primaryEmailAuthEnabled: true,
  });
  server.clock.advance(10 * DAY);
  await app.createUser({
    primaryEmail: "bob@example.com",
    displayName: "Bob Builder",
    oauthProviders: [{ providerId: "github", accountId: "42", email: "bob@example.com" }],
  });
  const cat = await server.signIn(project.id, { email: "cat@example.com" });
  await server.signIn(project.id, { audience: "anonymous" });
  await app.createTeam({ displayName: "Crew" });
  // Three page views and a click from the app's event tracker: one visitor signed in, the other not.
  type TrackedEvent = { event_type: "$page-view" | "$click"; event_at_ms: number; data: { path: string } };
  const view: TrackedEvent = { event_type: "$page-view", event_at_ms: 1, data: { path: "/" } };
  const batch = (events: TrackedEvent[]) => ({
    session_replay_segment_id: crypto.randomUUID(),
    batch_id: crypto.randomUUID(),
    sent_at_ms: 1,
    events,
  });
  await server.deps.analytics.record(
    { projectId: project.id, userId: cat.userId, sessionId: null },
    batch([view, view]),
  );
  await server.deps.analytics.record(
    { projectId: project.id, userId: null, sessionId: null },
    batch([view, { ...view, event_type: "$click" }]),
  );
});

const figure = (label: string) =>
  within(screen.getByRole("list", { name: "Figures" })).getByText(label).nextElementSibling?.textContent;

describe("the overview", () => {
  it("shows the figures, active users, the latest sign-ups and the sign-in methods", async () => {
    await renderScreen(live().app, <Overview project={live().project} />);
    expect(figure("Users")).toBe("4");
    expect(figure("Daily active users")).toBe("2");
    expect(figure("Monthly active users")).toBe("3");
    expect(figure("Teams")).toBe("1");
    expect(figure("Active sessions")).toBe("2");
    expect(figure("Anonymous users")).toBe("1");
    expect(figure("Page views")).toBe("3");
    expect(figure("Daily visitors")).toBe("1");
    expect(figure("Monthly visitors")).toBe("1");

    const latest = await screen.findByRole("list", { name: "Latest sign-ups" });
    const people = within(latest).getAllByRole("listitem");
    expect(people.map((p) => within(p).getByRole("link").textContent)).toEqual([
      expect.stringMatching(/^(Bob Builder|cat@example\.com)$/),
      expect.stringMatching(/^(Bob Builder|cat@example\.com)$/),
      "ann@example.com",
      "Old Timer",
    ]);
    const bob = people.find((p) => within(p).queryByRole("link", { name: "Bob Builder" })) as HTMLElement;
    expect(within(bob).getByText("bob@example.com")).toBeTruthy();
    const bobId = (await live().project.app.listUsers({ query: "bob@" }))[0]?.id;
    expect(within(bob).getByRole("link").getAttribute("href")).toBe(
      `/dashboard/projects/${live().project.id}/users/${bobId}`,
    );
    const old = people[3] as HTMLElement;
    expect(within(old).getByText("last month")).toBeTruthy();
    expect(old.querySelector("time")?.getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);

    const methods = screen.getByRole("list", { name: "Sign-in methods" });
    const rows = within(methods)
      .getAllByRole("listitem")
      .map((row) => row.textContent?.replace(/\s+/g, " ").trim());
    expect(rows).toEqual([
      "Password2 (50%)",
      "E-mail code or magic link1 (25%)",
      "Passkey0 (0%)",
      "GitHub1 (25%)",
      "No sign-in method1 (25%)",
    ]);
    expect(screen.getByText("Anonymous users: 1 (not counted above).")).toBeTruthy();

    const chart = screen.getByRole("img", { name: /^Bar chart: 3 sign-ups in the last 30 days, most on / });
    expect(chart.querySelectorAll("rect")).toHaveLength(30);
    const table = screen.getByRole("table", { name: "Sign-ups per day" });
    const days = within(table).getAllByRole("row");
    expect(days).toHaveLength(31);
    expect(within(days[30] as HTMLElement).getByRole("cell").textContent).toBe("2");
    expect(within(days[20] as HTMLElement).getByRole("cell").textContent).toBe("1");

    expect(screen.getByText(live().project.id)).toBeTruthy();
    const links = screen.getByRole("navigation", { name: "Quick links" });
    expect(
      within(links)
        .getByRole("link", { name: /API keys/ })
        .getAttribute("href"),
    ).toBe(`/dashboard/projects/${live().project.id}/api-keys`);
  });

  it("reads the figures again when shown after a while, not on every visit", async () => {
    await renderScreen(live().app, <Overview project={live().project} />);
    expect(figure("Users")).toBe("4");
    await live().project.app.createUser({ primaryEmail: "dan@example.com" });
    cleanup();
    // Shown again at once: the figures just read are kept.
    await renderScreen(live().app, <Overview project={live().project} />);
    expect(figure("Users")).toBe("4");
    cleanup();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 6000);
      await renderScreen(live().app, <Overview project={live().project} />);
      await waitFor(() => expect(figure("Users")).toBe("5"));
      expect(await screen.findByRole("link", { name: "dan@example.com" })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it("says how long ago in the largest whole unit", () => {
    const now = new Date("2030-05-10T12:00:00Z");
    const ago = (ms: number) => timeAgo(new Date(now.getTime() - ms), now);
    expect(ago(20_000)).toBe("just now");
    expect(ago(3 * 60_000)).toBe("3 minutes ago");
    expect(ago(2 * 3_600_000)).toBe("2 hours ago");
    expect(ago(DAY)).toBe("yesterday");
    expect(ago(10 * DAY)).toBe("last week");
    expect(ago(40 * DAY)).toBe("last month");
    expect(ago(400 * DAY)).toBe("last year");
  });
});
