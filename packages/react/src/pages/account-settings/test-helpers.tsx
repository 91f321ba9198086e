// What the account settings tests share: a freshly signed-up user on a live project, the page rendered for them,
// and a section of the page found by its heading.
import { screen, within } from "@testing-library/react";
import { expect } from "vitest";
import type { LiveSetup } from "../../test-support/live.ts";
import { renderWithApp, visit } from "../../test-support/render.tsx";
import { AccountSettings } from "./index.tsx";

export const PASSWORD = "correct horse battery";

/** Signs a new user up (and in) on the live app; returns their e-mail. */
export async function signUp(live: LiveSetup): Promise<string> {
  const email = `${crypto.randomUUID()}@example.com`;
  const result = await live.app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
  expect(result.status).toBe("ok");
  return email;
}

/** Renders the page for the signed-in user and waits until it shows its sections. */
export async function renderSettings(live: LiveSetup) {
  visit("/handler/account-settings");
  await renderWithApp(live.app, <AccountSettings />);
  await screen.findByRole("heading", { level: 1, name: "Account settings" });
}

/** A section of the page, by its title, for queries within it. */
export async function section(title: string) {
  return within(await screen.findByRole("region", { name: title }));
}

/** The signed-in user as the server has them (admin view). */
export async function serverUser(live: LiveSetup) {
  const user = await live.app.getUser({ or: "throw" });
  return live.admin("GET", `/users/${user.id}`);
}
