// Every handler page in each supported language, in Chromium against the real server: the browser's language
// (the context's locale, so navigator.languages) picks the locale, one page load per language, then each handler
// page in turn through the handler's own client-side navigation. Each page's heading is the locale's text for it (not
// English's); Arabic pages are laid out right to left. Screenshots: test-output/languages/ (German, Japanese, Arabic).
import { SUPPORTED_LOCALES, type SupportedLocale } from "@gatehouse/contract/locales";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadLocale, type MessageKey, translator } from "../../packages/react/src/translations.ts";
import { type DemoSetup, startDemoSetup } from "./demo-app.ts";

/** What a browser in each locale sends as its language (a region, as real browsers have). */
const BROWSER_LOCALE: Record<SupportedLocale, string> = {
  en: "en-US",
  de: "de-DE",
  fr: "fr-FR",
  es: "es-ES",
  "pt-BR": "pt-BR",
  it: "it-IT",
  ja: "ja-JP",
  ko: "ko-KR",
  "zh-Hans": "zh-CN",
  "zh-Hant": "zh-TW",
  nl: "nl-NL",
  pl: "pl-PL",
  ar: "ar-EG",
};

/** Each handler page a signed-out visitor can open, and the message its heading shows. */
const SIGNED_OUT_PAGES: [path: string, heading: MessageKey][] = [
  ["sign-in", "auth.signIn.title"],
  ["sign-up", "auth.signUp.title"],
  ["forgot-password", "auth.forgot.title"],
  ["password-reset", "auth.reset.title"],
  ["email-verification", "auth.verify.title"],
  ["magic-link-callback", "auth.magicCallback.title"],
  ["oauth-callback", "auth.oauth.title"],
  ["mfa", "auth.mfa.title"],
  ["error", "auth.error.title"],
  ["team-invitation", "teamInvitation.title"],
  ["impersonation", "impersonation.title"],
  ["cli-auth-confirm", "cliAuth.title"],
];
/** The pages that need a signed-in user, visited after signing up in the same language. */
const SIGNED_IN_PAGES: [path: string, heading: MessageKey][] = [
  ["account-settings", "account.title"],
  ["team-creation", "teamCreation.title"],
  ["onboarding", "onboarding.title"],
  ["sign-out", "auth.signOut.title"],
];
const SCREENSHOTS: readonly SupportedLocale[] = ["de", "ja", "ar"];

let setup: DemoSetup;
beforeAll(async () => {
  setup = await startDemoSetup("languages");
  await Promise.all(SUPPORTED_LOCALES.map(loadLocale));
}, 120_000);
afterAll(() => setup?.stop());

/** Goes to a handler page without loading the document again (the handler follows history). */
async function navigate(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, `/handler/${path}`);
}

async function expectHeading(page: Page, locale: SupportedLocale, path: string, key: MessageKey) {
  const text = translator(locale)(key);
  if (locale !== "en") expect(text, `${locale} has its own text for ${key}`).not.toBe(translator("en")(key));
  await page.getByRole("heading", { level: 1, name: text, exact: true }).waitFor();
  const root = page.locator(".gh-root").first();
  expect(await root.getAttribute("lang"), path).toBe(locale);
  expect(await root.getAttribute("dir"), path).toBe(locale === "ar" ? "rtl" : "ltr");
}

describe("handler pages in every language", () => {
  it.each(SUPPORTED_LOCALES)(
    "%s: every page's heading in the browser's language",
    async (locale) => {
      const context = await setup.browser.newContext({
        locale: BROWSER_LOCALE[locale],
        viewport: { width: 1100, height: 860 },
      });
      context.setDefaultTimeout(10_000);
      try {
        const page = await context.newPage();
        await page.goto(`${setup.demo.url}/handler/sign-in`);
        for (const [path, key] of SIGNED_OUT_PAGES) {
          await navigate(page, path);
          await expectHeading(page, locale, path, key);
        }

        await navigate(page, "sign-in");
        await expectHeading(page, locale, "sign-in", "auth.signIn.title");
        if (SCREENSHOTS.includes(locale)) await setup.screenshot(page, `${locale}-sign-in`);

        // Sign up in this language (fields by type: their labels are translated too).
        await navigate(page, "sign-up");
        await expectHeading(page, locale, "sign-up", "auth.signUp.title");
        const email = `${locale}-${crypto.randomUUID()}@example.com`;
        await page.locator('input[type="email"]').fill(email);
        for (const field of await page.locator('input[type="password"]').all()) {
          await field.fill("correct horse battery");
        }
        await page
          .getByRole("button", { name: translator(locale)("auth.signUp.submit"), exact: true })
          .click();
        // The lasting notice after sign-up, in this language, then on to the app.
        await page.waitForURL(/\/handler\/onboarding\?signed_up=1/);
        await expectHeading(page, locale, "onboarding", "onboarding.title");
        const notice = translator(locale)("polish.signUp.verificationSent", { email });
        expect(await page.getByRole("status").filter({ hasText: email }).textContent()).toBe(notice);
        if (SCREENSHOTS.includes(locale)) await setup.screenshot(page, `${locale}-sign-up-notice`);
        await page
          .getByRole("button", { name: translator(locale)("onboarding.continue"), exact: true })
          .click();
        await page.waitForURL(`${setup.demo.url}/`);

        // The sign-out page goes away once signed out: its request is held, so its heading stays to be read.
        await page.route("**/api/v1/auth/sessions/current", (route) =>
          route.request().method() === "DELETE" ? undefined : route.continue(),
        );
        await page.goto(`${setup.demo.url}/handler/account-settings`);
        for (const [path, key] of SIGNED_IN_PAGES) {
          await navigate(page, path);
          await expectHeading(page, locale, path, key);
          if (path === "account-settings" && SCREENSHOTS.includes(locale)) {
            await setup.screenshot(page, `${locale}-account-settings`);
          }
        }
      } finally {
        await context.close();
      }
    },
    60_000,
  );
});
