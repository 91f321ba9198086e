// SSO through SAML 2.0 connections, against a real SAML identity provider in its own process
// (testing/saml-idp-server.ts, assertions signed with xml-crypto): metadata import by URL, our SP metadata,
// SP-initiated sign-in with just-in-time provisioning and group → permission mapping, certificate rotation, and the
// attacks — unsigned, tampered, rogue-signed, expired, wrong-audience, wrong-recipient and signature-wrapped
// assertions, replays (same flow, another flow, IdP-initiated), IdP-initiated responses to another team's connection,
// and RelayState as an open redirect.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ssoConnections } from "../db/schema.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import { landingError, local, oauthClient, pkcePair } from "../testing/oauth-client.ts";
import { type SamlIdp, type SamlPost, startSamlIdp } from "../testing/saml-idp-process.ts";
import {
  accessHeaders,
  apiRequest,
  createTestServer,
  type ProjectKeys,
  TEST_BASE_URL,
  type TestServer,
  uniqueIp,
} from "../testing/test-server.ts";
import { createSamlServiceProvider } from "./saml.ts";

const APP = "https://app.example.com";
const REDIRECT_URI = `${APP}/handler/oauth-callback`;
const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let idp: SamlIdp;
let keys: ProjectKeys;
let teamA: string;
let teamB: string;
/** Team A's connection trusts the IdP's primary and secondary certificates (a rotation in progress). */
let connectionA: string;
/** Team B's connection trusts only the secondary one. */
let connectionB: string;

const request = apiRequest(() => ({ server, keys }));

const acsOf = (id: string) => `${TEST_BASE_URL}/api/v1/auth/sso/saml/${id}/acs`;
const entityOf = (id: string) => `${TEST_BASE_URL}/api/v1/auth/sso/saml/${id}/metadata`;

async function createTeam(name: string): Promise<string> {
  return (
    await expectJson<{ id: string }>(
      await request("/api/v1/teams", { method: "POST", body: { display_name: name } }),
      201,
    )
  ).id;
}

beforeAll(async () => {
  [server, idp] = await Promise.all([
    createTestServer(),
    startSamlIdp({ groups: { "alice-admin": ["admins", "staff"] } }),
  ]);
  ({ keys } = await server.createProject(
    { displayName: "SAML project", config: { domains: [{ domain: APP, handler_path: "/handler" }] } },
    { expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) },
  ));
  teamA = await createTeam("Team A");
  teamB = await createTeam("Team B");
  const a = await expectJson<{ id: string; saml: { idp_entity_id: string; idp_certificates: string[] } }>(
    await request(`/api/v1/teams/${teamA}/sso-connections`, {
      method: "POST",
      body: {
        protocol: "saml",
        display_name: "Corp SAML",
        saml: { idp_metadata_url: idp.metadataUrl },
        attribute_mapping: { group_permissions: { admins: ["team_admin"] } },
      },
    }),
    201,
  );
  expect(a.saml.idp_entity_id).toBe(idp.entityId);
  connectionA = a.id;
  await expectJson(
    await request(`/api/v1/teams/${teamA}/sso-connections/${connectionA}`, {
      method: "PATCH",
      body: {
        saml: {
          idp_entity_id: idp.entityId,
          idp_sso_url: `${idp.origin}/sso`,
          idp_certificates: [idp.certs.primary, idp.certs.secondary],
        },
      },
    }),
  );
  connectionB = (
    await expectJson<{ id: string }>(
      await request(`/api/v1/teams/${teamB}/sso-connections`, {
        method: "POST",
        body: {
          protocol: "saml",
          display_name: "Other SAML",
          saml: { idp_metadata_xml: await idp.metadata("secondary") },
        },
      }),
      201,
    )
  ).id;
});
afterAll(async () => {
  await idp?.stop();
  await server?.deps.emailWorker.stop();
  await server?.close();
});

const { exchange } = oauthClient(() => server, REDIRECT_URI);

let logins = 0;
const uniqueLogin = () => `saml-${++logins}-${Math.random().toString(36).slice(2, 8)}`;

/** The browser posting the IdP's form to our ACS: where it is sent next (or the error answer). */
const post = (form: SamlPost) =>
  server.request(local(form.acs), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": uniqueIp() },
    body: new URLSearchParams({
      SAMLResponse: form.SAMLResponse,
      ...(form.RelayState ? { RelayState: form.RelayState } : {}),
    }),
  });

