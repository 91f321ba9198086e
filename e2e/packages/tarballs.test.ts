// The packages as a newcomer gets them: built, packed and installed from the tarballs into a fresh Vite app outside
// the repository, which type-checks against them, runs the SDK under plain node, and in Chromium signs up and shows
// account settings against the real server process. Runs once (PGlite): it tests the packages, not the database.
import { readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { continueAfterSignUp, launchChromium, screenshotter } from "../browser/harness.ts";
import { apiCaller, type Json, startIsolatedServer } from "../support.ts";
import { buildAndPack, buildApp, createApp, runNodeCheck, serveApp, typecheckApp } from "./tarball-app.ts";

const PASSWORD = "correct horse battery";

describe("the packed packages in a fresh app", () => {
  let gatehouse: Awaited<ReturnType<typeof startIsolatedServer>>;
  let server: RunningServer;
  let appDir: string;
  let tarballDir: string;
  let app: Awaited<ReturnType<typeof serveApp>>;
  let browser: Browser;
  let screenshot: Awaited<ReturnType<typeof screenshotter>>;

  beforeAll(async () => {
    // The build and the server's start are independent: side by side on a machine of 2 cores.
    const [tarballs, started] = await Promise.all([
      buildAndPack(),
      startIsolatedServer(
        "packages",
        {
          // The operator exists first, so the app's users are ordinary users of the internal project.
          STACK_SEED_INTERNAL_PROJECT_USER_EMAIL: "operator@example.com",
          STACK_SEED_INTERNAL_PROJECT_USER_PASSWORD: "operator password 1",
          STACK_SEED_INTERNAL_PROJECT_USER_INTERNAL_ACCESS: "true",
        },
        undefined,
        180_000,
      ),
    ]);
    gatehouse = started;
    tarballDir = dirname(tarballs[0] ?? "");
    server = started.server;
    appDir = await createApp(tarballs, {
      baseUrl: server.baseUrl,
      projectId: "internal",
      publishableClientKey: server.keys.pck,
    });
    await buildApp(appDir);
    app = await serveApp(appDir);
    const admin = {
      "x-stack-access-type": "admin",
      "x-stack-project-id": "internal",
      "x-stack-super-secret-admin-key": server.keys.sak,
    };
    const call = apiCaller(() => server);
    const current = await call("GET", "/projects/current", admin);
    const domains = (current.config as { domains: Json[] }).domains;
    await call("PATCH", "/projects/current", admin, {
      config: {
        sign_up_enabled: true,
        credential_enabled: true,
        allow_localhost: true,
        domains: [...domains, { domain: app.url, handler_path: "/handler" }],
      },
    });
    browser = await launchChromium();
    screenshot = await screenshotter("packages-tarballs");
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await gatehouse?.stop();
    for (const dir of [appDir, tarballDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("ships dist/ only: no sources, no test helpers", () => {
    for (const name of ["contract", "sdk", "react"]) {
      expect(readdirSync(join(appDir, "node_modules/@gatehouse", name)).sort()).toEqual([
        "dist",
        "package.json",
      ]);
    }
  });

  it("type-checks the app against the packages' declarations", async () => {
    await expect(typecheckApp(appDir)).resolves.toBeUndefined();
  });

  it("runs the SDK under plain node: a sign-up through StackClientApp", async () => {
    const email = `node-${Date.now()}@example.com`;
    expect(await runNodeCheck(appDir, email)).toEqual({ email });
  });

  it("signs up in Chromium and renders account settings", async () => {
    const page: Page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const email = `browser-${Date.now()}@example.com`;
    await page.goto(`${app.url}/handler/sign-up`);
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password").fill(PASSWORD);
    await screenshot(page, "sign-up");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await continueAfterSignUp(page);
    await page.getByText(`Signed in as ${email}`).waitFor();
    await screenshot(page, "home-signed-in");
    await page.goto(`${app.url}/handler/account-settings#account-emails`);
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    await page.getByText(email).first().waitFor();
    await screenshot(page, "account-settings");
    expect(pageErrors).toEqual([]);
  });
});
