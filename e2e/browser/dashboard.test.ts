// The dashboard in Chromium, served by the real server process from a fresh build: a new operator signs up, creates
// a project, makes API keys and uses one from the server SDK, adds a user and finds them, creates a team and grants a
// permission, changes a sign-in setting and sees it on the project's sign-in page (the demo app built for that
// project), edits an e-mail template and sees it in the next e-mail, registers a webhook endpoint that receives the
// test event, and tries production mode. Screenshots of every screen go to test-output/dashboard/.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StackServerApp } from "@gatehouse/sdk";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDashboard } from "../../apps/dashboard/build.ts";
import { type RunningDemo, startDemo } from "../../apps/demo/serve.ts";
import { startIsolatedServer } from "../support.ts";
import { launchChromium, screenshotDir } from "./harness.ts";

let dist: string;
let gatehouse: Awaited<ReturnType<typeof startIsolatedServer>>;
let server: RunningServer;
let browser: Browser;
let page: Page;
let screenshots: string;
let shots = 0;
let receiver: Server;
const received: unknown[] = [];
let demo: RunningDemo | undefined;
let projectId = "";

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), "gatehouse-dashboard-"));
  await buildDashboard(dist);
  gatehouse = await startIsolatedServer("dashboard", {
    GATEHOUSE_DASHBOARD_DIR: dist,
    GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    GATEHOUSE_RATE_LIMIT_IP: "100000",
  });
  server = gatehouse.server;
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      received.push(JSON.parse(body));
      res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  browser = await launchChromium();
  screenshots = await screenshotDir("dashboard");
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(10_000);
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  receiver?.close();
  await gatehouse?.stop();
  if (dist) await rm(dist, { recursive: true, force: true });
});

async function screenshot(label: string, target: Page = page) {
  shots++;
  await target.screenshot({
    path: join(screenshots, `${String(shots).padStart(2, "0")}-${label}.png`),
    fullPage: true,
  });
}

const dashboard = (path = "") => `${server.baseUrl}/dashboard${path}`;

async function openSection(name: string) {
  await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
}

