// `npm start` as a newcomer meets it, in Chromium: someone signs up in the demo app, the operator signs up in the
// dashboard and finds the demo project there, opens it, sees that user, reads their verification e-mail in the
// outbox and the link in it verifies the address, and adds a local webhook URL: no API call and no server log on the
// way. Screenshots go to test-output/demo-in-dashboard/.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNpmStart } from "../npm-start.ts";
import { severeViolations } from "./axe.ts";
import { dashboardBuild } from "./dashboard-page.ts";
import { continueAfterSignUp, launchChromium, screenshotter } from "./harness.ts";

const NEWCOMER = "newcomer@example.com";

let started: Awaited<ReturnType<typeof startNpmStart>>;
let browser: Browser;
let screenshot: Awaited<ReturnType<typeof screenshotter>>;
let newcomer: Page;
let operator: Page;

beforeAll(async () => {
  started = await startNpmStart("demo-in-dashboard", await dashboardBuild());
  browser = await launchChromium();
  screenshot = await screenshotter("demo-in-dashboard");
  const page = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10_000);
    return context.newPage();
  };
  newcomer = await page();
  operator = await page();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await started?.stop();
});

async function openSection(name: string) {
  await operator.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name }).click();
  await operator.getByRole("heading", { level: 1, name }).waitFor();
}

describe("the demo project in the dashboard after npm start", () => {
  it("signs a newcomer up in the demo app", async () => {
    await newcomer.goto(`${started.demoUrl}/handler/sign-up`);
    await newcomer.getByLabel("E-mail", { exact: true }).fill(NEWCOMER);
    await newcomer.getByLabel("Password", { exact: true }).fill("newcomer password");
    await newcomer.getByLabel("Repeat password").fill("newcomer password");
    await newcomer.getByRole("button", { name: "Sign up", exact: true }).click();
    await continueAfterSignUp(newcomer);
    await newcomer.waitForURL(`${started.demoUrl}/`);
    await newcomer.getByRole("button", { name: /^Account menu of/ }).waitFor();
    await screenshot(newcomer, "demo-signed-up");
  });

  it("shows the operator the demo project right after signing up, and it opens", async () => {
    await operator.goto(`${started.server.baseUrl}/dashboard`);
    await operator.waitForURL(/\/dashboard\/handler\/sign-in/);
    await operator.getByRole("link", { name: "Sign up" }).click();
    await operator.getByLabel("E-mail", { exact: true }).fill("operator@example.com");
    await operator.getByLabel("Password", { exact: true }).fill("operator password");
    await operator.getByLabel("Repeat password").fill("operator password");
    await operator.getByRole("button", { name: "Sign up", exact: true }).click();
    await continueAfterSignUp(operator);
    await operator.getByRole("heading", { name: "Projects" }).waitFor();
    const demo = operator
      .getByRole("list", { name: "Your projects" })
      .getByRole("link", { name: /Gatehouse demo/ });
    await demo.waitFor();
    await screenshot(operator, "projects-with-demo");
    expect(await severeViolations(operator)).toEqual([]);
    await demo.click();
    await operator.waitForURL(/\/dashboard\/projects\/demo$/);
    await operator.getByRole("heading", { level: 1, name: "Gatehouse demo" }).waitFor();
    await screenshot(operator, "demo-overview");
  });

  it("lists the user who signed up in the demo app", async () => {
    await openSection("Users");
    await operator
      .getByRole("region", { name: "Users table" })
      .getByRole("link", { name: NEWCOMER, exact: true })
      .waitFor();
    await screenshot(operator, "demo-users");
    expect(await severeViolations(operator)).toEqual([]);
  });

  it("shows their verification e-mail in the outbox, and its link verifies the address", async () => {
    await openSection("E-mails");
    await operator.getByRole("tab", { name: "Outbox" }).click();
    const subject = "Verify your email at Gatehouse demo";
    await operator.getByRole("button", { name: subject }).click();
    const email = operator.getByRole("region", { name: `E-mail: ${subject}` });
    await email.getByText(NEWCOMER).waitFor();
    await email.getByText("Plain-text version").click();
    const text = (await email.locator("pre").textContent()) ?? "";
    await screenshot(operator, "demo-verification-email");
    expect(await severeViolations(operator)).toEqual([]);

    const link = text.match(/https?:\/\/[^\s)>"]+/g)?.find((url) => url.startsWith(started.demoUrl));
    expect(link).toContain("/handler/email-verification?code=");
    await newcomer.goto(String(link));
    await newcomer.getByRole("button", { name: "Verify e-mail" }).click();
    await newcomer.getByText("Your e-mail has been verified.").waitFor();
    await screenshot(newcomer, "demo-verified");
  });

  it("accepts a local webhook URL, since npm start is a development start", async () => {
    await openSection("Webhooks");
    await operator.getByRole("button", { name: "Add endpoint" }).click();
    const url = "http://127.0.0.1:9/hooks";
    await operator.getByLabel("Endpoint URL").fill(url);
    await operator.getByRole("button", { name: "Add endpoint" }).last().click();
    await operator.getByText(url).first().waitFor();
    expect(await operator.getByText("must be a public address", { exact: false }).count()).toBe(0);
    await screenshot(operator, "demo-local-webhook");
    expect(await severeViolations(operator)).toEqual([]);
  });
});
