// The dashboard's users table in Chromium, on the real server process with 45 users: the first visit asks the
// server for one page of 20 and nothing more, sorting asks for the server's order, the column choice survives a
// reload, the keyboard moves, selects and opens, a bulk ban is confirmed and reported, and a row's unban works;
// then the same table at 390 px scrolls inside its frame. axe-core finds no serious or critical violation on any
// of it. Screenshots go to test-output/dashboard-users/ (test-output/dashboard/ is emptied by the main suite).
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, type Json, operatorProject } from "../support.ts";
import { expectAccessible } from "./axe.ts";
import { pageOverflow, signInThere, startDashboardServer } from "./dashboard-page.ts";
import { launchChromium, screenshotter } from "./harness.ts";

const OPERATOR = { email: "operator@example.com", password: "operator password 1" };
const pad = (n: number) => String(n).padStart(2, "0");

let gatehouse: Awaited<ReturnType<typeof startDashboardServer>>;
let server: RunningServer;
let browser: Browser;
let page: Page;
let shoot: Awaited<ReturnType<typeof screenshotter>>;
let projectId = "";
let admin: Record<string, string>;
/** The user listings the dashboard asked the server for ("limit=20&order_by=…"). */
const listings: URLSearchParams[] = [];

beforeAll(async () => {
  gatehouse = await startDashboardServer("dashboard-users");
  server = gatehouse.server;
  const made = await operatorProject(server, { display_name: "Shop" });
  projectId = made.projectId;
  admin = made.admin;
  const call = apiCaller(() => server);
  for (let n = 1; n <= 45; n++) {
    await call(
      "POST",
      "/users",
      admin,
      { primary_email: `person-${pad(n)}@example.com`, display_name: `Person ${pad(n)}` },
      201,
    );
  }
  browser = await launchChromium();
  shoot = await screenshotter("dashboard-users");
  page = await signedInPage(1280);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await gatehouse?.stop();
});

const screenshot = (label: string, target: Page = page) => shoot(target, label);

const usersUrl = () => `${server.baseUrl}/dashboard/projects/${projectId}/users`;

/** A page of its own at `width`, signed in as the operator, on the users screen; its listings are counted. */
async function signedInPage(width: number) {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  context.setDefaultTimeout(10_000);
  const opened = await context.newPage();
  opened.on("request", (request) => {
    const url = new URL(request.url());
    if (request.method() === "GET" && url.pathname === "/api/v1/users") listings.push(url.searchParams);
  });
  await opened.goto(usersUrl());
  await signInThere(opened, OPERATOR.email, OPERATOR.password);
  await opened.getByRole("heading", { level: 1, name: "Users" }).waitFor();
  return opened;
}

const grid = (target: Page = page) => target.getByRole("grid", { name: /^Users/ });
const bodyRows = (target: Page = page) => grid(target).locator("tbody tr");
const rowOf = (name: string, target: Page = page) => bodyRows(target).filter({ hasText: name });
const names = (target: Page = page) => bodyRows(target).locator(".dash-person-identity a").allTextContents();

