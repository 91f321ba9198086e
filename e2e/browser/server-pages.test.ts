// The pages the server serves itself, in Chromium: `/` (which instance this is and the ways in, light and dark), the
// API reference at /api/v1/docs (Scalar, served by the server: nothing from another site, no console error, no
// horizontal overflow at 1280 and 390 px, a try-it request that carries the project headers and is answered), and the
// favicon, so no page logs a 404. axe finds no serious or critical violation. Screenshots: test-output/server-pages/.
import { join } from "node:path";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIsolatedServer } from "../support.ts";
import { severeViolations } from "./axe.ts";
import { launchChromium, screenshotDir } from "./harness.ts";

let server: RunningServer;
let stopServer: () => Promise<void>;
let browser: Browser;
let shots: string;

beforeAll(async () => {
  ({ server, stop: stopServer } = await startIsolatedServer("server-pages"));
  browser = await launchChromium();
  shots = await screenshotDir("server-pages");
});

afterAll(async () => {
  await browser?.close();
  await stopServer?.();
});

// Scalar's reference is the heaviest page here: loading and settling it took 15-19 s of a test in CI, where the other
// test worker keeps both cores busy, and a try-it request on top of it passed the 30 s default. The steps and their
// checks are the same; only the time they may take on a loaded machine is longer.
const HEAVY_PAGE_MS = 90_000;

type Opened = { page: Page; problems: string[]; requested: string[] };

/** A page at `path`, recording what went wrong on it: console errors, page errors, failed or refused requests. */
async function open(path: string, width: number, colorScheme: "light" | "dark" = "light"): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
  const problems: string[] = [];
  const requested: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("request", (request) => requested.push(request.url()));
  page.on("requestfailed", (request) =>
    problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`),
  );
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  await page.goto(`${server.baseUrl}${path}`, { waitUntil: "networkidle" });
  return { page, problems, requested };
}

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("the page at /", () => {
  for (const [width, scheme] of [
    [1280, "light"],
    [1280, "dark"],
    [390, "light"],
    [390, "dark"],
  ] as const) {
    it(`names the instance and links the ways in, at ${width} px, ${scheme}`, async () => {
      const { page, problems } = await open("/", width, scheme);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Gatehouse");
      expect(await page.locator("main").textContent()).toContain(server.baseUrl);
      const links = await page.getByRole("link").evaluateAll((all) => all.map((a) => a.getAttribute("href")));
      expect(links).toEqual(["/dashboard/", "/api/v1/docs", "/api/v1/openapi.json", "/health?db=1"]);
      expect(await overflow(page)).toBe(0);
      expect(await severeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(shots, `landing-${width}-${scheme}.png`), fullPage: true });
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it("leads to the API reference and to a healthy server", { timeout: HEAVY_PAGE_MS }, async () => {
    const { page, problems } = await open("/", 1280);
    await page.getByRole("link", { name: /Health/ }).click();
    await expect.poll(() => page.textContent("body")).toBe('{"status":"ok"}');
    await page.goBack();
    await page.getByRole("link", { name: /API reference/ }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/api/v1/docs");
    await page.getByRole("heading", { name: "Gatehouse API", level: 1 }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("the API reference at /api/v1/docs", { timeout: HEAVY_PAGE_MS }, () => {
  for (const [width, scheme] of [
    [1280, "light"],
    [390, "dark"],
  ] as const) {
    it(`renders the document from this server alone, at ${width} px, ${scheme}`, async () => {
      const { page, problems, requested } = await open("/api/v1/docs", width, scheme);
      await page.getByRole("heading", { name: "Gatehouse API", level: 1 }).waitFor();
      await page.getByRole("heading", { name: "Meta", level: 2 }).waitFor();
      // Scalar, its settings, the OpenAPI document and the icon, all from here: no CDN, no fonts or telemetry.
      expect(requested.filter((url) => !url.startsWith(`${server.baseUrl}/`))).toEqual([]);
      expect(requested).toContain(`${server.baseUrl}/api/v1/openapi.json`);
      expect(await overflow(page)).toBe(0);
      expect(await severeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(shots, `docs-${width}-${scheme}.png`) });
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it("sends a try-it request with the project's headers and shows the answer", async () => {
    const { page, problems } = await open("/api/v1/docs", 1280);
    // The authentication box of the introduction, with client access preselected: the project id and its key.
    const auth = page.locator("section").filter({ hasText: "ProjectId: header" }).first();
    const values = auth.getByLabel("Value");
    await values.nth(0).fill("internal");
    await values.nth(1).fill(server.keys.pck);

    await page.getByRole("button", { name: "Open Group - Projects" }).click();
    await page.getByRole("link", { name: /^The current project: the admin view/ }).click();
    await page.getByRole("button", { name: "Test Request (get /api/v1/projects/current)" }).click();
    const sent = page.waitForRequest((request) => request.url().endsWith("/api/v1/projects/current"));
    await page.getByRole("button", { name: /^Send get request to / }).click();
    const request = await sent;
    // The access type is the operation's header parameter, filled in with the first type it takes.
    expect(request.headers()).toMatchObject({
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": server.keys.pck,
    });
    expect((await request.response())?.status()).toBe(200);
    await page.getByText("200 OK").first().waitFor();
    await page.getByText('"Gatehouse Dashboard"').first().waitFor();
    expect(await severeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(shots, "docs-try-it-1280.png") });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("the favicon", () => {
  it("is served as the Gatehouse icon, so no page asks for it in vain", async () => {
    for (const path of ["/favicon.svg", "/favicon.ico"]) {
      const res = await fetch(`${server.baseUrl}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toBe("image/svg+xml");
      expect(await res.text(), path).toContain("<title>Gatehouse</title>");
    }
    // A page that names no icon: the browser asks for /favicon.ico, and gets it.
    const { page, problems } = await open("/api/v1", 1280);
    expect(problems).toEqual([]);
    await page.close();
  });
});
