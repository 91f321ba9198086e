// @vitest-environment happy-dom
// The API keys, team API keys and notifications sections against a real server: a key created is shown once and
// listed by its last four characters, revoked after confirming; a team's keys under the team; a category that may
// be turned off is, one that may not is disabled; sections hidden where the project does not allow the keys.
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLive, type LiveSetup } from "../../test-support/live.ts";
import { renderSettings, section, signUp } from "./test-helpers.tsx";

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive({
    allow_user_api_keys: true,
    allow_team_api_keys: true,
    client_team_creation_enabled: true,
  });
});
afterAll(() => live.close());
afterEach(cleanup);

describe("API keys", () => {
  it("creates a key, shows it once, lists it by its last four and revokes it", async () => {
    await signUp(live);
    await renderSettings(live);
    const keys = await section("API keys");
    expect(await keys.findByText("No API keys yet.")).toBeTruthy();
    await userEvent.type(keys.getByLabelText("Key description"), "CI deploys");
    await userEvent.click(keys.getByRole("button", { name: "Create key" }));
    const shown = (await keys.findByText(/shown only once/)).querySelector("code")?.textContent ?? "";
    expect(shown.length).toBeGreaterThan(20);
    const item = within(await keys.findByRole("list", { name: "API keys" })).getByRole("listitem");
    expect(within(item).getByText("CI deploys")).toBeTruthy();
    expect(within(item).getByText(`Ends with ${shown.slice(-4)}`)).toBeTruthy();
    await userEvent.click(within(item).getByRole("button", { name: "Revoke" }));
    await userEvent.click(within(item).getAllByRole("button", { name: "Revoke" }).at(-1) as HTMLElement);
    await waitFor(async () => {
      const user = await live.app.getUser({ or: "throw" });
      const [key] = await user.listApiKeys();
      expect(key?.whyInvalid()).toBe("manually-revoked");
    });
  });

  it("lists a team's keys under the team and creates one", async () => {
    await signUp(live);
    const user = await live.app.getUser({ or: "throw" });
    await user.createTeam({ displayName: "Rocket" });
    await renderSettings(live);
    await section("Team API keys");
    const teamKeys = within(await screen.findByRole("region", { name: "API keys of Rocket" }));
    await userEvent.type(await teamKeys.findByLabelText("Key description"), "Team bot");
    await userEvent.click(teamKeys.getByRole("button", { name: "Create key" }));
    expect(await teamKeys.findByText("Team bot")).toBeTruthy();
    const [team] = await user.listTeams();
    expect((await team?.listApiKeys())?.map((k) => k.description)).toEqual(["Team bot"]);
  });
});

describe("notifications", () => {
  it("turns marketing off; transactional cannot be", async () => {
    await signUp(live);
    await renderSettings(live);
    const notifications = await section("Notifications");
    const marketing = (await notifications.findByRole("checkbox", { name: "Marketing" })) as HTMLInputElement;
    const transactional = notifications.getByRole("checkbox", { name: "Transactional" }) as HTMLInputElement;
    expect(transactional.disabled).toBe(true);
    expect(marketing.checked).toBe(true);
    await userEvent.click(marketing);
    await waitFor(async () => {
      const user = await live.app.getUser({ or: "throw" });
      const categories = await user.listNotificationCategories();
      expect(categories.find((c) => c.name === "Marketing")?.enabled).toBe(false);
    });
  });
});

describe("where the project allows no keys", () => {
  it("shows neither key section", async () => {
    const other = await createLive();
    try {
      await signUp(other);
      await renderSettings(other);
      await section("Notifications");
      expect(screen.queryByRole("region", { name: "API keys" })).toBeNull();
      expect(screen.queryByRole("region", { name: "Team API keys" })).toBeNull();
    } finally {
      await other.close();
    }
  });
});
