// @vitest-environment happy-dom
// The password section against a real server: the checks before sending (required, too short, too long,
// mismatch), setting a password for a user without one, then changing it (a wrong current one refused in place),
// and the section's absence when the project has no password sign-in.
import { cleanup, screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLive, type LiveSetup } from "../../test-support/live.ts";
import { PASSWORD, renderSettings, section, serverUser, signUp } from "./test-helpers.tsx";

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive();
});
afterAll(() => live.close());
afterEach(cleanup);

/** Signs in with e-mail and password on a separate app: whether the server takes the password. */
async function passwordWorks(email: string, password: string) {
  const result = await live.newApp().signInWithCredential({ email, password, noRedirect: true });
  return result.status === "ok";
}

describe("password", () => {
  it("checks before sending: required, too short, too long, and the repeat", async () => {
    await signUp(live);
    await renderSettings(live);
    const form = await section("Change password");
    const submit = form.getByRole("button", { name: "Change password" });
    await userEvent.click(submit);
    expect(form.getAllByRole("alert").map((a) => a.textContent)).toEqual([
      "This field is required.",
      "This field is required.",
    ]);
    expect(document.activeElement).toBe(form.getByLabelText("Current password"));

    await userEvent.type(form.getByLabelText("Current password"), PASSWORD);
    await userEvent.type(form.getByLabelText("New password"), "short");
    await userEvent.type(form.getByLabelText("Repeat new password"), "short");
    await userEvent.click(submit);
    expect(form.getByRole("alert").textContent).toBe("Password too short. Minimum length is 8.");
    expect(document.activeElement).toBe(form.getByLabelText("New password"));

    await userEvent.clear(form.getByLabelText("New password"));
    await userEvent.click(form.getByLabelText("New password"));
    await userEvent.paste("x".repeat(257));
    await userEvent.click(submit);
    expect(form.getAllByRole("alert").map((a) => a.textContent)).toEqual([
      "Password too long. Maximum length is 256.",
      "Passwords do not match.",
    ]);

    await userEvent.clear(form.getByLabelText("New password"));
    await userEvent.type(form.getByLabelText("New password"), "a long new password");
    await userEvent.clear(form.getByLabelText("Repeat new password"));
    await userEvent.type(form.getByLabelText("Repeat new password"), "a long new passw0rd");
    await userEvent.click(submit);
    expect(form.getByRole("alert").textContent).toBe("Passwords do not match.");
    expect(document.activeElement).toBe(form.getByLabelText("Repeat new password"));
  });

  it("refuses a wrong current password in place, then changes it", async () => {
    const email = await signUp(live);
    await renderSettings(live);
    const form = await section("Change password");
    await userEvent.type(form.getByLabelText("Current password"), "not the password");
    await userEvent.type(form.getByLabelText("New password"), "a brand new password");
    await userEvent.type(form.getByLabelText("Repeat new password"), "a brand new password");
    await userEvent.click(form.getByRole("button", { name: "Change password" }));
    expect((await form.findByRole("alert")).textContent).toBe("The current password is wrong.");
    expect(await passwordWorks(email, PASSWORD)).toBe(true);

    await userEvent.clear(form.getByLabelText("Current password"));
    await userEvent.type(form.getByLabelText("Current password"), PASSWORD);
    await userEvent.click(form.getByRole("button", { name: "Change password" }));
    expect(await form.findByText(/^Your password is changed/)).toBeTruthy();
    expect(form.getByLabelText("New password")).toHaveProperty("value", "");
    expect(await passwordWorks(email, "a brand new password")).toBe(true);
    expect(await passwordWorks(email, PASSWORD)).toBe(false);
  });

  it("sets a password for a user without one, and then offers to change it", async () => {
    // A magic-link sign-up has no password.
    const email = `${crypto.randomUUID()}@example.com`;
    expect((await live.app.sendMagicLinkEmail(email)).status).toBe("ok");
    const code = await live.codeFromEmail(email);
    expect((await live.app.signInWithMagicLink(code, { noRedirect: true })).status).toBe("ok");
    await renderSettings(live);
    const form = await section("Set a password");
    expect(form.queryByLabelText("Current password")).toBeNull();
    await userEvent.type(form.getByLabelText("New password"), "my first password");
    await userEvent.type(form.getByLabelText("Repeat new password"), "my first password");
    await userEvent.click(form.getByRole("button", { name: "Set password" }));

    const changed = await section("Change password");
    expect(await changed.findByText("Your password is set.")).toBeTruthy();
    expect(changed.getByLabelText("Current password")).toBeTruthy();
    expect((await serverUser(live)).has_password).toBe(true);
    expect(await passwordWorks(email, "my first password")).toBe(true);
  });

  it("is absent when the project has no password sign-in", async () => {
    const noPasswords = await createLive({ credential_enabled: false });
    try {
      const email = `${crypto.randomUUID()}@example.com`;
      await noPasswords.app.sendMagicLinkEmail(email);
      await noPasswords.app.signInWithMagicLink(await noPasswords.codeFromEmail(email), { noRedirect: true });
      await renderSettings(noPasswords);
      await section("Profile");
      expect(screen.queryByRole("region", { name: /password/i })).toBeNull();
    } finally {
      await noPasswords.close();
    }
  });
});
