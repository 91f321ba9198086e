// Every handler page of the demo app in Chromium, in the light and the dark theme, checked with axe-core (no serious
// or critical violation) and photographed into test-output/polish-pages/: the signed-out pages (with made-up codes,
// as a stale link brings them), an unknown route, and signed in every account settings section, onboarding and team
// creation. Beside that, the pages' comforts a person uses: the provider's mark on the OAuth button, the project's
// name on the card, the show-password button, the settings' sections by keyboard and URL, the way back to the app.
// The same axe check runs once more in Arabic, right to left. The axe results (pages × themes, violations by impact)
// are written to test-output/polish-pages/axe.json.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadLocale, translator } from "../../packages/react/src/translations.ts";
import { severeViolations, violationsByImpact } from "./axe.ts";
import { type DemoSetup, startDemoSetup } from "./demo-app.ts";
import { continueAfterSignUp } from "./harness.ts";

const PASSWORD = "correct horse battery";
/** A 240×120 PNG drawn in the page: left half blue, right half orange. */
async function widePicture(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 240;
    canvas.height = 120;
    const context = canvas.getContext("2d") as CanvasRenderingContext2D;
    context.fillStyle = "#2f54eb";
    context.fillRect(0, 0, 120, 120);
    context.fillStyle = "#f79009";
    context.fillRect(120, 0, 120, 120);
    return canvas.toDataURL("image/png");
  });
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
}

let setup: DemoSetup;
const results: { page: string; theme: string; severe: string[]; byImpact: Record<string, number> }[] = [];

/** Two inline SVG logos: a dark mark for light cards, a light one for dark cards (as a project would upload). */
const svgLogo = (fill: string) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="28" height="28"><rect width="28" height="28" rx="6" fill="${fill}"/></svg>`,
  ).toString("base64")}`;
const LOGO = svgLogo("#1d2b64");
const DARK_LOGO = svgLogo("#f5c542");

beforeAll(async () => {
  setup = await startDemoSetup("polish-pages");
  // Every page is checked and photographed with the project's logo on its card.
  await setup.call("PATCH", "/projects/current", setup.admin, {
    logo_url: LOGO,
    logo_dark_mode_url: DARK_LOGO,
  });
}, 120_000);

afterAll(async () => {
  const file = fileURLToPath(new URL("../../test-output/polish-pages/axe.json", import.meta.url));
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  await setup?.stop();
});

const at = (path: string) => `${setup.demo.url}${path}`;

const SIGNED_OUT_PAGES = [
  "/handler/sign-in",
  "/handler/sign-up",
  "/handler/forgot-password",
  "/handler/password-reset?code=made-up-code",
  "/handler/email-verification?code=made-up-code",
  "/handler/magic-link-callback?code=made-up-code",
  "/handler/team-invitation?code=made-up-code",
  "/handler/error?errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=Denied",
  "/handler/no-such-page",
];
const SETTINGS_SECTIONS = [
  "profile",
  "emails",
  "linked-accounts",
  "password",
  "passkey",
  "mfa",
  "sessions",
  "teams",
  "api-keys",
  "team-api-keys",
  "notifications",
  "delete",
];
const SIGNED_IN_PAGES = [
  ...SETTINGS_SECTIONS.map((section) => `/handler/account-settings#account-${section}`),
  "/handler/onboarding",
  "/handler/onboarding?signed_up=1",
  "/handler/team-creation",
  "/handler/cli-auth-confirm?login_code=made-up-code",
];

/**
 * Opens `path`, waits for its card to finish loading (`loading`: the page's word for it), records axe's serious and
 * critical findings, photographs it.
 */