describe("the dashboard, from sign-up to a configured project", () => {
  it("signs a new operator up on the internal project's handler pages", async () => {
    await page.goto(dashboard());
    await page.waitForURL(/\/dashboard\/handler\/sign-in/);
    await screenshot("sign-in");
    await page.getByRole("link", { name: "Sign up" }).click();
    await page.getByLabel("E-mail", { exact: true }).fill("operator@example.com");
    await page.getByLabel("Password", { exact: true }).fill("operator password");
    await page.getByLabel("Repeat password").fill("operator password");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.getByRole("heading", { name: "Projects" }).waitFor();
    // The first operator owns the internal project: it is listed with their projects.
    await page.getByRole("link", { name: /Gatehouse Dashboard/ }).waitFor();
    await screenshot("projects");
  });

  it("creates a project, which opens on its overview", async () => {
    await page.getByLabel("Project name").fill("Shop");
    await page.getByLabel("Description (optional)").fill("The web shop");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.waitForURL(/\/dashboard\/projects\/[0-9a-f-]{36}$/);
    projectId = page.url().split("/").pop() as string;
    await page.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
    await screenshot("overview");
  });

  it("creates API keys, reveals them once, and the server key works from the SDK", async () => {
    await openSection("API keys");
    await page.getByRole("checkbox", { name: /Secret server key/ }).check();
    await page.getByLabel("Description").fill("back end");
    await page.getByRole("button", { name: "Create keys" }).click();
    const revealed = page.getByText(/^ssk_[0-9a-z]+$/);
    await revealed.waitFor();
    await screenshot("api-keys-revealed");
    const secretServerKey = (await revealed.textContent()) as string;

    const sdk = new StackServerApp({
      projectId,
      secretServerKey,
      baseUrl: server.baseUrl,
      tokenStore: "memory",
    });
    const made = await sdk.createUser({
      primaryEmail: "made-by-sdk@example.com",
      primaryEmailAuthEnabled: true,
    });
    expect((await sdk.getUser(made.id))?.primaryEmail).toBe("made-by-sdk@example.com");
  });

  it("adds a user and finds them by search", async () => {
    await openSection("Users");
    await page.getByRole("button", { name: "New user" }).click();
    await page.getByLabel("E-mail", { exact: true }).fill("grace@example.com");
    await page.getByLabel("Display name (optional)").fill("Grace Hopper");
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByRole("status").filter({ hasText: "Created" }).waitFor();
    await page.getByLabel("Search users").fill("grace");
    await page.getByRole("button", { name: "Search" }).click();
    const row = page.getByRole("table").getByRole("link", { name: "Grace Hopper" });
    await row.waitFor();
    // The search narrows the table: the user made from the SDK is no longer listed.
    await expect.poll(() => page.getByText("made-by-sdk@example.com").count()).toBe(0);
    await screenshot("users-search");
    await row.click();
    await page.getByRole("heading", { level: 1, name: /Grace Hopper/ }).waitFor();
    await screenshot("user-page");
  });

  it("creates a team, adds the user and grants them a permission", async () => {
    await openSection("Teams");
    await page.getByRole("button", { name: "New team" }).click();
    await page.getByLabel("Team name").fill("Support");
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByRole("status").getByRole("link", { name: "Support" }).click();
    await page.getByRole("heading", { level: 1, name: /Support/ }).waitFor();
    await page.getByLabel("Add a member (user id or e-mail)").fill("grace@example.com");
    await page.getByRole("button", { name: "Add member" }).click();
    await page.getByRole("button", { name: /Grant to Grace Hopper/ }).waitFor();
    await page.getByLabel("Permission to grant to Grace Hopper").selectOption("$invite_members");
    await page.getByRole("button", { name: /Grant to Grace Hopper/ }).click();
    await page.getByRole("button", { name: "Revoke $invite_members from Grace Hopper" }).waitFor();
    await screenshot("team-page");
  });

  it("turns magic links on, and the project's sign-in page offers them", async () => {
    demo = await startDemo({ port: 0, gatehouseUrl: server.baseUrl, projectId });
    const app = await page.context().newPage();
    await app.goto(`${demo.url}/handler/sign-in`);
    await app.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await expect(app.getByRole("tab", { name: "E-mail code" }).count()).resolves.toBe(0);

    await openSection("Authentication");
    await page.getByRole("switch", { name: /Magic link/ }).check();
    await page.getByRole("button", { name: "Save sign-in settings" }).click();
    await page.getByText("Sign-in settings saved.").waitFor();
    await screenshot("authentication");

    await app.reload();
    await app.getByRole("tab", { name: "E-mail code" }).waitFor();
    await screenshot("project-sign-in-page", app);
    await app.close();
  });

  it("edits the sign-in code template and the next e-mail in the outbox carries it", async () => {
    await openSection("E-mails");
    await page.getByRole("tab", { name: "Templates" }).click();
    await page.getByRole("button", { name: /Sign-in code and magic link/ }).click();
    await page.getByLabel("Subject").fill("Your Shop sign-in code");
    await page.getByRole("button", { name: "Save template" }).click();
    await page.getByText("Template saved", { exact: false }).waitFor();
    await screenshot("email-template");

    const app = await page.context().newPage();
    await app.goto(`${(demo as RunningDemo).url}/handler/sign-in`);
    await app.getByRole("tab", { name: "E-mail code" }).click();
    await app.getByLabel("E-mail", { exact: true }).fill("newcomer@example.com");
    await app.getByRole("button", { name: "E-mail me a code" }).click();
    await app.getByText("We sent a sign-in link and a code", { exact: false }).waitFor();
    await app.close();

    await page.getByRole("tab", { name: "Outbox" }).click();
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.getByText("Your Shop sign-in code").first().waitFor();
    await screenshot("outbox");
  });

  it("registers a webhook endpoint and sees the test event delivered", async () => {
    await openSection("Webhooks");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByRole("button", { name: "Add endpoint" }).last().click();
    await page.getByText(url).first().waitFor();
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.getByText("Test event delivered", { exact: false }).waitFor();
    expect(received).toContainEqual(expect.objectContaining({ type: "webhook.test" }));
    await screenshot("webhooks");
  });

  it("refuses production mode while problems remain, naming them as the spec does", async () => {
    await openSection("Domains & production");
    await page
      .getByText("Localhost is not allowed in production mode, turn off Allow localhost in project settings")
      .first()
      .waitFor();
    await page.getByRole("switch", { name: "Production mode" }).click();
    await page.getByText("Production mode cannot be turned on until these problems are fixed.").waitFor();
    await screenshot("production-mode");
  });

  it("shows every section of the project (a screenshot of each)", async () => {
    for (const section of [
      "Overview",
      "Users",
      "Teams",
      "Team permissions",
      "Authentication",
      "Domains & production",
      "E-mails",
      "API keys",
      "Webhooks",
    ]) {
      await page
        .getByRole("navigation", { name: "Project sections" })
        .getByRole("link", { name: section })
        .click();
      await page
        .getByRole("heading", { level: 1, name: section === "Overview" ? "Shop" : section })
        .waitFor();
      // Each section's reads have settled: nothing is loading any more.
      await expect.poll(() => page.getByText("Loading…").count()).toBe(0);
      await screenshot(`section-${section.toLowerCase().replace(/\W+/g, "-")}`);
    }
  });

  it("reads well in dark mode at 1024 px", async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 }, colorScheme: "dark" });
    const dark = await context.newPage();
    await dark.goto(dashboard(`/projects/${projectId}`));
    await dark.waitForURL(/handler\/sign-in/);
    await dark.getByLabel("E-mail", { exact: true }).fill("operator@example.com");
    await dark.getByLabel("Password", { exact: true }).fill("operator password");
    await dark.getByRole("button", { name: "Sign in", exact: true }).click();
    await dark.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
    const overflow = await dark.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot("overview-dark-1024", dark);
    await context.close();
  });
});
