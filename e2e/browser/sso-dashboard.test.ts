// A team's SSO set up from the dashboard in Chromium, on the real server process serving a fresh dashboard build,
// with the demo app as the project's own sign-in page: the team admin claims the IdP's e-mail domain and verifies it
// against a loopback DNS server (the TXT record the tab shows), adds a SAML connection by the real SAML IdP process's
// metadata URL, finds on the tab the SP entity id and ACS URL the IdP is then configured with (it reads them from the
// SP metadata URL the tab shows), tests the connection through the IdP's own sign-in page (and sees a tampered
// assertion's refusal in words). An end user in a fresh browser then signs in through that connection on the demo's
// sign-in page ("Continue with SSO") and becomes a member of the team; a SCIM token made on the tab (read from the page,
// shown once) lets the test act as the IdP's provisioning, whose PATCH active=false signs the user's browser out. With
// "Require SSO" ticked for the domain, a password sign-in for an address of it is refused in words that point to SSO.
// A second team adds an OIDC connection on its tab against the real OpenID provider process, and a user signs in
// through it. axe-core finds no serious or critical violation on the tab. Screenshots: test-output/sso-dashboard/.
import { type DnsTxtServer, startDnsTxtServer } from "@gatehouse/server/testing/dns-txt-server";
import { type OidcProvider, startOidcProvider } from "@gatehouse/server/testing/oidc-provider-process";
import { type SamlIdp, startSamlIdp } from "@gatehouse/server/testing/saml-idp-process";
import { freePort, type RunningServer } from "@gatehouse/server/testing/server-process";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../support.ts";
import { expectAccessible } from "./axe.ts";
import { dashboardBuild, signInThere } from "./dashboard-page.ts";
import {
  accountMenu,
  continueWithSso,
  type DemoSetup,
  signInAtOidcProvider,
  startDemoSetup,
} from "./demo-app.ts";

const OPERATOR = { email: "operator@example.com", password: "operator password 1" };
/** An account of the team's domain that signs in with a password (made before SSO is required). */
const PASSWORD_USER = { email: "linus@saml.example.com", password: "linus's password 1" };

let dns: DnsTxtServer;
let idp: SamlIdp;
let provider: OidcProvider | undefined;
let dashboardDir: string;
let setup: DemoSetup;
let server: RunningServer;
let page: Page;
let teamId = "";
let admin: Record<string, string>;
let call: DemoSetup["call"];
/** The end user's own browser on the demo app, signed in through the connection. */
let user: Page;
const shoot = (on: Page, label: string) => setup.screenshot(on, label);

beforeAll(async () => {
  [dns, idp, dashboardDir] = await Promise.all([startDnsTxtServer(), startSamlIdp(), dashboardBuild()]);
  setup = await startDemoSetup("sso-dashboard", {
    GATEHOUSE_DASHBOARD_DIR: dashboardDir,
    GATEHOUSE_SSO_DNS_SERVERS: dns.address,
    // The identity provider runs on loopback, which the server refuses to call by default.
    GATEHOUSE_SSO_ALLOW_PRIVATE_URLS: "true",
  });
  ({ server, admin, call } = setup);
  teamId = String((await call("POST", "/teams", admin, { display_name: "SAML Corp" }, 201)).id);
  await call(
    "POST",
    "/users",
    admin,
    {
      primary_email: PASSWORD_USER.email,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      password: PASSWORD_USER.password,
    },
    201,
  );
  const opened = await setup.open({ width: 1280 });
  opened.context.setDefaultTimeout(15_000);
  page = opened.page;
  await page.goto(`${server.baseUrl}/dashboard/projects/${setup.projectId}/teams/${teamId}`);
  await signInThere(page, OPERATOR.email, OPERATOR.password);
  await page.getByRole("region", { name: "Single sign-on" }).waitFor();
}, 240_000);

afterAll(async () => {
  await setup?.stop();
  await idp?.stop();
  await provider?.stop();
  dns?.close();
});

const region = (name: string) => page.getByRole("region", { name });
const connection = () => region("Single sign-on").getByRole("article", { name: "Connection Corp IdP" });
const shown = (label: string) => connection().locator(`dt:has-text("${label}") + dd`).innerText();

/** Claims `domain` on the tab, publishes the TXT record the tab shows, and verifies it there. */
async function claimAndVerify(domain: string) {
  const domains = region("SSO domains");
  await domains.getByLabel("Claim a domain").fill(domain);
  await domains.getByRole("button", { name: "Claim domain" }).click();
  const record = await domains.locator("td", { hasText: " TXT " }).innerText();
  const [, name, value] = /^(\S+) TXT "(.+)"$/.exec(record.trim()) ?? [];
  expect(name).toMatch(new RegExp(`${domain.replaceAll(".", "\\.")}$`));
  dns.publish(name ?? "", value ?? "");
  await domains.getByRole("button", { name: `Verify ${domain}` }).click();
  await domains.getByText(`${domain} is verified.`).waitFor();
}