describe("the users table in Chromium", () => {
  it("reads one page of 20 users from the server on the first visit, with avatars, names and e-mails", async () => {
    await grid().waitFor();
    expect(await bodyRows().count()).toBe(20);
    expect((await names())[0]).toBe("Person 45");
    expect(await rowOf("Person 45").locator(".gh-avatar").textContent()).toBe("P4");
    expect(await rowOf("Person 45").textContent()).toContain("person-45@example.com");
    expect(listings.map((q) => q.get("limit"))).toEqual(["20"]);
    // At 1280 px every default column fits: the table's frame does not scroll.
    const frame = page.getByRole("region", { name: "Users table" });
    expect(await frame.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(
      0,
    );
    await screenshot("users-1280");
    await expectAccessible(page);
  });

  it("sorts by last activity on the server and pages on with the cursor", async () => {
    listings.length = 0;
    await page.getByRole("button", { name: /^Last active/ }).click();
    await expect
      .poll(() => page.getByRole("columnheader", { name: /Last active/ }).getAttribute("aria-sort"))
      .toBe("descending");
    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText("Page 2", { exact: true }).waitFor();
    expect(listings.map((q) => [q.get("order_by"), q.get("desc"), q.has("cursor")])).toEqual([
      ["last_active_at", "true", false],
      ["last_active_at", "true", true],
    ]);
    await page.getByRole("button", { name: /^Signed up/ }).click();
    await page.getByText("Page 1", { exact: true }).waitFor();
  });

  it("shows the column chosen, and keeps the choice after a reload", async () => {
    await page.getByText("Columns", { exact: true }).click();
    await page.getByRole("checkbox", { name: "User ID" }).check();
    await page.getByRole("checkbox", { name: "Sign-in methods" }).uncheck();
    await screenshot("users-columns-1280");
    await expectAccessible(page);
    await page.reload();
    await grid().waitFor();
    expect(await page.getByRole("columnheader", { name: "User ID" }).count()).toBe(1);
    expect(await page.getByRole("columnheader", { name: "Sign-in methods" }).count()).toBe(0);
    await page.getByText("Columns", { exact: true }).click();
    await page.getByRole("checkbox", { name: "User ID" }).uncheck();
    await page.getByRole("checkbox", { name: "Sign-in methods" }).check();
    await page.getByText("Columns", { exact: true }).click();
  });

  it("moves with the arrow keys, selects with Space, and bans three users after a confirmation", async () => {
    await rowOf("Person 45").focus();
    await page.keyboard.press("ArrowDown");
    expect(await rowOf("Person 44").evaluate((row) => row === document.activeElement)).toBe(true);
    await page.keyboard.press(" ");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press(" ");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press(" ");
    await page.getByText("3 users selected").waitFor();
    await screenshot("users-selected-1280");
    await expectAccessible(page);

    await page.getByRole("button", { name: "Ban 3 users", exact: true }).click();
    await page.getByText("Ban 3 users? They are signed out everywhere").waitFor();
    await screenshot("users-bulk-confirm-1280");
    await page.getByRole("button", { name: "Ban 3 users", exact: true }).click();
    await page.getByText("Banned 3 users.").waitFor();
    await expect.poll(() => rowOf("Person 43").getByText("banned", { exact: true }).count()).toBe(1);
    await screenshot("users-bulk-done-1280");
    await expectAccessible(page);
    const call = apiCaller(() => server);
    const listed = (await call("GET", "/users?include_restricted=true&limit=100", admin)).items as Json[];
    const bannedNames = listed.filter((u) => u.restricted_by_admin).map((u) => u.display_name);
    expect(bannedNames.sort()).toEqual(["Person 42", "Person 43", "Person 44"]);
  });

  it("lifts one ban from the row's actions, and Enter opens the user", async () => {
    await rowOf("Person 43").getByRole("button", { name: "Unban person-43@example.com" }).click();
    await screenshot("users-row-confirm-1280");
    await rowOf("Person 43").getByRole("button", { name: "Unban", exact: true }).click();
    await expect.poll(() => rowOf("Person 43").getByText("active", { exact: true }).count()).toBe(1);
    await rowOf("Person 43").focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: /Person 43/ }).waitFor();
  });

  it("fits 390 px: the table scrolls inside its frame, the page does not", async () => {
    const phone = await signedInPage(390);
    await grid(phone).waitFor();
    expect(await pageOverflow(phone)).toBeLessThanOrEqual(0);
    await screenshot("users-390", phone);
    await expectAccessible(phone);
    const frame = phone.getByRole("region", { name: "Users table" });
    expect(await frame.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);

    await rowOf("Person 45", phone).getByRole("checkbox").check();
    await rowOf("Person 44", phone).getByRole("checkbox").check();
    await phone.getByText("2 users selected").waitFor();
    expect(await pageOverflow(phone)).toBeLessThanOrEqual(0);
    await screenshot("users-selected-390", phone);
    await expectAccessible(phone);
    await phone.context().close();
  });
});
