// @vitest-environment happy-dom
// <UserButton> against a real server: the signed-out buttons, the menu by keyboard and mouse (name, e-mail, account
// settings, extra items) and signing out.
import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { liveSuite } from "../pages/auth/test-helpers.ts";
import { renderWithApp, visit } from "../test-support/render.tsx";
import { UserButton } from "./user-button.tsx";

const live = liveSuite();
let users = 0;

/** A fresh app with a newly signed-up user named `name`. */
async function signedIn(name = "Ada Lovelace") {
  const app = live.newApp();
  const email = `user-button-${++users}@example.com`;
  const result = await app.signUpWithCredential({ email, password: "correct-horse-9", noRedirect: true });
  if (result.status === "error") throw result.error;
  const user = await app.getUser({ or: "throw" });
  await user.update({ displayName: name });
  return { app, email };
}

describe("signed out", () => {
  it("offers sign in and sign up, each keeping the page to come back to", async () => {
    visit("/pricing");
    await renderWithApp(live.newApp(), <UserButton />);
    expect(screen.queryByRole("button", { name: /account menu/i })).toBeNull();

    await userEvent.click(await screen.findByRole("button", { name: "Sign in" }));
    await userEvent.click(screen.getByRole("button", { name: "Sign up" }));
    expect(live.navigations).toEqual([
      "/handler/sign-in?after_auth_return_to=%2Fpricing",
      "/handler/sign-up?after_auth_return_to=%2Fpricing",
    ]);
  });
});

describe("signed in", () => {
  it("opens the menu with Enter on the first item, moves with the arrows, closes with Escape", async () => {
    const { app, email } = await signedIn();
    const user = userEvent.setup();
    await renderWithApp(app, <UserButton />);
    const trigger = await screen.findByRole("button", { name: "Account menu of Ada Lovelace" });
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
    expect(trigger.getAttribute("aria-haspopup")).toBe("menu");
    expect(screen.queryByRole("menu")).toBeNull();

    await user.tab();
    expect(document.activeElement).toBe(trigger);
    await user.keyboard("{Enter}");
    const menu = screen.getByRole("menu");
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
    expect(trigger.getAttribute("aria-controls")).toBe(menu.id);
    expect(screen.getByText(email)).toBeTruthy();
    const items = screen.getAllByRole("menuitem").map((item) => item.textContent);
    expect(items).toEqual(["Account settings", "Sign out"]);
    expect(document.activeElement).toBe(screen.getByRole("menuitem", { name: "Account settings" }));

    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(screen.getByRole("menuitem", { name: "Sign out" }));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(screen.getByRole("menuitem", { name: "Account settings" }));
    await user.keyboard("{ArrowUp}");
    expect(document.activeElement).toBe(screen.getByRole("menuitem", { name: "Sign out" }));

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(trigger);
    expect(live.navigations).toEqual([]);
  });

  it("opens with Space and ArrowDown too, and closes on a click outside", async () => {
    const { app } = await signedIn();
    const user = userEvent.setup();
    await renderWithApp(
      app,
      <>
        <p>elsewhere</p>
        <UserButton />
      </>,
    );
    const trigger = await screen.findByRole("button", { name: /account menu/i });
    trigger.focus();
    await user.keyboard(" ");
    expect(screen.getByRole("menu")).toBeTruthy();
    await user.click(screen.getByText("elsewhere"));
    expect(screen.queryByRole("menu")).toBeNull();

    trigger.focus();
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(screen.getByRole("menuitem", { name: "Account settings" }));
  });

  it("shows the name and e-mail beside the avatar with showUserInfo", async () => {
    const { app, email } = await signedIn("Grace Hopper");
    await renderWithApp(app, <UserButton showUserInfo />);
    const trigger = await screen.findByRole("button", { name: /account menu of grace hopper/i });
    expect(trigger.textContent).toContain("Grace Hopper");
    expect(trigger.textContent).toContain(email);
  });

  it("goes to account settings and runs the app's extra items", async () => {
    const { app } = await signedIn();
    const onClick = vi.fn();
    const user = userEvent.setup();
    await renderWithApp(app, <UserButton extraItems={[{ text: "Billing", onClick }]} />);
    await user.click(await screen.findByRole("button", { name: /account menu/i }));
    expect(screen.getAllByRole("menuitem").map((item) => item.textContent)).toEqual([
      "Account settings",
      "Billing",
      "Sign out",
    ]);
    await user.click(screen.getByRole("menuitem", { name: "Billing" }));
    expect(onClick).toHaveBeenCalledOnce();
    expect(screen.queryByRole("menu")).toBeNull();

    await user.click(screen.getByRole("button", { name: /account menu/i }));
    await user.click(screen.getByRole("menuitem", { name: "Account settings" }));
    await waitFor(() => expect(live.navigations).toEqual(["/handler/account-settings"]));
  });

  it("signs out: the session ends and the buttons come back", async () => {
    const { app } = await signedIn();
    const user = userEvent.setup();
    await renderWithApp(app, <UserButton />);
    await user.click(await screen.findByRole("button", { name: /account menu/i }));
    await user.click(screen.getByRole("menuitem", { name: "Sign out" }));

    expect(await screen.findByRole("button", { name: "Sign in" })).toBeTruthy();
    expect(live.navigations).toEqual(["/"]);
    expect(await app.getUser()).toBeNull();
  });
});
