// The dashboard in Chromium, served by the real server process from a fresh build: a new operator signs up, creates
// a project on the styled first screen, makes API keys (and their .env block) and uses one from the server SDK, adds
// a user and finds them, creates a team with a creator picked by search and grants a permission, changes a sign-in
// setting and sees it on the project's sign-in page (the demo app built for that project), copies an OAuth callback
// URL that the server then sends to the provider, edits an e-mail template and sees it in the next e-mail, registers
// a webhook endpoint that receives the test event, tries production mode, reads the overview's figures, and uses the
// first screen and the users' pages at 390 px. axe-core finds no serious or critical violation on any screen.
// Screenshots of every screen go to test-output/dashboard/.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { StackServerApp } from "@gatehouse/sdk";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDemo } from "../../apps/demo/serve.ts";
import { expectAccessible as expectAccessibleAxe } from "./axe.ts";
import { pageOverflow, signInThere, startDashboardServer, styleOf } from "./dashboard-page.ts";
import { startDemo } from "./demo-build.ts";
import { continueAfterSignUp, launchChromium, screenshotter } from "./harness.ts";

let gatehouse: Awaited<ReturnType<typeof startDashboardServer>>;
let server: RunningServer;
let browser: Browser;
let page: Page;
let shoot: Awaited<ReturnType<typeof screenshotter>>;
let receiver: Server;
const received: unknown[] = [];
let demo: RunningDemo | undefined;
let projectId = "";
let publishableClientKey = "";
/** Dashboard responses that failed (a missing favicon or asset would show here). */
const failedResponses: string[] = [];

