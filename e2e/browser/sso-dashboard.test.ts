// A team's SSO set up from the dashboard in Chromium, on the real server process serving a fresh dashboard build:
// the team admin claims the IdP's e-mail domain and verifies it against a loopback DNS server (the TXT record the
// tab shows), adds a SAML connection by the real SAML IdP process's metadata URL, finds on the tab the SP entity id
// and ACS URL the IdP is then configured with (it reads them from the SP metadata URL the tab shows), tests the
// connection through the IdP's own sign-in page (and sees a tampered assertion's refusal in words), and turns on "Require SSO" for the domain. axe-core finds no serious
// or critical violation on the tab. Screenshots: test-output/sso-dashboard/.
// Not yet here (issue 19's whole story): the OIDC connection from the tab, the end user's sign-in through each, SCIM
// deactivation signing them out, and the refused password sign-in on the project's sign-in page (e2e/browser/sso.test.ts
// and the server suites cover those over the API).
import { type DnsTxtServer, startDnsTxtServer } from "@gatehouse/server/testing/dns-txt-server";
import { type SamlIdp, startSamlIdp } from "@gatehouse/server/testing/saml-idp-process";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, type Json, operatorProject } from "../support.ts";
import { expectAccessible } from "./axe.ts";
import { signInThere, startDashboardServer } from "./dashboard-page.ts";
import { launchChromium, screenshotter } from "./harness.ts";

const OPERATOR = { email: "operator@example.com", password: "operator password 1" };

let dns: DnsTxtServer;
let idp: SamlIdp;
let gatehouse: Awaited<ReturnType<typeof startDashboardServer>>;
let server: RunningServer;
let browser: Browser;
let page: Page;
let shoot: Awaited<ReturnType<typeof screenshotter>>;
let projectId = "";
let teamId = "";
let admin: Record<string, string>;
const call = apiCaller(() => server);

beforeAll(async () => {
  [dns, idp] = await Promise.all([startDnsTxtServer(), startSamlIdp()]);
  gatehouse = await startDashboardServer("sso-dashboard", {
    GATEHOUSE_SSO_DNS_SERVERS: dns.address,
    // The identity provider runs on loopback, which the server refuses to call by default.
    GATEHOUSE_SSO_ALLOW_PRIVATE_URLS: "true",
  });
  server = gatehouse.server;
  const made = await operatorProject(server, { display_name: "Corp app" });
  projectId = made.projectId;
  admin = made.admin;
  teamId = String((await call("POST", "/teams", admin, { display_name: "SAML Corp" }, 201)).id);
  browser = await launchChromium();
  shoot = await screenshotter("sso-dashboard");
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
  await page.goto(`${server.baseUrl}/dashboard/projects/${projectId}/teams/${teamId}`);
  await signInThere(page, OPERATOR.email, OPERATOR.password);
  await page.getByRole("region", { name: "Single sign-on" }).waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await gatehouse?.stop();
  await idp?.stop();
  dns?.close();
});

const region = (name: string) => page.getByRole("region", { name });
const connection = () => region("Single sign-on").getByRole("article", { name: "Connection Corp IdP" });
const shown = (label: string) => connection().locator(`dt:has-text("${label}") + dd`).innerText();

describe("a team's SSO from the dashboard", () => {
  it("claims the IdP's domain and verifies it with the TXT record the tab shows", async () => {
    const domains = region("SSO domains");
    await domains.getByLabel("Claim a domain").fill("saml.example.com");
    await domains.getByRole("button", { name: "Claim domain" }).click();
    const record = await domains.locator("td", { hasText: " TXT " }).innerText();
    const [, name, value] = /^(\S+) TXT "(.+)"$/.exec(record.trim()) ?? [];
    expect(name).toMatch(/saml\.example\.com$/);
    dns.publish(name ?? "", value ?? "");
    await domains.getByRole("button", { name: "Verify saml.example.com" }).click();
    await domains.getByText("saml.example.com is verified.").waitFor();
  });

  it("adds a SAML connection by the IdP's metadata URL and shows the values the IdP is configured with", async () => {
    const sso = region("Single sign-on");
    await sso.getByLabel("Protocol").selectOption("saml");
    await sso.getByLabel("Connection name").fill("Corp IdP");
    await sso.getByLabel("IdP metadata URL").fill(idp.metadataUrl);
    await sso.getByRole("button", { name: "Add connection" }).click();
    await connection().waitFor();
    const entityId = await shown("SP entity id");
    const acs = await shown("ACS URL");
    const metadataUrl = await shown("SP metadata URL");
    expect(acs).toMatch(new RegExp(`^${server.baseUrl}/api/v1/auth/sso/saml/[0-9a-f-]+/acs$`));
    // The IdP administrator gives the IdP our SP metadata from the URL the tab shows: it names the same entity id and
    // ACS URL, and a key to encrypt to.
    const metadata = await (await fetch(metadataUrl)).text();
    expect(metadata).toContain(`entityID="${entityId}"`);
    expect(metadata).toContain(`Location="${acs}"`);
    expect(await idp.registerSp(metadata)).toEqual({ entityId, encrypts: true });
    await connection().scrollIntoViewIfNeeded();
    await shoot(page, "sso-tab-guided-setup");
    await expectAccessible(page);
  });

  it("tests the connection through the IdP's sign-in page and shows what it sent", async () => {
    await connection().getByRole("button", { name: "Test connection" }).click();
    await page.waitForURL(`${idp.origin}/**`);
    await page.getByLabel("Login").fill("grace");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard/**`);
    await connection()
      .getByText(/The identity provider signed in/)
      .waitFor();
    await expect(connection().innerText()).resolves.toContain("grace");
    await shoot(page, "sso-test-succeeded");
  });

  it("shows a failed test in words: a tampered assertion is refused", async () => {
    // A new sign-in at the IdP (its session forgotten), whose form is made to send a tampered assertion.
    await page.context().clearCookies({ domain: "127.0.0.1" });
    await connection().getByRole("button", { name: "Test connection" }).click();
    await page.waitForURL(`${idp.origin}/**`);
    await page.getByLabel("Login").fill("mallory");
    await page.evaluate(() => {
      const variant = Object.assign(document.createElement("input"), { type: "hidden", name: "variant" });
      variant.value = "tampered";
      document.forms[0]?.append(variant);
    });
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard/**`);
    const failed = connection().getByText(/The test failed: .*Invalid signature/);
    await failed.waitFor();
    // Said once: the message already holds the reason.
    expect((await failed.innerText()).match(/Invalid signature/g)).toHaveLength(1);
    await shoot(page, "sso-test-failed");
  });

  it("requires SSO for the domain", async () => {
    const box = region("SSO domains").getByRole("checkbox", { name: /^Require SSO for saml\.example\.com/ });
    // The box follows the server: it shows ticked once the change is saved and the domains are read again.
    await box.click();
    await expect.poll(() => box.isChecked()).toBe(true);
    await expect
      .poll(async () => {
        const list = await call("GET", `/teams/${teamId}/sso-domains`, admin);
        return (list.items as Json[])[0]?.enforce_sso;
      })
      .toBe(true);
    await shoot(page, "sso-domain-enforced");
    await expectAccessible(page);
  });
});
