// What the suites of Stack's own UI (stack-react.test.ts, stack-next.test.ts) share: the real server process on a
// database of its own, whose internal project has fixed keys (so an app built for it is built once, not every run)
// and every sign-in method Stack's pages show; Chromium; the project's development inbox; and a recorder of every
// API answer, page error and console error that the assertion reads.
import { createServer } from "node:net";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { apiCaller, type Json, startIsolatedServer } from "../support.ts";
import { launchChromium, screenshotter } from "./harness.ts";

/** Seeded keys of the internal project: what the apps are built with (test values, never a real deployment's). */
export const STACK_APP_KEYS = {
  projectId: "internal",
  pck: "pck_stackappse2e000000000000000000000001",
  ssk: "ssk_stackappse2e000000000000000000000001",
  sak: "sak_stackappse2e000000000000000000000001",
};

/** True when nothing listens on `port` of loopback. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/**
 * The server on `preferredPort` when that is free (its URL is baked into the app's build, so the same port keeps
 * the cached build), otherwise on any free port (the app is then built again for it).
 */
export async function startStackAppServer(name: string, preferredPort: number) {
  const gatehouse = await startIsolatedServer(
    name,
    {
      ...((await portIsFree(preferredPort)) ? { PORT: String(preferredPort) } : {}),
      // The flows sign in and out many times from one address: the per-IP limit is not what they test.
      GATEHOUSE_RATE_LIMIT_IP: "100000",
      STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: STACK_APP_KEYS.pck,
      STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY: STACK_APP_KEYS.ssk,
      STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY: STACK_APP_KEYS.sak,
      // The instance's operator exists before the app's first user, who is then an ordinary user of the project.
      STACK_SEED_INTERNAL_PROJECT_USER_EMAIL: "operator@example.com",
      STACK_SEED_INTERNAL_PROJECT_USER_PASSWORD: "operator password 1",
      STACK_SEED_INTERNAL_PROJECT_USER_INTERNAL_ACCESS: "true",
    },
    undefined,
    // These suites run beside a Next.js or Vite build: on a busy machine of 2 cores the start takes its time.
    180_000,
  );
  return gatehouse;
}

const admin = {
  "x-stack-access-type": "admin",
  "x-stack-project-id": STACK_APP_KEYS.projectId,
  "x-stack-super-secret-admin-key": STACK_APP_KEYS.sak,
};

/**
 * The project as an app on Stack's UI expects it: every sign-in method its pages show, team creation, API keys for
 * users and teams, and the app's origin trusted. Team admins may invite members and manage the team's API keys
 * (the internal project's own team_admin is narrower: its teams share projects, WIRE.md §8).
 */
export async function configureProject(server: RunningServer, appUrl: string) {
  const call = apiCaller(() => server);
  const current = await call("GET", "/projects/current", admin);
  const domains = (current.config as { domains: Json[] }).domains;
  await call("PATCH", "/projects/current", admin, {
    config: {
      sign_up_enabled: true,
      credential_enabled: true,
      magic_link_enabled: true,
      passkey_enabled: true,
      client_team_creation_enabled: true,
      client_user_deletion_enabled: true,
      allow_localhost: true,
      domains: [...domains, { domain: appUrl, handler_path: "/handler" }],
    },
  });
  // Written apart: these settings belong to another group's endpoints, and a server without them yet must not stop
  // the flows from running (the flows then show what is missing).
  const apiKeySettings = await fetch(`${server.baseUrl}/api/v1/projects/current`, {
    method: "PATCH",
    headers: { ...admin, "content-type": "application/json" },
    body: JSON.stringify({ config: { allow_user_api_keys: true, allow_team_api_keys: true } }),
  });
  if (!apiKeySettings.ok) {
    console.warn(`API key settings refused: ${apiKeySettings.status} ${await apiKeySettings.text()}`);
  }
  const teamAdmin = await fetch(`${server.baseUrl}/api/v1/team-permission-definitions/team_admin`, {
    method: "PATCH",
    headers: { ...admin, "content-type": "application/json" },
    body: JSON.stringify({
      contained_permission_ids: [
        "$read_members",
        "$remove_members",
        "$update_team",
        "$delete_team",
        "$invite_members",
        "$manage_api_keys",
      ],
    }),
  });
  if (!teamAdmin.ok) console.warn(`team_admin not widened: ${teamAdmin.status} ${await teamAdmin.text()}`);
}

