// @vitest-environment happy-dom
// The sessions section against a real server: every session of the user listed with its times in the provider's
// language, this one marked and not revocable, another one signed out after confirming.
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { Suspense } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { StackProvider } from "../../provider.tsx";
import { createLive, type LiveSetup } from "../../test-support/live.ts";
import { AccountSettings } from "./index.tsx";
import { PASSWORD, renderSettings, section, signUp } from "./test-helpers.tsx";

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive();
});
afterAll(() => live.close());
afterEach(cleanup);

describe("sessions", () => {
  it("lists the sessions, marks this one, and signs another out after confirming", async () => {
    const email = await signUp(live);
    const elsewhere = live.newApp();
    expect(
      (await elsewhere.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status,
    ).toBe("ok");
    await renderSettings(live);
    const sessions = await section("Active sessions");
    const items = await sessions.findAllByRole("listitem");
    expect(items).toHaveLength(2);
    const isCurrent = (item: HTMLElement) => within(item).queryByText("This session") !== null;
    const current = items.find(isCurrent) as HTMLElement;
    const other = items.find((item) => !isCurrent(item)) as HTMLElement;
    expect(within(current).getByText("This session")).toBeTruthy();
    expect(within(current).queryByRole("button", { name: "Sign out" })).toBeNull();
    expect(within(other).queryByText("This session")).toBeNull();
    // English medium date and short time, e.g. "Signed in Mar 4, 2025, 8:21 AM".
    expect(within(other).getByText(/^Signed in [A-Z][a-z]{2} \d{1,2}, \d{4}/)).toBeTruthy();

    await userEvent.click(within(other).getByRole("button", { name: "Sign out" }));
    expect(within(other).getByText("Sign this session out?")).toBeTruthy();
    await userEvent.click(within(other).getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(sessions.getAllByRole("listitem")).toHaveLength(1));
    const user = await live.app.getUser({ or: "throw" });
    expect((await user.getActiveSessions()).map((s) => s.isCurrentSession)).toEqual([true]);
  });

  it("formats the times in the provider's language", async () => {
    await signUp(live);
    await act(async () => {
      render(
        <StackProvider app={live.app} lang="de-DE">
          <Suspense fallback={<p>loading</p>}>
            <AccountSettings />
          </Suspense>
        </StackProvider>,
      );
    });
    // The page is in German, its dates too (medium date: "04.03.2025, 08:21").
    const sessions = await section("Aktive Sitzungen");
    expect(await sessions.findByText(/^Angemeldet: \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/)).toBeTruthy();
    expect(screen.getByText(/^Zuletzt verwendet: \d{2}\.\d{2}\.\d{4}/)).toBeTruthy();
  });
});