beforeAll(async () => {
  gatehouse = await startDashboardServer("dashboard", { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
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
  shoot = await screenshotter("dashboard");
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(10_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
  page = await context.newPage();
  page.on("response", (response) => {
    if (response.url().includes("/dashboard") && response.status() >= 400)
      failedResponses.push(`${response.status()} ${response.url()}`);
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  receiver?.close();
  await gatehouse?.stop();
});

const screenshot = (label: string, target: Page = page) => shoot(target, label);

/** The project's sections after its overview and users (the screens the suite visits in most detail). */
const OTHER_SECTIONS = [
  "Teams",
  "Team permissions",
  "Authentication",
  "Domains & production",
  "E-mails",
  "API keys",
  "Webhooks",
];

const dashboard = (path = "") => `${server.baseUrl}/dashboard${path}`;

async function openSection(name: string, target: Page = page) {
  await target.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name }).click();
  await target.getByRole("heading", { level: 1, name }).waitFor();
}

/** No serious or critical accessibility violation on the page as it is now. */
const expectAccessible = (target: Page = page) => expectAccessibleAxe(target);

/** A new page of its own (cookies apart) at `width`, signed in as `email` on the dashboard's sign-in page. */
async function signedInPage(width: number, email: string, options: { dark?: boolean } = {}) {
  const context = await browser.newContext({
    viewport: { width, height: 844 },
    colorScheme: options.dark ? "dark" : "light",
  });
  context.setDefaultTimeout(10_000);
  const other = await context.newPage();
  await other.goto(dashboard(`/projects/${projectId}`));
  await signInThere(other, email, "operator password");
  return other;
}

describe("the dashboard, from sign-up to a configured project", () => {
  it("signs a new operator up on the internal project's handler pages", async () => {
    await page.goto(dashboard());
    await page.waitForURL(/\/dashboard\/handler\/sign-in/);
    await screenshot("sign-in");
    await expectAccessible();
    await page.getByRole("link", { name: "Sign up" }).click();
    await page.getByLabel("E-mail", { exact: true }).fill("operator@example.com");
    await page.getByLabel("Password", { exact: true }).fill("operator password");
    await page.getByLabel("Repeat password").fill("operator password");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await continueAfterSignUp(page);
    await page.getByRole("heading", { name: "Projects" }).waitFor();
    // The first operator owns the internal project: it is listed with their projects.
    await page.getByRole("link", { name: /Gatehouse Dashboard/ }).waitFor();
    await screenshot("projects");
    await expectAccessible();
  });

  it("creates a project on the first screen, whose form has the bricks' styles, and it opens", async () => {
    // The bricks' field, label and button, not the browser's defaults (2 px inset border, no radius, inline label).
    const name = page.getByLabel("Project name");
    expect(
      await styleOf(name, [
        "border-top-width",
        "border-top-style",
        "border-top-color",
        "border-radius",
        "padding",
      ]),
    ).toEqual({
      "border-top-width": "1px",
      "border-top-style": "solid",
      "border-top-color": "rgb(212, 216, 222)",
      "border-radius": "8px",
      padding: "9px 11px",
    });
    const label = await page.getByText("Project name", { exact: true }).boundingBox();
    const field = await name.boundingBox();
    expect(label && field && label.y + label.height <= field.y).toBe(true);
    const create = page.getByRole("button", { name: "Create project" });
    expect(await styleOf(create, ["background-color", "color", "border-radius"])).toEqual({
      "background-color": "rgb(47, 84, 235)",
      color: "rgb(255, 255, 255)",
      "border-radius": "8px",
    });
    await create.click();
    const error = page.getByText("Give the project a name.");
    expect(await styleOf(error, ["color"])).toEqual({ color: "rgb(180, 35, 24)" });
    await screenshot("create-project-refused");
    await expectAccessible();

    await page.getByLabel("Project name").fill("Shop");
    await page.getByLabel("Description (optional)").fill("The web shop");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.waitForURL(/\/dashboard\/projects\/[0-9a-f-]{36}$/);
    projectId = page.url().split("/").pop() as string;
    await page.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
    await screenshot("overview");
    await expectAccessible();
  });

  it("creates API keys, reveals them once, and the server key works from the SDK", async () => {
    await openSection("API keys");
    await page.getByRole("checkbox", { name: /Secret server key/ }).check();
    await page.getByLabel("Description").fill("back end");
    await page.getByRole("button", { name: "Create keys" }).click();
    const revealed = page.getByText(/^ssk_[0-9a-z]+$/);
    await revealed.waitFor();
    await screenshot("api-keys-revealed");
    await expectAccessible();
    const secretServerKey = (await revealed.textContent()) as string;
    publishableClientKey = (await page.getByText(/^pck_[0-9a-z]+$/).textContent()) as string;

    // The same keys as a .env block, copied with one button.
    const env = [
      `NEXT_PUBLIC_STACK_PROJECT_ID=${projectId}`,
      `NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY=${publishableClientKey}`,
      `STACK_SECRET_SERVER_KEY=${secretServerKey}`,
      `NEXT_PUBLIC_STACK_API_URL=${server.baseUrl}`,
    ].join("\n");
    await page.getByRole("button", { name: "Copy .env block" }).click();
    await page.getByText(".env block copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(env);

    const sdk = new StackServerApp({
      projectId,
      secretServerKey,
      baseUrl: server.baseUrl,
      tokenStore: "memory",
    });
    const made = await sdk.createUser({
      primaryEmail: "made-by-sdk@example.com",
      primaryEmailAuthEnabled: true,
      password: "made by the SDK",
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
    const row = page.getByRole("grid").getByRole("link", { name: "Grace Hopper" });
    await row.waitFor();
    // The search narrows the table: the user made from the SDK is no longer listed.
    await expect.poll(() => page.getByText("made-by-sdk@example.com").count()).toBe(0);
    await screenshot("users-search");
    await expectAccessible();
    // At 1280 px the table fits: its frame does not scroll, and the side navigation is there.
    const frame = page.getByRole("region", { name: "Users table" });
    expect(await frame.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(
      0,
    );
    expect(await page.getByRole("button", { name: "Sections" }).isVisible()).toBe(false);
    await row.click();
    await page.getByRole("heading", { level: 1, name: /Grace Hopper/ }).waitFor();
    await screenshot("user-page");
    await expectAccessible();
  });

  it("creates a team with a creator picked by search, adds a member and grants a permission", async () => {
    await openSection("Teams");
    await page.getByRole("button", { name: "New team" }).click();
    await page.getByLabel("Team name").fill("Support");
    const creator = page.getByRole("combobox", { name: "Creator (optional)" });
    await creator.pressSequentially("grace", { delay: 20 });
    const option = page.getByRole("option", { name: /Grace Hopper.*grace@example\.com/ });
    await option.waitFor();
    await screenshot("team-creator-picker");
    await expectAccessible();
    await creator.press("ArrowDown");
    expect(await option.getAttribute("aria-selected")).toBe("true");
    await creator.press("Enter");
    expect(await creator.inputValue()).toBe("Grace Hopper (grace@example.com)");
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByRole("status").getByRole("link", { name: "Support" }).click();
    await page.getByRole("heading", { level: 1, name: /Support/ }).waitFor();
    // The creator is the first member.
    const members = page.getByRole("region", { name: "Members table" });
    await members.getByRole("link", { name: "Grace Hopper" }).waitFor();

    const adding = page.getByRole("combobox", { name: "Add a member" });
    await adding.pressSequentially("made-by", { delay: 20 });
    await page.getByRole("option", { name: /made-by-sdk@example\.com/ }).click();
    await page.getByRole("button", { name: "Add member" }).click();
    await members.getByRole("link", { name: "made-by-sdk@example.com" }).waitFor();
    await page.getByLabel("Permission to grant to Grace Hopper").selectOption("$invite_members");
    await page.getByRole("button", { name: /Grant to Grace Hopper/ }).click();
    await page.getByRole("button", { name: "Revoke $invite_members from Grace Hopper" }).waitFor();
    await screenshot("team-page");
    await expectAccessible();
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
    await expectAccessible();

    await app.reload();
    await app.getByRole("tab", { name: "E-mail code" }).waitFor();
    await screenshot("project-sign-in-page", app);
    await app.close();
  });

  it("shows the callback URL of the project's own OAuth app, copies it, and the server sends that one", async () => {
    await openSection("Authentication");
    await page.getByRole("button", { name: "Add provider" }).click();
    const form = page.getByRole("form", { name: "Add a provider" });
    await form.getByLabel("Provider").selectOption("github");
    await form.getByRole("radio", { name: /Standard/ }).check();
    const callback = `${server.baseUrl}/api/v1/auth/oauth/callback/github`;
    expect(await form.getByRole("textbox", { name: "Callback URL" }).inputValue()).toBe(callback);
    await form.getByRole("button", { name: "Copy callback URL" }).click();
    await form.getByText("Callback URL copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(callback);
    await screenshot("oauth-callback-url");
    await expectAccessible();
    await form.getByLabel("Client id").fill("github-client-id");
    await form.getByLabel("Client secret").fill("github-client-secret");
    await form.getByRole("button", { name: "Add provider" }).click();
    await page.getByText("GitHub added.").waitFor();

    // A sign-in with GitHub starts at the provider with exactly that URL to come back to.
    const query = new URLSearchParams({
      client_id: projectId,
      client_secret: publishableClientKey,
      redirect_uri: "http://localhost:3000/handler/oauth-callback",
      scope: "legacy",
      state: "app-state",
      grant_type: "authorization_code",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      response_type: "code",
      stack_response_mode: "json",
    });
    const res = await fetch(`${server.baseUrl}/api/v1/auth/oauth/authorize/github?${query}`);
    const body = (await res.json()) as { location: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
    const provider = new URL(body.location);
    expect(provider.origin).toBe("https://github.com");
    expect(provider.searchParams.get("redirect_uri")).toBe(callback);
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
    await expectAccessible();
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
    await expectAccessible();
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
    await expectAccessible();
  });

  it("shows active users, the latest sign-ups and the sign-in methods on the overview", async () => {
    await page
      .getByRole("navigation", { name: "Project sections" })
      .getByRole("link", { name: "Overview" })
      .click();
    await page.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
    const figures = page.getByRole("list", { name: "Figures" });
    const figure = (label: string) =>
      figures.getByRole("listitem").filter({ hasText: label }).locator("strong").first().textContent();
    // Grace and the SDK's user signed up just now, neither anonymous (the figures read at the project's creation
    // are on screen until the new ones arrive).
    await expect.poll(() => figure("Users")).toBe("2");
    expect(await figure("Daily active users")).toBe("2");
    expect(await figure("Monthly active users")).toBe("2");
    expect(await figure("Teams")).toBe("1");
    const latest = page.getByRole("list", { name: "Latest sign-ups" });
    await expect
      .poll(async () => (await latest.getByRole("link").allTextContents()).sort())
      .toEqual(["Grace Hopper", "made-by-sdk@example.com"]);
    const methods = await page
      .getByRole("list", { name: "Sign-in methods" })
      .getByRole("listitem")
      .allTextContents();
    expect(methods.map((m) => m.replace(/\s+/g, " ").trim())).toEqual([
      "Password1 (50%)",
      "E-mail code or magic link0 (0%)",
      "Passkey0 (0%)",
      "No sign-in method1 (50%)",
    ]);
    await latest.getByRole("link", { name: "Grace Hopper" }).click();
    await page.getByRole("heading", { level: 1, name: /Grace Hopper/ }).waitFor();
    await page.goBack();
    await page.getByRole("list", { name: "Latest sign-ups" }).waitFor();
    await screenshot("overview-figures");
    await expectAccessible();
  });

  it("shows every section of the project (a screenshot of each)", async () => {
    for (const section of ["Overview", "Users", ...OTHER_SECTIONS]) {
      await page
        .getByRole("navigation", { name: "Project sections" })
        .getByRole("link", { name: section })
        .click();
      await page
        .getByRole("heading", { level: 1, name: section === "Overview" ? "Shop" : section })
        .waitFor();
      // Each section's reads have settled: nothing is loading any more.
      await expect.poll(() => page.getByText(/^Loading/).count()).toBe(0);
      await screenshot(`section-${section.toLowerCase().replace(/\W+/g, "-")}`);
      await expectAccessible();
    }
    // Every asset (the favicon included) was found.
    const icon = await page.locator("link[rel=icon]").getAttribute("href");
    const favicon = await fetch(new URL(icon ?? "", page.url()));
    expect([favicon.status, favicon.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);
    expect(failedResponses).toEqual([]);
  });

  it("reads well in dark mode at 1024 px", async () => {
    const dark = await signedInPage(1024, "operator@example.com", { dark: true });
    await dark.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
    await dark.getByRole("list", { name: "Latest sign-ups" }).waitFor();
    expect(await pageOverflow(dark)).toBeLessThanOrEqual(0);
    await screenshot("overview-dark-1024", dark);
    await expectAccessible(dark);
    await dark.context().close();
  });

  it("fits the first screen and the account menu in 390 px, a long e-mail ending in an ellipsis", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(10_000);
    const phone = await context.newPage();
    const email = "a-rather-long-operator-address-for-the-menu@example-company.com";
    await phone.goto(dashboard("/handler/sign-up"));
    await phone.getByLabel("E-mail", { exact: true }).fill(email);
    await phone.getByLabel("Password", { exact: true }).fill("operator password");
    await phone.getByLabel("Repeat password").fill("operator password");
    await phone.getByRole("button", { name: "Sign up", exact: true }).click();
    await continueAfterSignUp(phone);
    await phone.getByRole("heading", { name: "Create a project" }).waitFor();
    expect(await pageOverflow(phone)).toBeLessThanOrEqual(0);
    await screenshot("projects-390", phone);
    await expectAccessible(phone);

    await phone.getByRole("button", { name: /^Account menu of/ }).click();
    const line = phone.getByRole("menu").locator("xpath=..").getByText(email, { exact: true });
    await line.waitFor();
    expect(await styleOf(line, ["white-space", "text-overflow", "overflow-x"])).toEqual({
      "white-space": "nowrap",
      "text-overflow": "ellipsis",
      "overflow-x": "hidden",
    });
    // Cut at the menu's edge on one line, not broken over several.
    expect(await line.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    const box = await line.boundingBox();
    expect(box && box.height < 30 && box.x + box.width <= 390).toBe(true);
    await screenshot("account-menu-390", phone);
    await context.close();
  });

  it("folds the navigation, scrolls the users table inside its frame, and fits every section at 390 px", async () => {
    const phone = await signedInPage(390, "operator@example.com");
    await phone.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
    await phone.getByRole("list", { name: "Latest sign-ups" }).waitFor();
    expect(await pageOverflow(phone)).toBeLessThanOrEqual(0);
    await screenshot("overview-390", phone);
    await expectAccessible(phone);

    const nav = phone.getByRole("navigation", { name: "Project sections" });
    expect(await nav.isVisible()).toBe(false);
    await phone.getByRole("button", { name: "Sections" }).click();
    await nav.getByRole("link", { name: "Users" }).waitFor();
    await screenshot("sections-open-390", phone);
    await nav.getByRole("link", { name: "Users" }).click();
    await phone.getByRole("heading", { level: 1, name: "Users" }).waitFor();
    await phone.getByRole("link", { name: "Grace Hopper" }).waitFor();
    // Following a link folds the navigation again.
    expect(await nav.isVisible()).toBe(false);
    expect(await pageOverflow(phone)).toBeLessThanOrEqual(0);
    await screenshot("users-390", phone);
    await expectAccessible(phone);
    const frame = phone.getByRole("region", { name: "Users table" });
    expect(await frame.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await frame.focus();
    await phone.keyboard.press("ArrowRight");
    await expect.poll(() => frame.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);

    await phone.getByRole("link", { name: "Grace Hopper" }).click();
    await phone.getByRole("heading", { level: 1, name: /Grace Hopper/ }).waitFor();
    await expect.poll(() => phone.getByText(/^Loading/).count()).toBe(0);
    expect(await pageOverflow(phone)).toBeLessThanOrEqual(0);
    await screenshot("user-page-390", phone);
    await expectAccessible(phone);

    // Every other section fits too, reached through the fold.
    for (const section of OTHER_SECTIONS) {
      await phone.getByRole("button", { name: "Sections" }).click();
      await openSection(section, phone);
      await expect.poll(() => phone.getByText(/^Loading/).count()).toBe(0);
      expect(await pageOverflow(phone), section).toBeLessThanOrEqual(0);
      await screenshot(`section-${section.toLowerCase().replace(/\W+/g, "-")}-390`, phone);
      await expectAccessible(phone);
    }
    await phone.context().close();
  });
});
