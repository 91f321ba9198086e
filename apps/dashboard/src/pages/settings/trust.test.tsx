// @vitest-environment happy-dom
// The Trust & safety screen against the real server: the password rules and bot protection saved and read back by the
// admin view (the Turnstile secret written but never put on the page, and kept when the field is left empty), the
// claim template's refusal by the server shown in place and a valid one saved, and the audit retention checked.
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../../testing.tsx";
import { type TrustConfig, TrustPage } from "./trust.tsx";

const live = dashboardLiveSuite();
const SECRET = "0x4AAAAAAAdashboard-secret";

const trustConfig = async () => (await live().project.app.getProject()).config as unknown as TrustConfig;
const section = (name: string) => screen.getByRole("form", { name });

describe("the Trust & safety screen", () => {
  it("saves the password rules and the bot protection, the secret write-only", async () => {
    await renderScreen(live().app, <TrustPage project={live().project} />);
    const user = userEvent.setup();
    const passwords = section("Passwords");
    await user.selectOptions(within(passwords).getByLabelText("Breached-password check"), "range");
    await user.type(within(passwords).getByLabelText("Range service URL"), "not a url");
    await user.selectOptions(within(passwords).getByLabelText("Minimum strength (zxcvbn score)"), "3");
    await user.click(within(passwords).getByRole("button", { name: "Save password rules" }));
    expect(within(passwords).getByText(/Enter an address starting with https:\/\//)).toBeTruthy();
    const rangeUrl = within(passwords).getByLabelText("Range service URL");
    await user.clear(rangeUrl);
    await user.type(rangeUrl, "https://range.example.com");
    await user.click(within(passwords).getByRole("button", { name: "Save password rules" }));
    expect(await within(passwords).findByText("Saved.")).toBeTruthy();
    let config = await trustConfig();
    expect(config.passwordBreachCheck).toBe("range");
    expect(config.passwordBreachRangeUrl).toBe("https://range.example.com");
    expect(config.passwordMinStrength).toBe(3);

    const bot = section("Bot protection");
    await user.selectOptions(within(bot).getByLabelText("Challenge"), "always");
    await user.click(within(bot).getByRole("button", { name: "Save bot protection" }));
    expect(
      within(bot).getByText("Turning the challenge on needs the site key and the secret key."),
    ).toBeTruthy();
    await user.type(within(bot).getByLabelText("Turnstile site key"), "0x4AAAAAAAsite");
    await user.type(within(bot).getByLabelText("Turnstile secret key"), SECRET);
    await user.click(within(bot).getByRole("button", { name: "Save bot protection" }));
    expect(await within(bot).findByText("Saved.")).toBeTruthy();
    config = await trustConfig();
    expect(config.botProtection).toBe("always");
    expect(config.botProtectionSiteKey).toBe("0x4AAAAAAAsite");
    expect(config.botProtectionSecret).toBe(SECRET);
    // Never on the page, now that it is stored; saving again without typing it keeps it.
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(await within(bot).findByText(/A secret is stored; it is never shown/)).toBeTruthy();
    await user.selectOptions(within(bot).getByLabelText("Challenge"), "suspicious");
    await user.click(within(bot).getByRole("button", { name: "Save bot protection" }));
    expect(await within(bot).findByText("Saved.")).toBeTruthy();
    config = await trustConfig();
    expect(config.botProtection).toBe("suspicious");
    expect(config.botProtectionSecret).toBe(SECRET);
  });

  it("shows the server's refusal of a claim template, then saves a valid one", async () => {
    await renderScreen(live().app, <TrustPage project={live().project} />);
    const user = userEvent.setup();
    const editor = screen.getByRole("textbox", { name: "Access-token claims" }) as HTMLTextAreaElement;
    const save = screen.getByRole("button", { name: "Save claims" });
    await user.clear(editor);
    await user.click(editor);
    await user.paste('{ "metadata": [{ "claim": "Plan", "source": "client_metadata", "key": "plan" }] }');
    await user.click(save);
    expect(await screen.findByText(/must be lower-case letters/)).toBeTruthy();
    expect((await trustConfig()).accessTokenClaims).toBeNull();

    await user.clear(editor);
    await user.paste(
      '{ "metadata": [{ "claim": "plan", "source": "client_metadata", "key": "plan" }], "teams": "permissions", "project_permissions": true }',
    );
    await user.click(save);
    expect(await screen.findByText("Access-token claims saved.")).toBeTruthy();
    expect((await trustConfig()).accessTokenClaims).toEqual({
      metadata: [{ claim: "plan", source: "client_metadata", key: "plan" }],
      teams: "permissions",
      projectPermissions: true,
    });
    // Shown back as written: the wire's snake_case.
    expect(editor.value).toContain('"project_permissions": true');
  });

  it("checks and saves the audit retention and the new-device switch", async () => {
    await renderScreen(live().app, <TrustPage project={live().project} />);
    const user = userEvent.setup();
    const audit = section("Audit log");
    const days = within(audit).getByLabelText("Keep entries for (days)");
    await user.type(days, "0");
    await user.click(within(audit).getByRole("button", { name: "Save audit settings" }));
    expect(within(audit).getByText(/Enter a whole number of days from 1 to 36500/)).toBeTruthy();
    await user.clear(days);
    await user.type(days, "90");
    await user.click(within(audit).getByRole("button", { name: "Save audit settings" }));
    expect(await within(audit).findByText("Saved.")).toBeTruthy();
    expect((await trustConfig()).auditLogRetentionDays).toBe(90);

    const device = screen.getByRole("switch", { name: /E-mail users about sign-ins from a new device/ });
    expect((device as HTMLInputElement).checked).toBe(true);
    await user.click(device);
    expect(await screen.findByText("New-device e-mails are off.")).toBeTruthy();
    expect((await trustConfig()).newDeviceNoticeEnabled).toBe(false);
  });
});
