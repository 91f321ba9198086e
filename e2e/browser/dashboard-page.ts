// What the dashboard's browser suites share: the server process serving a fresh build of the dashboard, the sign-in
// on the dashboard's handler page, how far the page is wider than the window, and the computed style of an element.
import type { Locator, Page } from "playwright-core";
import { buildDashboard } from "../../apps/dashboard/build.ts";
import { sharedBuild } from "../shared-builds.ts";
import { startIsolatedServer } from "../support.ts";

/**
 * The server process (`name`, with `env`) serving the run's build of the dashboard, its per-IP limits out of the way
 * of a browser's many requests; `stop` ends it.
 */
export async function startDashboardServer(name: string, env: Record<string, string> = {}) {
  const gatehouse = await startIsolatedServer(name, {
    GATEHOUSE_DASHBOARD_DIR: await dashboardBuild(),
    GATEHOUSE_RATE_LIMIT_IP: "100000",
    ...env,
  });
  return { server: gatehouse.server, stop: gatehouse.stop };
}

/**
 * The folder of a build of the dashboard from its current sources (for GATEHOUSE_DASHBOARD_DIR), made once per test
 * run (e2e/shared-builds.ts) and only read by the servers that serve it.
 */
export function dashboardBuild(): Promise<string> {
  return sharedBuild("dashboard", buildDashboard);
}

/** Signs in on the dashboard's sign-in page, where `page` has just been sent. */
export async function signInThere(page: Page, email: string, password: string): Promise<void> {
  await page.waitForURL(/handler\/sign-in/);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** How far the page is wider than the window (0 or less: no sideways scrolling of the whole page). */
export const pageOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The computed values of some CSS properties of an element. */
export const styleOf = (locator: Locator, properties: string[]) =>
  locator.evaluate(
    (element, names) =>
      Object.fromEntries(names.map((n) => [n, getComputedStyle(element).getPropertyValue(n)])),
    properties,
  );
