// @vitest-environment happy-dom
// The user picker against the real server's search: focusing lists the newest users, typing narrows by name, e-mail
// or id, the keyboard moves through the matches (wrapping) and Enter chooses one, Escape closes the list, and typing
// again drops the choice.
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { useState } from "react";
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../../testing.tsx";
import { type PickedUser, UserPicker } from "./user-picker.tsx";

const live = dashboardLiveSuite();
const ids: Record<string, string> = {};

beforeAll(async () => {
  const app = live().project.app;
  // A second apart, so "newest first" is this order reversed.
  for (const [name, email] of [
    ["Ada Lovelace", "ada@example.com"],
    ["Alan Turing", "alan@example.com"],
    ["Grace Hopper", "grace@example.com"],
    [undefined, "nameless@example.com"],
  ] as const) {
    live().server.clock.advance(1000);
    ids[email] = (await app.createUser({ primaryEmail: email, displayName: name })).id;
  }
});

/** The picker in a form of its own, showing what it was given. */
function Harness() {
  const [user, setUser] = useState<PickedUser | null>(null);
  return (
    <form>
      <UserPicker project={live().project} label="User" value={user} onChange={setUser} />
      <output aria-label="Chosen">{user?.id ?? "nobody"}</output>
    </form>
  );
}

const input = () => screen.getByRole("combobox", { name: "User" }) as HTMLInputElement;
const chosen = () => screen.getByRole("status", { name: "Chosen" }).textContent;
/** Each option's two lines: the name (or e-mail) and the e-mail (or id). */
const shown = () =>
  screen
    .getAllByRole("option")
    .map((option) =>
      [...option.querySelectorAll(".dash-picker-identity > span")]
        .map((line) => line.textContent)
        .join(" / "),
    );

describe("the user picker", () => {
  it("lists the newest users on focus and narrows them as one types", async () => {
    const user = userEvent.setup();
    await renderScreen(live().app, <Harness />);
    expect(input().getAttribute("aria-expanded")).toBe("false");
    await user.click(input());
    const list = await screen.findByRole("listbox", { name: "User" });
    await within(list).findByRole("option", { name: /nameless@example\.com/ });
    expect(shown()).toEqual([
      `nameless@example.com / ${ids["nameless@example.com"]}`,
      "Grace Hopper / grace@example.com",
      "Alan Turing / alan@example.com",
      "Ada Lovelace / ada@example.com",
    ]);
    expect(input().getAttribute("aria-expanded")).toBe("true");

    await user.type(input(), "tur");
    await screen.findByText("1 match: arrows to move, Enter to choose.");
    expect(shown()).toEqual(["Alan Turing / alan@example.com"]);

    await user.clear(input());
    await user.type(input(), ids["grace@example.com"] as string);
    expect(await screen.findByRole("option", { name: /Grace Hopper/ })).toBeTruthy();
    await user.clear(input());
    await user.type(input(), "zz-nobody");
    expect(await screen.findByText("No user matches “zz-nobody”.")).toBeTruthy();
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(input().getAttribute("aria-expanded")).toBe("false");
  });

  it("moves through the matches with the arrows, chooses with Enter, and closes with Escape", async () => {
    const user = userEvent.setup();
    await renderScreen(live().app, <Harness />);
    await user.click(input());
    // "a" is in every e-mail (example.com): all four match, newest first.
    await user.type(input(), "a");
    await screen.findByText("4 matches: arrows to move, Enter to choose.");
    const options = screen.getAllByRole("option");
    const active = () => input().getAttribute("aria-activedescendant");
    expect(active()).toBeNull();
    await user.keyboard("{ArrowDown}");
    expect(active()).toBe(options[0]?.id);
    await user.keyboard("{ArrowDown}{ArrowDown}{ArrowDown}");
    expect(active()).toBe(options[3]?.id);
    await user.keyboard("{ArrowDown}");
    expect(active()).toBe(options[0]?.id);
    await user.keyboard("{ArrowUp}");
    expect(active()).toBe(options[3]?.id);
    expect(options[3]?.getAttribute("aria-selected")).toBe("true");
    expect(options[0]?.getAttribute("aria-selected")).toBe("false");

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(chosen()).toBe("nobody");
    await user.keyboard("{ArrowDown}");
    await screen.findByRole("listbox");
    await user.keyboard("{ArrowDown}{ArrowDown}{Enter}");
    // The second newest match: Grace.
    expect(chosen()).toBe(ids["grace@example.com"]);
    expect(input().value).toBe("Grace Hopper (grace@example.com)");
    expect(screen.queryByRole("listbox")).toBeNull();

    // Typing again means another user: the choice is dropped until one is chosen.
    await user.type(input(), "{Backspace}");
    expect(chosen()).toBe("nobody");
  });
});
