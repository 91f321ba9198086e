// Bot protection on our pages in Chromium (issue 21): with the project's protection on, the demo's sign-up page shows
// the challenge widget (a local script with Turnstile's browser API, served with the local siteverify server), asks
// for it before sending, says clearly when a token fails, and signs up with a passing one; the e-mail code's send
// carries it too. axe finds no serious or critical violation with the widget and its messages on the page.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTurnstilePeer, type TurnstilePeer } from "../../apps/server/src/testing/turnstile-peer.ts";
import { expectAccessible } from "./axe.ts";
import { type DemoSetup, startDemoSetup } from "./demo-app.ts";
import { continueAfterSignUp } from "./harness.ts";

const SECRET = "0x4AAAAAAAbrowser-secret";
const SITE_KEY = "0x4AAAAAAAbrowser-site";
const PASSWORD = "correct horse battery";

let setup: DemoSetup;
let peer: TurnstilePeer;

beforeAll(async () => {
  peer = await startTurnstilePeer({ secret: SECRET, remembers: true });
  setup = await startDemoSetup("bot-challenge");
  await setup.call("PATCH", "/projects/current", setup.admin, {
    config: {
      bot_protection: "always",
      bot_protection_site_key: SITE_KEY,
      bot_protection_secret: SECRET,
      bot_protection_verify_url: peer.siteverifyUrl,
      bot_protection_script_url: peer.scriptUrl,
    },
  });
}, 120_000);

afterAll(async () => {
  await setup?.stop();
  await peer?.close();
});

const at = (path: string) => `${setup.demo.url}${path}`;
const widget = (page: Page) => page.getByRole("checkbox", { name: "I am human" });

async function fillSignUp(page: Page, email: string) {
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Repeat password").fill(PASSWORD);
}

describe("the challenge widget on our pages", () => {
  it("signs up with a passing token, refuses a missing or failing one with a clear message", async () => {
    const { page, context } = await setup.open();
    try {
      await page.goto(at("/handler/sign-up"));
      await widget(page).waitFor();
      expect(await page.getByRole("group", { name: "Check that you are human" }).count()).toBe(1);
      expect(await page.locator("label[data-sitekey]").getAttribute("data-sitekey")).toBe(SITE_KEY);
      await expectAccessible(page);
      const email = `widget-${Date.now()}@example.com`;
      await fillSignUp(page, email);

      // Unsolved: the page asks for it and sends nothing.
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await page.getByText("Please complete the check that you are human first.").waitFor();
      expect(peer.seen).toHaveLength(0);

      // A token the verifier refuses: the server's BOT_CHALLENGE_FAILED, in words, and the widget asks again.
      await page.evaluate(() => {
        (window as { ghNextTurnstileToken?: string }).ghNextTurnstileToken = "bad-token";
      });
      await widget(page).check();
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await page.getByText("The check that you are human did not pass. Please try it again.").waitFor();
      expect(peer.seen.map((v) => v.response)).toEqual(["bad-token"]);
      expect(await widget(page).isChecked()).toBe(false);
      await expectAccessible(page);
      await setup.screenshot(page, "failed-challenge");

      // A passing token: signed up, past the notice after sign-up, at the demo's home page.
      await widget(page).check();
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await continueAfterSignUp(page);
      await page.waitForURL(at("/"));
      expect(peer.seen).toHaveLength(2);
      expect(peer.seen[1]?.response).toMatch(/^pass-/);
      const users = await setup.call("GET", `/users?query=${encodeURIComponent(email)}`, setup.admin);
      expect((users.items as { primary_email: string }[]).map((u) => u.primary_email)).toEqual([email]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("sends the e-mail code only with the challenge solved", async () => {
    const { page, context } = await setup.open();
    try {
      await page.goto(at("/handler/sign-in"));
      await page.getByRole("tab", { name: "E-mail code" }).click();
      await page.getByLabel("E-mail", { exact: true }).fill(`code-${Date.now()}@example.com`);
      await widget(page).check();
      const before = peer.seen.length;
      await page.getByRole("button", { name: "E-mail me a code" }).click();
      await page.getByLabel("Code from the e-mail").waitFor();
      expect(peer.seen.slice(before).map((v) => v.response?.startsWith("pass-"))).toEqual([true]);
      await setup.screenshot(page, "code-sent");
    } finally {
      await context.close();
    }
  }, 60_000);
});