describe("a team's SSO from the dashboard", () => {
  it("claims the IdP's domain and verifies it with the TXT record the tab shows", async () => {
    await claimAndVerify("saml.example.com");
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
    // The form to add another connection keeps its distance from the connection's last button.
    const removeButton = await connection()
      .getByRole("button", { name: "Remove the connection Corp IdP" })
      .boundingBox();
    const protocolLabel = await region("Single sign-on").getByLabel("Protocol").boundingBox();
    expect(
      (protocolLabel?.y ?? 0) - ((removeButton?.y ?? 0) + (removeButton?.height ?? 0)),
    ).toBeGreaterThanOrEqual(12);
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

  it("signs an end user in through the connection on the project's sign-in page and makes them a member", async () => {
    ({ page: user } = await setup.open());
    await continueWithSso(setup, user, "grace@saml.example.com");
    await user.waitForURL(`${idp.origin}/**`);
    await user.getByLabel("Login").fill("grace");
    await user.getByRole("button", { name: "Sign in" }).click();
    await user.waitForURL(`${setup.demo.url}/**`);
    await accountMenu(user).waitFor();
    await shoot(user, "end-user-signed-in");
    const members = (await call("GET", `/users?team_id=${teamId}`, admin)).items as Json[];
    expect(members.map((m) => m.primary_email)).toContain("grace@saml.example.com");
  });

  it("deactivating the user over SCIM with a token made on the tab signs their browser out", async () => {
    // Signed in until then: the protected page opens.
    await user.goto(`${setup.demo.url}/protected`);
    await accountMenu(user).waitFor();
    expect(new URL(user.url()).pathname).toBe("/protected");
    const scim = region("SCIM provisioning");
    await scim.getByLabel("New SCIM token for").fill("Corp IdP provisioning");
    await scim.getByRole("button", { name: "Create SCIM token" }).click();
    const shownOnce = scim.getByText(/the token is not shown again/);
    await shownOnce.waitFor();
    const [baseUrl, token] = await shownOnce.locator(".dash-mono").allInnerTexts();
    expect(baseUrl).toMatch(/^http/);
    expect(token).toBeTruthy();
    await scim.getByRole("row", { name: /Corp IdP provisioning/ }).waitFor();
    await shoot(page, "scim-token-created");
    await expectAccessible(page);
    // Shown once: the page read again lists the token by its description only.
    await page.reload();
    await scim.getByRole("row", { name: /Corp IdP provisioning/ }).waitFor();
    expect(await page.locator("body").innerText()).not.toContain(token);

    // The IdP's provisioning: it creates the user it knows (the project's account of the verified address), then
    // deactivates it the way Okta does.
    const scimCall = async (method: string, path: string, body: Json) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Json };
    };
    const created = await scimCall("POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: "grace@saml.example.com",
      active: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const patched = await scimCall("PATCH", `/Users/${created.body.id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.active).toBe(false);

    // The user's open browser finds itself signed out at its next look.
    await user.goto(`${setup.demo.url}/protected`);
    await user.waitForURL(/\/handler\/sign-in/);
    await shoot(user, "end-user-signed-out-by-scim");
  });

  it("refuses a password sign-in for an address of the domain, in words that point to SSO", async () => {
    const { page: other } = await setup.open();
    await other.goto(`${setup.demo.url}/handler/sign-in`);
    await other.getByLabel("E-mail", { exact: true }).fill(PASSWORD_USER.email);
    await other.getByLabel("Password", { exact: true }).fill(PASSWORD_USER.password);
    await other.getByRole("button", { name: "Sign in", exact: true }).click();
    await other
      .getByText('Your organization requires single sign-on for this address: use "Continue with SSO".')
      .waitFor();
    expect(await accountMenu(other).count()).toBe(0);
    await shoot(other, "password-sign-in-refused-sso-required");
    await expectAccessible(other);
  });

  it("adds an OIDC connection on another team's tab and signs an end user in through it", async () => {
    const oidcTeam = String((await call("POST", "/teams", admin, { display_name: "OIDC Corp" }, 201)).id);
    await page.goto(`${server.baseUrl}/dashboard/projects/${setup.projectId}/teams/${oidcTeam}`);
    await region("Single sign-on").waitFor();
    // The provider's accounts are <login>@oidc.example.com.
    await claimAndVerify("oidc.example.com");
    // The IdP administrator made a client for us: its issuer, id and secret go on the tab; the redirect URI the tab
    // then shows is registered with that client (the provider process starts with it).
    const port = await freePort();
    const client = { port, clientId: "corp-oidc-client", clientSecret: "corp oidc client secret" };
    const sso = region("Single sign-on");
    await sso.getByLabel("Protocol").selectOption("oidc");
    await sso.getByLabel("Connection name").fill("OIDC Corp IdP");
    await sso.getByLabel("Issuer URL").fill(`http://localhost:${port}`);
    await sso.getByLabel("Client id").fill(client.clientId);
    await sso.getByLabel("Client secret").fill(client.clientSecret);
    await sso.getByRole("button", { name: "Add connection" }).click();
    const oidcConnection = sso.getByRole("article", { name: "Connection OIDC Corp IdP" });
    await oidcConnection.waitFor();
    const redirectUri = await oidcConnection.locator('dt:has-text("Redirect URI") + dd').innerText();
    expect(redirectUri).toMatch(new RegExp(`^${server.baseUrl}/api/v1/auth/sso/oidc/[0-9a-f-]+/callback$`));
    await shoot(page, "oidc-connection-added");
    provider = await startOidcProvider({ ...client, redirectUris: [redirectUri] });
    expect(provider.issuer).toBe(`http://localhost:${port}`);

    const { page: ada } = await setup.open();
    await continueWithSso(setup, ada, "ada@oidc.example.com");
    await signInAtOidcProvider(setup, ada, provider.issuer, "ada");
    await ada.waitForURL(`${setup.demo.url}/**`);
    await accountMenu(ada).waitFor();
    await shoot(ada, "oidc-end-user-signed-in");
    const members = (await call("GET", `/users?team_id=${oidcTeam}`, admin)).items as Json[];
    expect(members.map((m) => m.primary_email)).toContain("ada@oidc.example.com");
  });
});
