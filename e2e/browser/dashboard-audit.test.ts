// Issue 21's Done-when story in Chromium: a reviewer asks "who changed this user's e-mail, and from where?" and answers
// it from the dashboard alone. A server key behind the proxy changes the address; the operator opens the user's page
// and its audit panel shows the change with actor, both addresses, IP and time; the project's audit screen finds the
// same entry by type. axe finds no serious or critical violation on either page.
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, operatorProject } from "../support.ts";
import { expectAccessible } from "./axe.ts";
import { signInThere, startDashboardServer } from "./dashboard-page.ts";
import { launchChromium, screenshotter } from "./harness.ts";

const OPERATOR = { email: "operator@example.com", password: "operator password 1" };
const FROM_IP = "198.51.100.23";

let gatehouse: Awaited<ReturnType<typeof startDashboardServer>>;
let server: RunningServer;
let browser: Browser;
let page: Page;
let projectId = "";
let userId = "";

beforeAll(async () => {
  // Behind a proxy, so the address the change came from is the one X-Forwarded-For names.
  gatehouse = await startDashboardServer("dashboard-audit", { GATEHOUSE_TRUST_PROXY: "true" });
  server = gatehouse.server;
  const made = await operatorProject(server, { display_name: "Reviewed" });
  projectId = made.projectId;
  const call = apiCaller(() => server);
  const user = await call(
    "POST",
    "/users",
    made.admin,
    { primary_email: "before@example.com", display_name: "Reviewed Person" },
    201,
  );
  userId = String(user.id);
  const keys = await call("POST", "/internal/api-keys", made.admin, {
    description: "back office",
    expires_at_millis: Date.now() + 86_400_000,
    has_publishable_client_key: false,
    has_secret_server_key: true,
    has_super_secret_admin_key: false,
  });
  await call(
    "PATCH",
    `/users/${userId}`,
    {
      "x-stack-access-type": "server",
      "x-stack-project-id": projectId,
      "x-stack-secret-server-key": String(keys.secret_server_key),
      "x-forwarded-for": FROM_IP,
    },
    { primary_email: "after@example.com" },
  );
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(10_000);
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await gatehouse?.stop();
});

describe("who changed this user's e-mail, and from where", () => {
  it("the user's page shows the change with actor, addresses, IP and time; the audit screen finds it", async () => {
    const shoot = await screenshotter("dashboard-audit");
    const started = Date.now();
    await page.goto(`${server.baseUrl}/dashboard/projects/${projectId}/users/${userId}`);
    await signInThere(page, OPERATOR.email, OPERATOR.password);
    await page.getByRole("heading", { level: 1, name: "Reviewed Person" }).waitFor();

    const entries = page.getByRole("region", { name: "Audit log entries" });
    const row = entries.locator("tr").filter({ hasText: "user.email_changed" });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain("Server key");
    expect(text).toContain(FROM_IP);
    expect(text).toContain("before@example.com");
    expect(text).toContain("after@example.com");
    // The time, in the operator's language: today's date.
    const today = new Intl.DateTimeFormat("en", { dateStyle: "medium" }).format(new Date());
    expect(text).toContain(today);
    await expectAccessible(page);
    await shoot(page, "user-page-audit");

    await page.goto(`${server.baseUrl}/dashboard/projects/${projectId}/audit-log`);
    await page.getByRole("heading", { level: 1, name: "Audit log" }).waitFor();
    await page.getByLabel("Type").selectOption("user.email_changed");
    const found = page.getByRole("region", { name: "Audit log entries" }).locator("tbody tr");
    await found.first().waitFor();
    expect(await found.count()).toBe(1);
    expect(await found.first().innerText()).toContain(FROM_IP);
    await expectAccessible(page);
    await shoot(page, "audit-screen");
    // The reviewer's minute, with the sign-in in it (a loaded machine's time, far above a person's reading).
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);
});