async function check(page: Page, path: string, theme: string, loading = "Loading…") {
  await page.goto(at(path));
  await page.waitForFunction((loading) => {
    const title = document.querySelector("h1")?.textContent;
    return title && title !== loading && !document.querySelector(`[role="status"][aria-label="${loading}"]`);
  }, loading);
  const severe = await severeViolations(page);
  results.push({ page: path, theme, severe, byImpact: await violationsByImpact(page) });
  const label = path.replace(/^\/handler\//, "").replace(/[^a-z0-9]+/gi, "-");
  await setup.screenshot(page, `${theme}-${label}`);
  return severe;
}

describe.each(["light", "dark"] as const)("every page in the %s theme", (theme) => {
  it("has no serious or critical accessibility violation, signed out and signed in", async () => {
    const { page, context } = await setup.open({ colorScheme: theme });
    try {
      const found: Record<string, string[]> = {};
      for (const path of SIGNED_OUT_PAGES) {
        const severe = await check(page, path, theme);
        if (severe.length) found[path] = severe;
      }
      await page.goto(at("/handler/sign-up"));
      await page.getByLabel("E-mail", { exact: true }).fill(`axe-${theme}@example.com`);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Repeat password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await continueAfterSignUp(page);
      await page.waitForURL(at("/"));
      await page.getByRole("button", { name: /^Account menu of/ }).waitFor();
      for (const path of SIGNED_IN_PAGES) {
        const severe = await check(page, path, theme);
        if (severe.length) found[path] = severe;
      }
      expect(found).toEqual({});
    } finally {
      await context.close();
    }
  }, 240_000);
});

describe("every page right to left (Arabic)", () => {
  it("has no serious or critical accessibility violation, signed out and signed in", async () => {
    await loadLocale("ar");
    const t = translator("ar");
    const loading = t("common.loading");
    const { page, context } = await setup.open({ locale: "ar-EG" });
    try {
      const found: Record<string, string[]> = {};
      for (const path of SIGNED_OUT_PAGES) {
        const severe = await check(page, path, "rtl", loading);
        if (severe.length) found[path] = severe;
      }
      expect(await page.locator(".gh-root").first().getAttribute("dir")).toBe("rtl");
      await page.goto(at("/handler/sign-up"));
      await page.locator('input[type="email"]').fill("axe-rtl@example.com");
      for (const field of await page.locator('input[type="password"]').all()) await field.fill(PASSWORD);
      await page.getByRole("button", { name: t("auth.signUp.submit"), exact: true }).click();
      await page.getByRole("button", { name: t("onboarding.continue"), exact: true }).click();
      await page.waitForURL(at("/"));
      for (const path of SIGNED_IN_PAGES) {
        const severe = await check(page, path, "rtl", loading);
        if (severe.length) found[path] = severe;
      }
      expect(found).toEqual({});
    } finally {
      await context.close();
    }
  }, 240_000);
});

describe("the pages' comforts", () => {
  it("shows the provider's mark and the project's name, shows the password on request, and names an unknown page", async () => {
    const { page, context } = await setup.open();
    try {
      await page.goto(at("/handler/sign-in"));
      const github = page.getByRole("button", { name: "Sign in with GitHub" });
      // The mark is decoration inside a button named by its text.
      expect(await github.locator("svg.gh-provider-icon").getAttribute("aria-hidden")).toBe("true");
      await page.locator(".gh-brand", { hasText: "Demo flows" }).waitFor();
      // The project's logo beside its name, the dark-mode one only on a dark theme.
      expect(await page.locator(".gh-brand img:visible").getAttribute("src")).toBe(LOGO);
      const dark = await setup.open({ colorScheme: "dark" });
      try {
        await dark.page.goto(at("/handler/sign-up"));
        await dark.page.locator(".gh-brand", { hasText: "Demo flows" }).waitFor();
        expect(await dark.page.locator(".gh-brand img:visible").getAttribute("src")).toBe(DARK_LOGO);
        await setup.screenshot(dark.page, "logo-dark");
      } finally {
        await dark.context.close();
      }

      const password = page.getByLabel("Password", { exact: true });
      await password.fill(PASSWORD);
      expect(await password.getAttribute("type")).toBe("password");
      await page.getByRole("button", { name: "Show password" }).click();
      expect(await password.getAttribute("type")).toBe("text");
      await setup.screenshot(page, "password-shown");
      // The toggle is a plain button: it submitted nothing, and it now offers to hide the password again.
      expect(page.url()).toBe(at("/handler/sign-in"));
      await page.getByRole("button", { name: "Hide password" }).click();
      expect(await password.getAttribute("type")).toBe("password");

      await page.goto(at("/handler/no-such-page"));
      await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
      await page.getByText("There is no page at /handler/no-such-page.", { exact: false }).waitFor();
    } finally {
      await context.close();
    }
  });

  it("lists the linked GitHub account, which cannot be unlinked while it is the only way in", async () => {
    const { page, context } = await setup.open();
    try {
      await page.goto(at("/handler/sign-in"));
      await page.getByRole("button", { name: "Sign in with GitHub" }).click();
      await page.getByRole("button", { name: /Continue as Ada Lovelace/ }).click();
      await page.waitForURL(at("/"));
      await page.getByRole("button", { name: /^Account menu of/ }).waitFor();
      await page.goto(at("/handler/account-settings#account-linked-accounts"));
      const linked = page.getByRole("region", { name: "Linked accounts" });
      await linked.getByText("GitHub", { exact: true }).waitFor();
      await linked.getByText("Your only way to sign in", { exact: false }).waitFor();
      expect(await linked.getByRole("button", { name: "Unlink" }).count()).toBe(0);
      await setup.screenshot(page, "linked-accounts");
      expect(await severeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows account settings one section at a time, chosen by keyboard or URL, with a way back to the app", async () => {
    const { page, context } = await setup.open({ width: 390 });
    try {
      await page.goto(at("/handler/sign-up"));
      await page.getByLabel("E-mail", { exact: true }).fill("sections@example.com");
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Repeat password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await continueAfterSignUp(page);
      await page.waitForURL(at("/"));
      await page.getByRole("button", { name: /^Account menu of/ }).waitFor();

      await page.goto(at("/handler/account-settings"));
      await page.getByRole("region", { name: "Profile" }).waitFor();
      // A wide picture is previewed cropped to a square, and stored only when saved.
      await page
        .getByLabel("Profile picture")
        .setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: await widePicture(page) });
      await page.getByText("Your new picture, as others will see it").waitFor();
      const preview = page.locator(".gh-avatar-picker .gh-avatar img");
      expect(
        await preview.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]),
      ).toEqual([120, 120]);
      await setup.screenshot(page, "avatar-preview-390");
      await page.getByRole("button", { name: "Save picture" }).click();
      await page.getByRole("button", { name: "Change picture" }).waitFor();
      expect(await page.getByRole("region", { name: "E-mails" }).count()).toBe(0);
      const sections = page.getByRole("navigation", { name: "Sections" });
      await sections.getByRole("link", { name: "Active sessions" }).focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(at("/handler/account-settings#account-sessions"));
      await page.getByRole("region", { name: "Active sessions" }).waitFor();
      expect(await sections.getByRole("link", { name: "Active sessions" }).getAttribute("aria-current")).toBe(
        "page",
      );
      expect(await page.getByRole("region", { name: "Profile" }).count()).toBe(0);
      // Focus moved to the section chosen; the phone-width tab strip does not widen the page.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("account-sessions");
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await setup.screenshot(page, "settings-sessions-390");

      await page.goBack();
      await page.getByRole("region", { name: "Profile" }).waitFor();
      await page.getByRole("link", { name: "← Back to the app" }).click();
      await page.waitForURL(at("/"));
    } finally {
      await context.close();
    }
  });
});
