// "Continue with SSO" in Chromium against the real server process: two teams of the demo project have verified their
// e-mail domains (TXT records on a loopback DNS server); one holds an OIDC connection to a real OpenID Connect
// provider (oidc-provider in its own process), the other a SAML connection to a real SAML identity provider
// (testing/saml-idp-server.ts in its own process, signing its assertions and encrypting them to the key in our SP
// metadata, which was uploaded to it). The user opens the demo's sign-in page, types their work address, signs in at
// the provider's own pages, lands back in the demo signed in, and is a member of the team (checked over the API).
// SAML also starts at the IdP (IdP-initiated): the response lands on the demo's sign-in page, which goes back through
// the IdP's session as an SP-initiated sign-in. Screenshots: test-output/sso/.
import { type DnsTxtServer, startDnsTxtServer } from "@gatehouse/server/testing/dns-txt-server";
import { type OidcProvider, startOidcProvider } from "@gatehouse/server/testing/oidc-provider-process";
import { type SamlIdp, startSamlIdp } from "@gatehouse/server/testing/saml-idp-process";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../support.ts";
import {
  accountMenu,
  continueWithSso,
  type DemoSetup,
  signInAtOidcProvider,
  startDemoSetup,
} from "./demo-app.ts";

let dns: DnsTxtServer;
let setup: DemoSetup;
let provider: OidcProvider;
let team: string;
let samlIdp: SamlIdp;
let samlTeam: string;
let samlConnection: string;
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

  // The SAML team: its connection reads the IdP's metadata by URL, and the IdP gets our SP metadata in return.
  samlIdp = await startSamlIdp();
  samlTeam = String((await call("POST", "/teams", admin, { display_name: "SAML Corp" }, 201)).id);
  samlConnection = String(
    (
      await call(
        "POST",
        `/teams/${samlTeam}/sso-connections`,
        admin,
        { protocol: "saml", display_name: "SAML Corp", saml: { idp_metadata_url: samlIdp.metadataUrl } },
        201,
      )
    ).id,
  );
  const spMetadata = await (
    await fetch(`${setup.server.baseUrl}/api/v1/auth/sso/saml/${samlConnection}/metadata`)
  ).text();
  expect((await samlIdp.registerSp(spMetadata)).encrypts).toBe(true);
  const samlDomain = await call(
    "POST",
    `/teams/${samlTeam}/sso-domains`,
    admin,
    { domain: "saml.example.com" },
    201,
  );
  const samlRecord = samlDomain.verification_record as { name: string; value: string };
  dns.publish(samlRecord.name, samlRecord.value);
  expect(
    (await call("POST", `/teams/${samlTeam}/sso-domains/${samlDomain.id}/verify`, admin, {})).verified,
  ).toBe(true);
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await setup?.stop();
  await provider?.stop();
  await samlIdp?.stop();
  dns?.close();
});

async function open() {
  const opened = await setup.open();
  contexts.push(opened.context);
  return opened;
}

async function teamMembers(teamId: string): Promise<Json[]> {
  const list = await setup.call("GET", `/users?team_id=${teamId}`, setup.admin);
  return list.items as Json[];
}

describe("Continue with SSO", () => {
  it("signs a user in through the team's OIDC provider and makes them a member of the team", async () => {
    const { page } = await open();
    await continueWithSso(setup, page, "ada@oidc.example.com");

    // The provider's own pages: its login form (any password), then consent.
    await signInAtOidcProvider(setup, page, provider.issuer, "ada");

    await page.waitForURL(`${setup.demo.url}/**`);
    await accountMenu(page).waitFor();
    await setup.screenshot(page, "signed-in");

    const members = await teamMembers(team);
    expect(members.map((m) => m.primary_email)).toContain("ada@oidc.example.com");
  });

  it("signs a user in through the team's SAML identity provider (SP-initiated, encrypted assertion)", async () => {
    const { page } = await open();
    await continueWithSso(setup, page, "grace@saml.example.com");
    await page.waitForURL(`${samlIdp.origin}/**`);
    await page.getByLabel("Login").fill("grace");
    await setup.screenshot(page, "saml-idp-login");
    await page.getByRole("button", { name: "Sign in" }).click();

    await page.waitForURL(`${setup.demo.url}/**`);
    await accountMenu(page).waitFor();
    await setup.screenshot(page, "saml-signed-in");
    expect((await teamMembers(samlTeam)).map((m) => m.primary_email)).toContain("grace@saml.example.com");
  });

  it("signs a user in who starts at the SAML identity provider (IdP-initiated)", async () => {
    const { page } = await open();
    const start = new URL(`${samlIdp.origin}/idp-initiated`);
    start.searchParams.set("acs", `${setup.server.baseUrl}/api/v1/auth/sso/saml/${samlConnection}/acs`);
    start.searchParams.set(
      "audience",
      `${setup.server.baseUrl}/api/v1/auth/sso/saml/${samlConnection}/metadata`,
    );
    start.searchParams.set("login", "hopper");
    // The app's page to continue on: what an administrator sets as the IdP's "default RelayState" (the demo project
    // trusts localhost but names no domain, so there is no default of ours).
    start.searchParams.set("relay_state", `${setup.demo.url}/handler/sign-in`);
    // The IdP posts its response to our ACS; we send the browser to the demo's sign-in page, which starts an
    // SP-initiated sign-in that passes through the IdP's session without asking again.
    await page.goto(start.toString());
    await page.waitForURL(`${setup.demo.url}/**`);
    await accountMenu(page).waitFor();
    await setup.screenshot(page, "saml-idp-initiated-signed-in");
    expect((await teamMembers(samlTeam)).map((m) => m.primary_email)).toContain("hopper@saml.example.com");
  });
});