async function landing(form: SamlPost): Promise<URL> {
  const answer = await post(form);
  expect(answer.status, await answer.clone().text()).toBe(303);
  return new URL(answer.headers.get("location") ?? "");
}

/** authorize → the IdP (as `login`, with an attack variant) → the form for our ACS, not yet posted. */
async function toAcs(connectionId: string, login: string, options: { variant?: string; key?: string } = {}) {
  const pkce = pkcePair();
  const state = `client-state-${Math.random()}`;
  const authorized = await request("/api/v1/auth/sso/authorize", {
    method: "POST",
    type: "client",
    body: { connection_id: connectionId, redirect_uri: REDIRECT_URI, state, code_challenge: pkce.challenge },
  });
  const { location } = await expectJson<{ location: string }>(authorized);
  const form = await idp.signIn(location, login, options);
  expect(form.acs).toBe(acsOf(connectionId));
  return { form, pkce, state };
}

async function signIn(connectionId: string, login: string, options: { key?: string } = {}) {
  const { form, pkce, state } = await toAcs(connectionId, login, options);
  const landed = await landing(form);
  expect(landed.origin + landed.pathname, landed.toString()).toBe(REDIRECT_URI);
  expect(landed.searchParams.get("state")).toBe(state);
  const tokens = await expectJson<{ access_token: string; is_new_user: boolean }>(
    await exchange(keys, landed.searchParams.get("code") ?? "", pkce.verifier),
  );
  const user = await expectJson<{ id: string; display_name: string; primary_email: string }>(
    await server.request("/api/v1/users/me", {
      headers: {
        ...accessHeaders("client", keys),
        "x-stack-access-token": tokens.access_token,
        "x-forwarded-for": uniqueIp(),
      },
    }),
  );
  return { tokens, user };
}

async function permissionsOf(teamId: string, userId: string): Promise<string[]> {
  const list = await expectJson<{ items: { id: string }[] }>(
    await request(`/api/v1/team-permissions?team_id=${teamId}&user_id=${userId}`),
  );
  return list.items.map((p) => p.id).sort();
}

describe("SAML connections", () => {
  it("imports the IdP's metadata by URL and publishes our SP metadata per connection", async () => {
    const connection = await expectJson<{ saml: Record<string, unknown> }>(
      await request(`/api/v1/teams/${teamA}/sso-connections/${connectionA}`),
    );
    expect(connection.saml).toMatchObject({
      idp_entity_id: idp.entityId,
      idp_sso_url: `${idp.origin}/sso`,
      sp_entity_id: entityOf(connectionA),
      acs_url: acsOf(connectionA),
    });
    const metadata = await server.request(`/api/v1/auth/sso/saml/${connectionA}/metadata`);
    expect(metadata.status).toBe(200);
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${entityOf(connectionA)}"`);
    expect(xml).toContain(`Location="${acsOf(connectionA)}"`);
  });

  it("fetches metadata URLs only from public addresses unless private ones are allowed (SSRF guard)", async () => {
    const guarded = createSamlServiceProvider({ baseUrl: TEST_BASE_URL, allowPrivateUrls: false });
    await expect(guarded.settingsFrom({ idp_metadata_url: idp.metadataUrl })).rejects.toMatchObject({
      code: "SCHEMA_ERROR",
    });
    const open = createSamlServiceProvider({ baseUrl: TEST_BASE_URL, allowPrivateUrls: true });
    expect((await open.settingsFrom({ idp_metadata_url: idp.metadataUrl })).idp_entity_id).toBe(idp.entityId);
  });

  it("refuses metadata that is not an IdP's", async () => {
    await expectKnownError(
      await request(`/api/v1/teams/${teamA}/sso-connections`, {
        method: "POST",
        body: { protocol: "saml", display_name: "Bad", saml: { idp_metadata_xml: "<nope/>" } },
      }),
      "SCHEMA_ERROR",
    );
  });
});

