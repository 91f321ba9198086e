// Impersonation and bans from the dashboard, in Chromium, with the demo app as the project's app (its address is the
// project's trusted domain): the operator impersonates a demo user, and the demo app opens as that user with the
// banner, which ends it; the operator bans the user, whose open session ends and whose sign-in on the demo app is
// refused in words; lifting the ban lets them in again. Screenshots go to test-output/impersonation/.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible } from "./axe.ts";
import { dashboardBuild, signInThere } from "./dashboard-page.ts";
import { type DemoSetup, startDemoSetup } from "./demo-app.ts";

const USER = { email: "dana@example.com", password: "dana's password", name: "Dana Demo" };
const BANNED_TEXT = "This account has been suspended by the site's administrator, so it cannot sign in.";

let setup: DemoSetup;
let operator: Page;
let userId: string;

beforeAll(async () => {
  setup = await startDemoSetup("impersonation", { GATEHOUSE_DASHBOARD_DIR: await dashboardBuild() });
  userId = await setup.demoAppWithUser(USER);
  ({ page: operator } = await setup.open({ width: 1280 }));
  await operator.goto(`${setup.server.baseUrl}/dashboard/projects/${setup.projectId}/users/${userId}`);
  await signInThere(operator, "operator@example.com", "operator password 1");
  await operator.getByRole("heading", { level: 1, name: USER.name }).waitFor();
}, 240_000);

afterAll(async () => {
  await setup?.stop();
});

const access = () => operator.getByRole("region", { name: "Access" });

const dashboardShot = (label: string) => setup.screenshot(operator, label);

/** Signs in on the demo app's sign-in page as the demo user. */
async function signInOnDemo(page: Page) {
  await page.goto(`${setup.demo.url}/handler/sign-in`);
  await page.getByLabel("E-mail", { exact: true }).fill(USER.email);
  await page.getByLabel("Password", { exact: true }).fill(USER.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

describe("impersonation", () => {
  it("opens the demo app as the user, with the banner, and End ends it", async () => {
    await access().getByRole("button", { name: "Impersonate" }).waitFor();
    await dashboardShot("user-page-access");
    await expectAccessible(operator);

    const opened = operator.context().waitForEvent("page");
    await access().getByRole("button", { name: "Impersonate" }).click();
    const app = await opened;
    await app.waitForURL(`${setup.demo.url}/`);
    // The tokens left the address bar on the way.
    expect(app.url()).not.toContain("refresh_token");
    const banner = app.getByRole("complementary", { name: "Impersonation" });
    await expect(banner.textContent()).resolves.toContain(
      `You are signed in as ${USER.name} by impersonation.`,
    );
    await app.getByRole("button", { name: `Account menu of ${USER.name}` }).waitFor();
    await setup.screenshot(app, "demo-impersonated");
    // The handler pages show it too (checked for accessibility there: the demo's own header is not this suite's).
    await app.goto(`${setup.demo.url}/handler/account-settings`);
    await banner.waitFor();
    await setup.screenshot(app, "demo-account-settings-impersonated");
    await expectAccessible(app);
    await app.setViewportSize({ width: 390, height: 844 });
    await setup.screenshot(app, "demo-impersonated-390");
    await access().getByText(`Opened the app as ${USER.email} in a new tab.`).waitFor();
    await dashboardShot("impersonation-opened");

    // The session is marked: the admin's listing shows it as an impersonation.
    const listed = await setup.call("GET", `/auth/sessions?user_id=${userId}`, setup.admin);
    expect((listed.items as { is_impersonation: boolean }[]).map((s) => s.is_impersonation)).toEqual([true]);

    await app.getByRole("button", { name: `End the impersonation of ${USER.name}` }).click();
    await app.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    expect(await banner.count()).toBe(0);
    const after = await setup.call("GET", `/auth/sessions?user_id=${userId}`, setup.admin);
    expect(after.items).toEqual([]);
    await setup.screenshot(app, "demo-impersonation-ended");
    await app.close();
  });
});

describe("a ban", () => {
  it("signs the user out, and their sign-in on the demo app is refused in words until unbanned", async () => {
    const { page: user } = await setup.open();
    await signInOnDemo(user);
    await user.getByRole("button", { name: `Account menu of ${USER.name}` }).waitFor();

    await access().getByLabel("Reason for a ban (optional)").fill("Chargebacks");
    await access().getByRole("button", { name: "Ban", exact: true }).click();
    await access().getByText(`Ban ${USER.email}?`, { exact: false }).waitFor();
    await dashboardShot("ban-question");
    await access().getByRole("button", { name: "Ban", exact: true }).click();
    await access().getByText("Banned", { exact: true }).waitFor();
    await access().getByText("Reason: Chargebacks.", { exact: false }).waitFor();
    await dashboardShot("user-banned");
    await expectAccessible(operator);

    // Signed out everywhere: the open demo page finds itself signed out at its next look.
    await user.goto(`${setup.demo.url}/protected`);
    await user.waitForURL(/\/handler\/sign-in/);
    await signInOnDemo(user);
    await user.getByText(BANNED_TEXT).waitFor();
    await setup.screenshot(user, "demo-sign-in-refused");
    await expectAccessible(user);

    await access().getByRole("button", { name: "Unban" }).click();
    await access().getByRole("button", { name: "Unban" }).last().click();
    await access().getByRole("button", { name: "Impersonate" }).waitFor();
    await signInOnDemo(user);
    await user.getByRole("button", { name: `Account menu of ${USER.name}` }).waitFor();
  });
});
