// Issue 23's import screen in Chromium: an operator moving in from Clerk uploads the Clerk CSV export on the "Import
// users" screen (reached from the users screen), watches the progress bar reach the end, reads the counts and the
// skipped record with why; then an imported user signs in over HTTP with the password they had at Clerk. axe finds no
// serious or critical violation on the screen.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import bcrypt from "bcryptjs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, operatorProject } from "../support.ts";
import { expectAccessible } from "./axe.ts";
import { signInThere, startDashboardServer } from "./dashboard-page.ts";
import { launchChromium, screenshotter } from "./harness.ts";

const OPERATOR = { email: "operator@example.com", password: "operator password 1" };
const HEADER =
  "id,first_name,last_name,username,primary_email_address,primary_phone_number,verified_email_addresses,unverified_email_addresses,verified_phone_numbers,unverified_phone_numbers,totp_secret,password_digest,password_hasher";

let gatehouse: Awaited<ReturnType<typeof startDashboardServer>>;
let server: RunningServer;
let browser: Browser;
let page: Page;
let projectId = "";
let publishableKey = "";
let exportFile = "";

beforeAll(async () => {
  gatehouse = await startDashboardServer("dashboard-import");
  server = gatehouse.server;
  const made = await operatorProject(server, { display_name: "Moving in" });
  projectId = made.projectId;
  const keys = await apiCaller(() => server)("POST", "/internal/api-keys", made.admin, {
    description: "app",
    expires_at_millis: Date.now() + 86_400_000,
    has_publishable_client_key: true,
    has_secret_server_key: false,
    has_super_secret_admin_key: false,
  });
  publishableKey = String(keys.publishable_client_key);
  // Clerk's export: bcrypt digests as Clerk stores them, and one user whose hasher Gatehouse does not take.
  const digest = await bcrypt.hash("old clerk password", 10);
  const rows = Array.from(
    { length: 40 },
    (_, i) =>
      `user_${i},Person,${i},,person${i}@clerk.example,,person${i}@clerk.example,,,,,${digest},bcrypt`,
  );
  rows.push("user_odd,Odd,,,odd@clerk.example,,odd@clerk.example,,,,,xyz,argon2");
  exportFile = join(await mkdtemp(join(tmpdir(), "gatehouse-clerk-")), "clerk_users.csv");
  await writeFile(exportFile, `${HEADER}\n${rows.join("\n")}\n`);
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await gatehouse?.stop();
});

async function signIn(email: string, password: string): Promise<number> {
  const res = await fetch(`${server.baseUrl}/api/v1/auth/password/sign-in`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-stack-access-type": "client",
      "x-stack-project-id": projectId,
      "x-stack-publishable-client-key": publishableKey,
    },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

describe("moving in from Clerk on the import screen", () => {
  it("uploads the export, follows the progress to the end, and the users sign in with their old passwords", async () => {
    const shoot = await screenshotter("dashboard-import");
    await page.goto(`${server.baseUrl}/dashboard/projects/${projectId}/users`);
    await signInThere(page, OPERATOR.email, OPERATOR.password);
    await page.getByRole("link", { name: "Import users" }).click();
    await page.getByRole("heading", { level: 1, name: "Import users" }).waitFor();
    await page.getByText("No imports yet.").waitFor();

    await page.getByLabel("Provider").selectOption("clerk");
    await page.getByText("The CSV from Clerk's Dashboard").waitFor();
    await page.getByLabel("Export file").setInputFiles(exportFile);
    await expectAccessible(page);
    await shoot(page, "form");
    await page.getByRole("button", { name: "Start import" }).click();

    const bar = page.getByRole("progressbar", { name: "Import progress" });
    await bar.waitFor();
    expect(await bar.getAttribute("aria-valuemax")).toBe("41");
    // The server's worker runs the job; the screen reads it every second until it ends.
    await page.getByRole("status").filter({ hasText: "Finished" }).waitFor({ timeout: 60_000 });
    expect(await bar.getAttribute("aria-valuenow")).toBe("41");
    const progress = page.getByRole("region", { name: /Import progress/ });
    expect(await progress.getByRole("status").innerText()).toMatch(
      /^Finished · 41 of 41 records · [\d,]+ records\/s/,
    );
    const counts = await progress.locator("dl").innerText();
    expect(counts.replace(/\s+/g, " ")).toBe("Created 40 Already there 0 Skipped 1");
    const skipped = progress.getByRole("table", { name: "Skipped records and why" });
    expect(await skipped.locator("tbody tr").innerText()).toMatch(
      /42\s+—\s+password_hasher argon2 is not supported/,
    );
    const past = page.locator("section", { has: page.getByRole("heading", { name: "Past imports" }) });
    await past.getByText("clerk_users.csv").waitFor();
    await expectAccessible(page);
    await shoot(page, "finished");

    expect(await signIn("person7@clerk.example", "old clerk password")).toBe(200);
    expect(await signIn("person7@clerk.example", "not the password")).toBe(400);
    expect(await signIn("odd@clerk.example", "anything at all")).toBe(400);
  }, 120_000);
});
