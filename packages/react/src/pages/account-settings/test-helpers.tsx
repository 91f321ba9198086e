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

/** The anchor of the page's navigation that shows each section (by the section's title). */
const ANCHORS: Record<string, string> = {
  Profile: "profile",
  Language: "language",
  "E-mails": "emails",
  "Change password": "password",
  "Set a password": "password",
  Passkey: "passkey",
  "Two-factor authentication": "mfa",
  "Active sessions": "sessions",
  "Connected apps": "connected-apps",
  Teams: "teams",
  "API keys": "api-keys",
  "Team API keys": "team-api-keys",
  Notifications: "notifications",
  "Delete account": "delete",
};

/**
 * A section of the page, by its title, for queries within it. The page shows one section at a time: the section's
 * anchor is chosen first, as the navigation's link does (a part without an anchor is looked for on the page shown).
 */
export async function section(title: string) {
  const anchor = ANCHORS[title];
  if (anchor && window.location.hash !== `#account-${anchor}`) window.location.hash = `#account-${anchor}`;
  return within(await screen.findByRole("region", { name: title }));
}

/** The signed-in user as the server has them (admin view). */
export async function serverUser(live: LiveSetup) {
  const user = await live.app.getUser({ or: "throw" });
  return live.admin("GET", `/users/${user.id}`);
}