describe("SP-initiated sign-in", () => {
  it("signs in with a signed assertion, provisions into the team and maps groups to permissions", async () => {
    const first = await signIn(connectionA, "alice-admin");
    expect(first.tokens.is_new_user).toBe(true);
    expect(first.user.display_name).toBe("SAML alice-admin");
    expect(first.user.primary_email).toBe("alice-admin@saml.example.com");
    expect(await permissionsOf(teamA, first.user.id)).toEqual(["team_admin", "team_member"]);

    const plain = await signIn(connectionA, uniqueLogin());
    expect(await permissionsOf(teamA, plain.user.id)).toEqual(["team_member"]);

    const again = await signIn(connectionA, "alice-admin");
    expect(again.user.id).toBe(first.user.id);
    expect(again.tokens.is_new_user).toBe(false);
  });

  it("accepts both certificates of a rotation, and only the ones the connection trusts", async () => {
    await signIn(connectionA, uniqueLogin(), { key: "secondary" });
    const { form } = await toAcs(connectionB, uniqueLogin(), { key: "primary" });
    expect(landingError(await landing(form)).errorCode).toBe("SSO_IDENTITY_PROVIDER_ERROR");
  });

  // Each refused for its own reason, which the error page shows the administrator.
  it.each([
    ["unsigned", /Invalid signature/],
    ["tampered", /Invalid signature/],
    ["rogue", /Invalid signature/],
    ["expired", /expired/],
    ["wrong-audience", /audience mismatch/],
    ["wrong-recipient", /another recipient/],
    ["wrapped", /Invalid signature/],
    ["response-signed", /Invalid signature/],
  ])("refuses a %s assertion", async (variant, reason) => {
    const { form } = await toAcs(connectionA, uniqueLogin(), { variant });
    const landed = await landing(form);
    expect(landed.origin + landed.pathname).toBe(REDIRECT_URI);
    expect(landingError(landed).errorCode).toBe("SSO_IDENTITY_PROVIDER_ERROR");
    expect(landingError(landed).details.reason).toMatch(reason);
    expect(landed.searchParams.get("code")).toBeNull();
  });

  it("refuses a replayed response, on its own flow and on another", async () => {
    const { form } = await toAcs(connectionA, uniqueLogin());
    await landing(form);
    const again = await post(form);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("Invalid SSO state");

    // The captured response with a fresh flow's RelayState: it answers another request.
    const fresh = await toAcs(connectionA, uniqueLogin());
    const replayed = await landing({ ...form, RelayState: fresh.form.RelayState });
    expect(landingError(replayed).errorCode).toBe("SSO_IDENTITY_PROVIDER_ERROR");
    expect(replayed.searchParams.get("code")).toBeNull();
  });

  it("refuses a flow's RelayState at another team's connection", async () => {
    const { form } = await toAcs(connectionA, uniqueLogin());
    const crossed = await post({ ...form, acs: acsOf(connectionB) });
    expect(crossed.status).toBe(400);
  });
});

