// "Continue with SSO" in Chromium against the real server process: a team of the demo project has verified its
// e-mail domain (TXT record on a loopback DNS server) and holds an OIDC connection to a real OpenID Connect provider
// (oidc-provider in its own process). The user opens the demo's sign-in page, types their work address, signs in at
// the provider's own pages, lands back in the demo signed in, and is a member of the team (checked over the API).
// Screenshots: test-output/sso/.
import { type DnsTxtServer, startDnsTxtServer } from "@gatehouse/server/testing/dns-txt-server";
import { type OidcProvider, startOidcProvider } from "@gatehouse/server/testing/oidc-provider-process";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../support.ts";
import { type DemoSetup, startDemoSetup } from "./demo-app.ts";

let dns: DnsTxtServer;
let setup: DemoSetup;
let provider: OidcProvider;
let team: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  dns = await startDnsTxtServer();
  setup = await startDemoSetup("sso", {
    GATEHOUSE_SSO_DNS_SERVERS: dns.address,
    // The identity providers run on loopback, which the server refuses to call by default.
    GATEHOUSE_SSO_ALLOW_PRIVATE_URLS: "true",
  });
  const { call, admin } = setup;
  team = String((await call("POST", "/teams", admin, { display_name: "OIDC Corp" }, 201)).id);
  // A connection's callback URL comes from its id, and the provider must know it before anyone signs in.
  const connection = String(
    (
      await call(
        "POST",
        `/teams/${team}/sso-connections`,
        admin,
        {
          protocol: "oidc",
          display_name: "OIDC Corp",
          oidc: { issuer_url: "https://idp.invalid", client_id: "placeholder", client_secret: "placeholder" },
          attribute_mapping: { group_permissions: {} },
        },
        201,
      )
    ).id,
  );
  provider = await startOidcProvider({
    redirectUris: [`${setup.server.baseUrl}/api/v1/auth/sso/oidc/${connection}/callback`],
  });
  await call("PATCH", `/teams/${team}/sso-connections/${connection}`, admin, {
    oidc: { issuer_url: provider.issuer, client_id: provider.clientId, client_secret: provider.clientSecret },
  });
  // The provider's accounts are <login>@oidc.example.com: the team proves that domain.
  const domain = await call("POST", `/teams/${team}/sso-domains`, admin, { domain: "oidc.example.com" }, 201);
  const record = domain.verification_record as { name: string; value: string };
  dns.publish(record.name, record.value);
  const verified = await call("POST", `/teams/${team}/sso-domains/${domain.id}/verify`, admin, {});
  expect(verified.verified).toBe(true);
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await setup?.stop();
  await provider?.stop();
  dns?.close();
});

async function open() {
  const opened = await setup.open();
  contexts.push(opened.context);
  return opened;
}

const accountMenu = (page: Page) => page.getByRole("button", { name: /^Account menu of/ });

async function teamMembers(teamId: string): Promise<Json[]> {
  const list = await setup.call("GET", `/users?team_id=${teamId}`, setup.admin);
  return list.items as Json[];
}

/** The sign-in page's "Continue with SSO": opens the form, takes the address, and goes to the identity provider. */
async function continueWithSso(page: Page, email: string) {
  await page.goto(`${setup.demo.url}/handler/sign-in`);
  await page.getByRole("button", { name: "Continue with SSO" }).click();
  const form = page.getByRole("form", { name: "Continue with SSO" });
  await form.getByLabel("E-mail").fill(email);
  await setup.screenshot(page, "sso-form");
  await form.getByRole("button", { name: "Continue with SSO" }).click();
}

describe("Continue with SSO", () => {
  it("signs a user in through the team's OIDC provider and makes them a member of the team", async () => {
    const { page } = await open();
    await continueWithSso(page, "ada@oidc.example.com");

    // The provider's own pages: its login form (any password), then consent.
    await page.waitForURL(`${provider.issuer}/**`).catch(async (error) => {
      await setup.screenshot(page, "not-at-provider");
      throw new Error(`Not at the provider (${page.url()}): ${await page.locator("main").innerText()}`, {
        cause: error,
      });
    });
    await page.locator('input[name="login"]').fill("ada");
    await page.locator('input[name="password"]').fill("any password");
    await setup.screenshot(page, "provider-login");
    await page.locator('button[type="submit"]').click();
    await page.locator('input[name="prompt"][value="consent"]').waitFor({ state: "attached" });
    await setup.screenshot(page, "provider-consent");
    await page.locator('button[type="submit"]').click();

    await page.waitForURL(`${setup.demo.url}/**`);
    await accountMenu(page).waitFor();
    await setup.screenshot(page, "signed-in");

    const members = await teamMembers(team);
    expect(members.map((m) => m.primary_email)).toContain("ada@oidc.example.com");
  });
});