/** The newest e-mail to `to` in the project's development inbox sent after `after` (waits for the outbox). */
export async function lastEmail(server: RunningServer, to: string, after: number) {
  const call = apiCaller(() => server);
  for (let tries = 0; tries < 100; tries++) {
    const list = await call("GET", `/internal/emails?to=${encodeURIComponent(to)}`, admin);
    const email = (list.items as (Json & { text: string; created_at_millis: number })[])[0];
    if (email && email.created_at_millis > after) return email;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No e-mail to ${to}`);
}

/** One API answer the browser received, with its body when it is an error. */
export type ApiAnswer = { step: string; method: string; path: string; status: number; body: string };

/**
 * Everything the assertion reads, recorded from a page: every answer of /api/v1/, each page error (an uncaught
 * exception) and each console error, tagged with the step of the flow it happened in.
 */
export function recordPage(page: Page) {
  const record = {
    step: "start",
    answers: [] as ApiAnswer[],
    pageErrors: [] as string[],
    consoleErrors: [] as string[],
  };
  page.on("response", async (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith("/api/v1/")) return;
    const answer: ApiAnswer = {
      step: record.step,
      method: response.request().method(),
      path: url.pathname + url.search,
      status: response.status(),
      body: "",
    };
    record.answers.push(answer);
    if (answer.status >= 400) answer.body = await response.text().catch((error) => `(unread: ${error})`);
  });
  page.on("pageerror", (error) => record.pageErrors.push(`[${record.step}] ${error.stack ?? error.message}`));
  page.on("requestfailed", (request) => {
    // A request the page dropped by navigating away is no failure.
    if (request.failure()?.errorText === "net::ERR_ABORTED") return;
    record.consoleErrors.push(
      `[${record.step}] request failed: ${request.url()} ${request.failure()?.errorText}`,
    );
  });
  page.on("console", (message) => {
    if (message.type() === "error") record.consoleErrors.push(`[${record.step}] ${message.text()}`);
  });
  return record;
}

export type PageRecord = ReturnType<typeof recordPage>;

/** The server's own log of the answers it gave to /api/v1/ (requests made by the app's server side included). */
export function serverAnswers(server: RunningServer, fromOffset: number) {
  return server
    .output()
    .slice(fromOffset)
    .split("\n")
    .filter((line) => line.startsWith("{") && line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { method: string; path: string; status: number })
    .filter((line) => line.path.startsWith("/api/v1/"));
}

/**
 * Stack's UI loads Stripe.js from Stripe on every page; this machine reaches no such host. A stand-in answers, as
 * Stripe would, with a script defining `Stripe`: the flows do not pay, and an offline error is not Gatehouse's.
 */
export async function standInForStripe(context: BrowserContext) {
  await context.route(
    (url) => url.hostname === "js.stripe.com",
    (route) =>
      route.fulfill({
        contentType: "text/javascript",
        body: "window.Stripe = function Stripe() { return { elements() { return {}; } }; };",
      }),
  );
}

/** A browser on the app, with a virtual passkey authenticator; the screenshots go to test-output/<name>/. */
export async function openBrowser(name: string) {
  const browser: Browser = await launchChromium();
  const screenshot = await screenshotter(name);
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // A step that waits longer than this is failing: say which one, well inside the test's own time limit.
  context.setDefaultTimeout(15_000);
  await standInForStripe(context);
  const page = await context.newPage();
  return { browser, context, page, screenshot };
}