describe("test sign-ins (the SSO tab's Test connection)", () => {
  const RETURN = `${TEST_BASE_URL}/dashboard/projects/p/teams/t/sso`;
  type Test = {
    id: string;
    status: string;
    subject: string | null;
    attributes: Record<string, unknown> | null;
    error: { code: string; message: string; details?: { reason?: string } } | null;
  };
  const testsOf = (teamId: string, connectionId: string) =>
    `/api/v1/teams/${teamId}/sso-connections/${connectionId}/tests`;

  async function runTest(login: string, variant?: string) {
    const started = await expectJson<Test & { location: string }>(
      await request(testsOf(teamA, connectionA), { method: "POST", body: { return_url: RETURN } }),
      201,
    );
    expect(started.status).toBe("pending");
    const pending = await expectJson<Test>(await request(`${testsOf(teamA, connectionA)}/${started.id}`));
    expect(pending.status).toBe("pending");
    const back = await landing(await idp.signIn(started.location, login, { variant }));
    expect(back.origin + back.pathname).toBe(RETURN);
    expect(back.searchParams.get("sso_test_id")).toBe(started.id);
    expect(back.searchParams.get("code")).toBeNull();
    return expectJson<Test>(await request(`${testsOf(teamA, connectionA)}/${started.id}`));
  }

  const emails = async () =>
    (await expectJson<{ items: { primary_email: string }[] }>(await request("/api/v1/users"))).items.map(
      (u) => u.primary_email,
    );

  it("reports the subject and attributes the IdP sent, and signs no one in", async () => {
    const login = uniqueLogin();
    const result = await runTest(login);
    expect(result).toMatchObject({ status: "succeeded", subject: `${login}@saml.example.com`, error: null });
    expect(result.attributes).toMatchObject({ email: `${login}@saml.example.com`, name: `SAML ${login}` });
    expect(await emails()).not.toContain(`${login}@saml.example.com`);
  });

  it("reports what failed", async () => {
    const result = await runTest(uniqueLogin(), "tampered");
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("SSO_IDENTITY_PROVIDER_ERROR");
    expect(result.error?.details?.reason).toMatch(/Invalid signature/);
  });

  it("returns only to this server or a URL the project trusts, and only to the connection's own team", async () => {
    await expectKnownError(
      await request(testsOf(teamA, connectionA), {
        method: "POST",
        body: { return_url: "https://evil.example.com/steal" },
      }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    await expectKnownError(
      await request(testsOf(teamB, connectionA), { method: "POST", body: { return_url: RETURN } }),
      "SSO_CONNECTION_NOT_FOUND",
    );
    const started = await expectJson<Test>(
      await request(testsOf(teamA, connectionA), { method: "POST", body: { return_url: RETURN } }),
      201,
    );
    await expectKnownError(await request(`${testsOf(teamB, connectionB)}/${started.id}`), "SCHEMA_ERROR");
  });
});

describe("encrypted assertions", () => {
  let teamC: string;
  let connectionC: string;
  beforeAll(async () => {
    teamC = await createTeam("Team C");
    const created = await expectJson<{ id: string; saml: { sp_encryption_certificate: string | null } }>(
      await request(`/api/v1/teams/${teamC}/sso-connections`, {
        method: "POST",
        body: {
          protocol: "saml",
          display_name: "Encrypting IdP",
          saml: { idp_metadata_url: idp.metadataUrl },
        },
      }),
      201,
    );
    connectionC = created.id;
    expect(created.saml.sp_encryption_certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    // The administrator uploads our SP metadata at the IdP, which then encrypts to the certificate it publishes.
    const metadata = await (await server.request(`/api/v1/auth/sso/saml/${connectionC}/metadata`)).text();
    expect(metadata).toMatch(/KeyDescriptor[^>]*use="encryption"/);
    expect(await idp.registerSp(metadata)).toEqual({ entityId: entityOf(connectionC), encrypts: true });
  });

  const decoded = (form: SamlPost) => Buffer.from(form.SAMLResponse, "base64").toString("utf8");

  it("signs in with an assertion the IdP encrypted to the connection's key", async () => {
    const login = uniqueLogin();
    const { form } = await toAcs(connectionC, login);
    expect(decoded(form)).toContain("EncryptedAssertion");
    expect(decoded(form)).not.toContain(`${login}@saml.example.com`);
    const { user } = await signIn(connectionC, login);
    expect(user.primary_email).toBe(`${login}@saml.example.com`);
  });

  it("keeps its key when the IdP's settings change", async () => {
    const path = `/api/v1/teams/${teamC}/sso-connections/${connectionC}`;
    const before = await expectJson<{ saml: { sp_encryption_certificate: string } }>(await request(path));
    const after = await expectJson<{ saml: { sp_encryption_certificate: string } }>(
      await request(path, { method: "PATCH", body: { saml: { idp_metadata_url: idp.metadataUrl } } }),
    );
    expect(after.saml.sp_encryption_certificate).toBe(before.saml.sp_encryption_certificate);
    await signIn(connectionC, uniqueLogin());
  });

  /** Makes a connection look like one created before encrypted assertions: no key in its settings. */
  async function withoutKey(teamId: string): Promise<string> {
    const { id } = await expectJson<{ id: string }>(
      await request(`/api/v1/teams/${teamId}/sso-connections`, {
        method: "POST",
        body: { protocol: "saml", display_name: "Older IdP", saml: { idp_metadata_url: idp.metadataUrl } },
      }),
      201,
    );
    const db = server.deps.db;
    await db
      .update(ssoConnections)
      .set({
        settings: sql`${ssoConnections.settings} - 'sp_encryption_certificate' - 'sealed_sp_encryption_key'`,
      })
      .where(eq(ssoConnections.id, id));
    const [row] = await db.select().from(ssoConnections).where(eq(ssoConnections.id, id));
    expect(row?.settings).not.toHaveProperty("sp_encryption_certificate");
    return id;
  }
  const certificateOf = async (teamId: string, id: string) =>
    (
      await expectJson<{ saml: { sp_encryption_certificate: string | null } }>(
        await request(`/api/v1/teams/${teamId}/sso-connections/${id}`),
      )
    ).saml.sp_encryption_certificate;

  it("gives an older connection its key when its SP metadata is read, once", async () => {
    const id = await withoutKey(teamC);
    expect(await certificateOf(teamC, id)).toBeNull();
    const metadataUrl = `/api/v1/auth/sso/saml/${id}/metadata`;
    const reads = await Promise.all([1, 2, 3].map(() => server.request(metadataUrl)));
    const texts = await Promise.all(reads.map((r) => r.text()));
    const certificate = await certificateOf(teamC, id);
    expect(certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const body = (certificate ?? "").replace(/-----[A-Z ]+-----|\s/g, "");
    // Every concurrent reader was handed the one key that was kept.
    for (const text of texts) {
      expect(text).toMatch(/KeyDescriptor[^>]*use="encryption"/);
      expect(text.replace(/\s/g, "")).toContain(body);
    }
    // The IdP encrypts to it, and the connection can open what it sends.
    expect(await idp.registerSp(texts[0] ?? "")).toEqual({ entityId: entityOf(id), encrypts: true });
    const { form } = await toAcs(id, uniqueLogin());
    expect(decoded(form)).toContain("EncryptedAssertion");
    const landed = await landing(form);
    expect(landed.origin + landed.pathname, landed.toString()).toBe(REDIRECT_URI);
  });

  it("gives an older connection its key when a sign-in starts", async () => {
    const id = await withoutKey(teamC);
    await toAcs(id, uniqueLogin());
    expect(await certificateOf(teamC, id)).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });

  it.each([
    ["tampered", /Invalid signature/],
    ["unsigned", /Invalid signature/],
    ["wrong-audience", /audience mismatch/],
  ])("still refuses a %s assertion inside the encryption", async (variant, reason) => {
    const { form } = await toAcs(connectionC, uniqueLogin(), { variant });
    expect(decoded(form)).toContain("EncryptedAssertion");
    const landed = await landing(form);
    expect(landingError(landed).errorCode).toBe("SSO_IDENTITY_PROVIDER_ERROR");
    expect(landingError(landed).details.reason).toMatch(reason);
  });
});

describe("IdP-initiated responses", () => {
  const unsolicited = (connectionId: string, extra: { relayState?: string; audience?: string } = {}) =>
    idp.unsolicited({
      acs: acsOf(connectionId),
      audience: extra.audience ?? entityOf(connectionId),
      login: uniqueLogin(),
      relayState: extra.relayState,
    });

  it("validates the response once, then sends the user to the app to start an SP-initiated sign-in", async () => {
    const form = await unsolicited(connectionA);
    const landed = await landing(form);
    expect(landed.origin + landed.pathname).toBe(`${APP}/handler/sign-in`);
    expect(landed.searchParams.get("sso_connection_id")).toBe(connectionA);
    expect(landed.searchParams.get("code")).toBeNull();
    await expectKnownError(await post(form), "SSO_IDENTITY_PROVIDER_ERROR");
  });

  it("accepts a response once even when it arrives twice at the same moment", async () => {
    const form = await unsolicited(connectionA);
    const answers = await Promise.all([post(form), post(form), post(form)]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 400, 400]);
  });

  it("follows RelayState only to a URL the project trusts", async () => {
    const trusted = await landing(await unsolicited(connectionA, { relayState: `${APP}/dashboard` }));
    expect(trusted.origin + trusted.pathname).toBe(`${APP}/dashboard`);
    const evil = await landing(
      await unsolicited(connectionA, { relayState: "https://evil.example.com/phish" }),
    );
    expect(evil.origin).toBe(APP);
  });

  it("refuses a response meant for another team's connection", async () => {
    // Team A's assertion posted to team B's ACS: B's audience and certificate both refuse it.
    const form = await unsolicited(connectionA);
    await expectKnownError(await post({ ...form, acs: acsOf(connectionB) }), "SSO_IDENTITY_PROVIDER_ERROR");
    const forB = await unsolicited(connectionB);
    await expectKnownError(await post(forB), "SSO_IDENTITY_PROVIDER_ERROR");
  });
});
