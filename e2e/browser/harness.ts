// What every browser test needs besides the server process (e2e/support.ts): Debian's Chromium through
// playwright-core, and a folder for the screenshots a person looks at afterwards, numbered in the order taken.
import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Chromium, or a failure that says how to get it: browser tests fail rather than skip without a browser. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: browser tests need it (apt-get install chromium, or set CHROMIUM_PATH).`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM });
}

/** `test-output/<name>/`, created empty: where a suite saves its screenshots (none left from an earlier run). */
export async function screenshotDir(name: string): Promise<string> {
  const dir = fileURLToPath(new URL(`../../test-output/${name}/`, import.meta.url));
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * A suite's screenshots, numbered in order into test-output/<name>/ (emptied first), each of the full page from the
 * top, so the sticky top bar is drawn at the top of the picture, not where the page was scrolled.
 */
export async function screenshotter(name: string) {
  const dir = await screenshotDir(name);
  let shots = 0;
  return async (page: Page, label: string) => {
    shots++;
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: join(dir, `${String(shots).padStart(2, "0")}-${label}.png`),
      fullPage: true,
    });
  };
}

/** A virtual platform authenticator (resident keys, user verification, presence simulated) for a page's passkeys. */
export async function addVirtualAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/**
 * Waits until the page shows `url`, by asking the page where it is rather than following one navigation: an app that
 * navigates twice in a row (a router push, then the same address loaded again) aborts the first navigation, and
 * Playwright's waitForURL fails on that abort (net::ERR_ABORTED) though the page does arrive.
 */
export async function arriveAt(page: Page, url: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (page.url() !== url) {
    if (Date.now() > deadline) throw new Error(`the page stayed at ${page.url()}, never reaching ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * After a sign-up on our pages: the onboarding page says the verification e-mail went out (a notice that lasts
 * until the person goes on), then on to the app.
 */
export async function continueAfterSignUp(page: Page): Promise<void> {
  await page.getByText("Your account is ready.").waitFor();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
}
