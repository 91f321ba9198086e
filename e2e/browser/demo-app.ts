// The demo app's browser suites share this: the real server process on a database of its own, a project with every
// sign-in method on (made the way the dashboard makes one), the demo app built for that project and served on
// loopback, Chromium, and the project's development inbox read the way a person reads their mail.
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { apiCaller, type Json, operatorProject, startIsolatedServer } from "../support.ts";
import { startDemo } from "./demo-build.ts";
import { launchChromium, screenshotter } from "./harness.ts";

/** The demo project's settings: what `npm start`'s demo project has (apps/server/src/services/seed.ts). */
const DEMO_CONFIG = {
  magic_link_enabled: true,
  passkey_enabled: true,
  client_team_creation_enabled: true,
  client_user_deletion_enabled: true,
  create_team_on_sign_up: true,
  allow_user_api_keys: true,
  allow_team_api_keys: true,
  allow_localhost: true,
  oauth_providers: [{ id: "github", type: "shared", enabled: true }],
};

export type DemoSetup = Awaited<ReturnType<typeof startDemoSetup>>;

/** `env`: more of the server's settings (a suite that also drives the dashboard gives it GATEHOUSE_DASHBOARD_DIR). */
export async function startDemoSetup(name: string, env: Record<string, string> = {}) {
  // The suite signs in many times from one address: the per-IP request limit is not what it tests. Test identities
  // for the GitHub button, as `npm start` turns them on for its demo project.
  const gatehouse = await startIsolatedServer(name, {
    GATEHOUSE_RATE_LIMIT_IP: "100000",
    GATEHOUSE_DEVELOPMENT_OAUTH: "*",
    ...env,
  });
  const server: RunningServer = gatehouse.server;
  const { projectId, admin } = await operatorProject(server, {
    display_name: "Demo flows",
    config: DEMO_CONFIG,
  });
  const demo = await startDemo({ port: 0, gatehouseUrl: server.baseUrl, projectId });
  const browser: Browser = await launchChromium();
  const screenshot = await screenshotter(name);
  const call = apiCaller(() => server);

  /** The newest e-mail to `to` in the project's development inbox (waits for the outbox to have it). */
  async function lastEmail(to: string, after = 0): Promise<{ subject: string; text: string }> {
    for (let tries = 0; tries < 50; tries++) {
      const list = await call("GET", `/internal/emails?to=${encodeURIComponent(to)}`, admin);
      const items = list.items as (Json & { subject: string; text: string; created_at_millis: number })[];
      const email = items[0];
      if (email && email.created_at_millis > after) return email;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`No e-mail to ${to}`);
  }

  /** The first link of the newest e-mail to `to` that leads back to the demo app. */
  async function linkFromEmail(to: string, after = 0): Promise<string> {
    const email = await lastEmail(to, after);
    const link = email.text.match(/https?:\/\/[^\s)>"]+/g)?.find((url) => url.startsWith(demo.url));
    if (!link) throw new Error(`No demo link in the e-mail to ${to}: ${email.text}`);
    return link;
  }

  /**
   * Makes the demo app the project's app (its trusted domain, where the dashboard's Impersonate and the OpenID
   * Provider send the browser) and creates a user who signs in with `user`'s password; returns the user's id.
   */
  async function demoAppWithUser(user: { email: string; password: string; name: string }): Promise<string> {
    await call("PATCH", "/projects/current", admin, {
      config: { domains: [{ domain: demo.url, handler_path: "/handler" }] },
    });
    const made = await call(
      "POST",
      "/users",
      admin,
      {
        primary_email: user.email,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
        password: user.password,
        display_name: user.name,
      },
      201,
    );
    return String(made.id);
  }

  return {
    server,
    projectId,
    admin,
    call,
    demo,
    browser,
    lastEmail,
    linkFromEmail,
    demoAppWithUser,
    /** A fresh browser (own cookies) on the demo app. */
    async open(options: { colorScheme?: "light" | "dark"; width?: number; locale?: string } = {}) {
      const context: BrowserContext = await browser.newContext({
        colorScheme: options.colorScheme ?? "light",
        // The browser's language (navigator.languages), which picks the pages' locale.
        ...(options.locale ? { locale: options.locale } : {}),
        viewport: { width: options.width ?? 1100, height: 860 },
      });
      // A step that waits longer than this is failing: say which one, well inside the test's own time limit.
      context.setDefaultTimeout(10_000);
      const page: Page = await context.newPage();
      if (process.env.DEMO_DEBUG) page.on("console", (m) => console.log("browser:", m.type(), m.text()));
      return { context, page };
    },
    /** Saves a full-page screenshot as test-output/<suite>/<nn>-<label>.png. */
    screenshot,
    async stop() {
      await browser.close();
      await demo.close();
      await gatehouse.stop();
    },
  };
}

/** The demo app's account menu, there while someone is signed in. */
export const accountMenu = (page: Page) => page.getByRole("button", { name: /^Account menu of/ });

/** The sign-in page's "Continue with SSO": opens the form, takes the address, and goes to the identity provider. */
export async function continueWithSso(setup: DemoSetup, page: Page, email: string) {
  await page.goto(`${setup.demo.url}/handler/sign-in`);
  await page.getByRole("button", { name: "Continue with SSO" }).click();
  const form = page.getByRole("form", { name: "Continue with SSO" });
  await form.getByLabel("E-mail").fill(email);
  await setup.screenshot(page, "sso-form");
  await form.getByRole("button", { name: "Continue with SSO" }).click();
}

/** At the OpenID provider process's own pages (testing/oidc-provider-server.ts): signs in as `login`, consents. */
export async function signInAtOidcProvider(setup: DemoSetup, page: Page, issuer: string, login: string) {
  await page.waitForURL(`${issuer}/**`).catch(async (error) => {
    await setup.screenshot(page, "not-at-provider");
    throw new Error(`Not at the provider (${page.url()}): ${await page.locator("main").innerText()}`, {
      cause: error,
    });
  });
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await setup.screenshot(page, "provider-login");
  await page.locator('button[type="submit"]').click();
  await page.locator('input[name="prompt"][value="consent"]').waitFor({ state: "attached" });
  await setup.screenshot(page, "provider-consent");
  await page.locator('button[type="submit"]').click();
}
