// SSO through an OIDC connection, against a real OpenID Connect provider (the `oidc-provider` package in its own
// process, testing/oidc-provider-server.ts): a team's connection is managed over the API, a sign-in goes through the
// provider's pages (discovery, code + PKCE, nonce, the id_token checked against the provider's JWKS), provisions the
// user into the team just in time, and ends with the ordinary OAuth token exchange. Then the refusals: a state used
// twice or sent to another team's connection, a disabled connection, an untrusted redirect, and the account rules
// (an identity never reaches an existing account of an address its team has not proven).

import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ssoDomains, webhookEvents } from "../db/schema.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import { landingError, local, oauthClient, pkcePair } from "../testing/oauth-client.ts";
import {
  type OidcProvider,
  startOidcProvider,
  throughOidcProvider,
} from "../testing/oidc-provider-process.ts";
import {
  accessHeaders,
  apiRequest,
  createTestServer,
  type ProjectKeys,
  TEST_BASE_URL,
  type TestServer,
  uniqueIp,
} from "../testing/test-server.ts";

const APP = "https://app.example.com";
const REDIRECT_URI = `${APP}/handler/oauth-callback`;
const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let provider: OidcProvider;
let keys: ProjectKeys;
/** Two teams of the project, each with an OIDC connection to the same provider. */
let teamA: string;
let teamB: string;
let connectionA: string;
let connectionB: string;

const request = apiRequest(() => ({ server, keys }));

const connectionsPath = (teamId: string) => `/api/v1/teams/${teamId}/sso-connections`;

async function createTeam(name: string): Promise<string> {
  const team = await expectJson<{ id: string }>(
    await request("/api/v1/teams", { method: "POST", body: { display_name: name } }),
    201,
  );
  return team.id;
}

/** A connection first points nowhere: its callback URL (from its id) must be registered at the provider. */
async function createConnection(teamId: string): Promise<string> {
  const created = await expectJson<{ id: string }>(
    await request(connectionsPath(teamId), {
      method: "POST",
      body: {
        protocol: "oidc",
        display_name: "Corp OIDC",
        oidc: { issuer_url: "https://idp.invalid", client_id: "placeholder", client_secret: "placeholder" },
        attribute_mapping: { group_permissions: {} },
      },
    }),
    201,
  );
  return created.id;
}

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject(
    { displayName: "SSO project", config: { domains: [{ domain: APP, handler_path: "/handler" }] } },
    { expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) },
  ));
  teamA = await createTeam("Team A");
  teamB = await createTeam("Team B");
  connectionA = await createConnection(teamA);
  connectionB = await createConnection(teamB);
  provider = await startOidcProvider({
    redirectUris: [connectionA, connectionB].map(
      (id) => `${TEST_BASE_URL}/api/v1/auth/sso/oidc/${id}/callback`,
    ),
  });
  for (const [team, id] of [
    [teamA, connectionA],
    [teamB, connectionB],
  ] as const) {
    await expectJson(
      await request(`${connectionsPath(team)}/${id}`, {
        method: "PATCH",
        body: {
          oidc: {
            issuer_url: provider.issuer,
            client_id: provider.clientId,
            client_secret: provider.clientSecret,
          },
        },
      }),
    );
  }
});
afterAll(async () => {
  await provider?.stop();
  await server?.deps.emailWorker.stop();
  await server?.close();
});

const { followCallback, exchange } = oauthClient(() => server, REDIRECT_URI);

type Me = {
  id: string;
  display_name: string | null;
  primary_email: string | null;
  primary_email_verified: boolean;
};
const me = async (accessToken: string) =>
  expectJson<Me>(
    await server.request("/api/v1/users/me", {
      headers: {
        ...accessHeaders("client", keys),
        "x-stack-access-token": accessToken,
        "x-forwarded-for": uniqueIp(),
      },
    }),
  );

let logins = 0;
const uniqueLogin = () => `sso-${++logins}-${Math.random().toString(36).slice(2, 8)}`;

/** The app asks where to send the browser for an SSO sign-in. */
async function authorize(body: Record<string, unknown>) {
  const pkce = pkcePair();
  const state = `client-state-${Math.random()}`;
  const response = await request("/api/v1/auth/sso/authorize", {
    method: "POST",
    type: "client",
    body: { redirect_uri: REDIRECT_URI, state, code_challenge: pkce.challenge, ...body },
  });
  return { response, pkce, state };
}

/** authorize → the provider's pages → our callback (not yet followed). */
async function toCallback(connectionId: string, login: string) {
  const started = await authorize({ connection_id: connectionId });
  const { location, connection_id } = await expectJson<{ location: string; connection_id: string }>(
    started.response,
  );
  expect(connection_id).toBe(connectionId);
  const callback = await throughOidcProvider(location, { login });
  expect(callback.pathname).toBe(`/api/v1/auth/sso/oidc/${connectionId}/callback`);
  return { ...started, callback, location: new URL(location) };
}

/** The whole trip and the token exchange: the signed-in user. */
async function signIn(connectionId: string, login: string) {
  const { callback, pkce, state } = await toCallback(connectionId, login);
  const landing = await followCallback(callback, "");
  expect(landing.origin + landing.pathname, landing.toString()).toBe(REDIRECT_URI);
  expect(landing.searchParams.get("state")).toBe(state);
  const tokens = await expectJson<{ access_token: string; is_new_user: boolean }>(
    await exchange(keys, landing.searchParams.get("code") ?? "", pkce.verifier),
  );
  return { tokens, user: await me(tokens.access_token) };
}

async function teamMembers(teamId: string): Promise<string[]> {
  const list = await expectJson<{ items: { id: string }[] }>(
    await request(`/api/v1/users?team_id=${teamId}`),
  );
  return list.items.map((u) => u.id);
}

/** The data of the webhook events of a type the project recorded. */
async function eventsOf(type: string): Promise<unknown[]> {
  const rows = await server.deps.db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.projectId, keys.projectId), eq(webhookEvents.type, type)));
  return rows.map((row) => row.data);
}

describe("SSO connections API", () => {
  it("shows the values to register at the provider and never the client secret", async () => {
    const connection = await expectJson<Record<string, unknown>>(
      await request(`${connectionsPath(teamA)}/${connectionA}`),
    );
    expect(connection).toMatchObject({
      id: connectionA,
      team_id: teamA,
      protocol: "oidc",
      enabled: true,
      oidc: {
        issuer_url: provider.issuer,
        client_id: provider.clientId,
        redirect_uri: `${TEST_BASE_URL}/api/v1/auth/sso/oidc/${connectionA}/callback`,
      },
      saml: null,
    });
    expect(JSON.stringify(connection)).not.toContain(provider.clientSecret);
    // Webhooks hear of each change, never with the secret.
    expect(await eventsOf("sso.connection.created")).toContainEqual(
      expect.objectContaining({ id: connectionA }),
    );
    expect(await eventsOf("sso.connection.updated")).toContainEqual(
      expect.objectContaining({ id: connectionA }),
    );
    expect(JSON.stringify(await eventsOf("sso.connection.updated"))).not.toContain(provider.clientSecret);
    const list = await expectJson<{ items: { id: string }[] }>(await request(connectionsPath(teamA)));
    expect(list.items.map((c) => c.id)).toEqual([connectionA]);
  });

  it("keeps one team's connections out of another team's paths, and clients without a user out", async () => {
    await expectKnownError(
      await request(`${connectionsPath(teamB)}/${connectionA}`),
      "SSO_CONNECTION_NOT_FOUND",
      { connection_id: connectionA },
    );
    const client = await request(connectionsPath(teamA), { type: "client" });
    expect(client.status).toBe(401);
  });
});

describe("OIDC sign-in", () => {
  it("validates the provider's answer, creates the user just in time and joins them to the team", async () => {
    const login = uniqueLogin();
    const { location } = await toCallback(connectionA, uniqueLogin());
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    expect(location.searchParams.get("nonce")).toBeTruthy();

    const { tokens, user } = await signIn(connectionA, uniqueLogin());
    expect(tokens.is_new_user).toBe(true);
    expect(user.display_name).toMatch(/^OIDC sso-/);
    // The team has not proven oidc.example.com: the address is kept, but neither verified nor used to sign in.
    expect(user.primary_email).toMatch(/@oidc\.example\.com$/);
    expect(user.primary_email_verified).toBe(false);
    expect(await teamMembers(teamA)).toContain(user.id);
    expect(await teamMembers(teamB)).not.toContain(user.id);
    expect(await eventsOf("user.provisioned")).toContainEqual({
      user_id: user.id,
      team_id: teamA,
      connection_id: connectionA,
    });

    const first = await signIn(connectionA, login);
    const again = await signIn(connectionA, login);
    expect(again.user.id).toBe(first.user.id);
    expect(again.tokens.is_new_user).toBe(false);
  });

  it("uses a state once, and only at the connection it was made for", async () => {
    const { callback } = await toCallback(connectionA, uniqueLogin());
    const other = new URL(callback);
    other.pathname = `/api/v1/auth/sso/oidc/${connectionB}/callback`;
    const crossed = await server.request(local(other));
    expect(crossed.status).toBe(400);
    expect(await crossed.text()).toContain("Invalid SSO state");

    await followCallback(callback, "");
    const replayed = await server.request(local(callback));
    expect(replayed.status).toBe(400);
  });

  it("refuses a forged callback whose code the provider never issued", async () => {
    const { callback } = await toCallback(connectionA, uniqueLogin());
    callback.searchParams.set("code", "forged-code");
    const landing = await followCallback(callback, "");
    expect(landingError(landing).errorCode).toBe("SSO_IDENTITY_PROVIDER_ERROR");
    expect(landing.searchParams.get("code")).toBeNull();
  });

  it("refuses untrusted redirect URIs and disabled or unknown connections", async () => {
    await expectKnownError(
      (await authorize({ connection_id: connectionA, redirect_uri: "https://evil.example.com/cb" })).response,
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    const unknown = crypto.randomUUID();
    await expectKnownError(
      (await authorize({ connection_id: unknown })).response,
      "SSO_CONNECTION_NOT_FOUND",
      { connection_id: unknown },
    );
    const disabled = await createConnection(teamB);
    await request(`${connectionsPath(teamB)}/${disabled}`, { method: "PATCH", body: { enabled: false } });
    await expectKnownError(
      (await authorize({ connection_id: disabled })).response,
      "SSO_CONNECTION_NOT_FOUND",
      { connection_id: disabled },
    );
  });
});

describe("team administrators", () => {
  it("manage their team's SSO with $manage_sso, and no other team's", async () => {
    const { tokens, user } = await signIn(connectionA, uniqueLogin());
    const asMember = (teamId: string) =>
      server.request(connectionsPath(teamId), {
        headers: {
          ...accessHeaders("client", keys),
          "x-stack-access-token": tokens.access_token,
          "x-forwarded-for": uniqueIp(),
        },
      });
    await expectKnownError(await asMember(teamA), "TEAM_PERMISSION_REQUIRED");
    await expectJson(
      await request(`/api/v1/team-permissions/${teamA}/${user.id}/$manage_sso`, { method: "POST", body: {} }),
      201,
    );
    const list = await expectJson<{ items: { id: string }[] }>(await asMember(teamA));
    expect(list.items.map((c) => c.id)).toContain(connectionA);
    await expectKnownError(await asMember(teamB), "TEAM_MEMBERSHIP_NOT_FOUND");
  });
});

describe("account rules across organizations", () => {
  it("never signs in an existing account of an address the connection's team has not verified", async () => {
    const login = uniqueLogin();
    const email = `${login}@oidc.example.com`;
    const existing = await expectJson<{ id: string }>(
      await request("/api/v1/users", {
        method: "POST",
        body: { primary_email: email, primary_email_auth_enabled: true },
      }),
      201,
    );
    const { callback } = await toCallback(connectionA, login);
    const landing = await followCallback(callback, "");
    expect(landingError(landing)).toMatchObject({
      errorCode: "SSO_ACCOUNT_BELONGS_TO_ANOTHER_ORGANIZATION",
      details: { email },
    });
    expect(await teamMembers(teamA)).not.toContain(existing.id);
  });

  it("signs in the account of an address whose domain the team verified, and routes sign-in by e-mail to it", async () => {
    const login = uniqueLogin();
    const email = `${login}@oidc.example.com`;
    const existing = await expectJson<{ id: string }>(
      await request("/api/v1/users", {
        method: "POST",
        body: { primary_email: email, primary_email_auth_enabled: true },
      }),
      201,
    );
    // Team B's proof of the domain (domain verification has its own tests): team A's connection still may not.
    await server.deps.db.insert(ssoDomains).values({
      id: crypto.randomUUID(),
      projectId: keys.projectId,
      teamId: teamB,
      domain: "oidc.example.com",
      verificationToken: "token",
      verifiedAt: server.clock.now(),
    });
    const refused = await followCallback((await toCallback(connectionA, login)).callback, "");
    expect(landingError(refused).errorCode).toBe("SSO_ACCOUNT_BELONGS_TO_ANOTHER_ORGANIZATION");

    const { user } = await signIn(connectionB, login);
    expect(user.id).toBe(existing.id);
    expect(await teamMembers(teamB)).toContain(existing.id);

    const routed = await authorize({ email: `someone@OIDC.example.com` });
    const answer = await expectJson<{ connection_id: string }>(routed.response);
    expect([connectionB]).toContain(answer.connection_id);
    await expectKnownError(
      (await authorize({ email: "someone@unclaimed.example.com" })).response,
      "SSO_DOMAIN_NOT_FOUND",
      { domain: "unclaimed.example.com" },
    );
  });
});

describe("test sign-ins through an OIDC connection", () => {
  it("report the claims received and sign no one in", async () => {
    const login = uniqueLogin();
    const before = await teamMembers(teamA);
    const started = await expectJson<{ id: string; location: string }>(
      await request(`${connectionsPath(teamA)}/${connectionA}/tests`, {
        method: "POST",
        body: { return_url: `${APP}/admin/sso` },
      }),
      201,
    );
    const callback = await throughOidcProvider(started.location, { login });
    const back = await followCallback(callback.toString(), "");
    expect(back.origin + back.pathname).toBe(`${APP}/admin/sso`);
    expect(back.searchParams.get("sso_test_id")).toBe(started.id);
    expect(back.searchParams.get("code")).toBeNull();
    const result = await expectJson<{ status: string; subject: string; attributes: Record<string, unknown> }>(
      await request(`${connectionsPath(teamA)}/${connectionA}/tests/${started.id}`),
    );
    expect(result.status).toBe("succeeded");
    expect(result.attributes).toMatchObject({ sub: result.subject });
    expect(await teamMembers(teamA)).toEqual(before);
  });
});

describe("an install that keeps outside requests off its own network (the default)", () => {
  it("never sends the relying party's requests to a loopback issuer a team admin typed", async () => {
    const guarded = await createTestServer({ ssoAllowPrivateUrls: false });
    try {
      const { keys: guardedKeys } = await guarded.createProject(
        { displayName: "Guarded", config: { domains: [{ domain: APP, handler_path: "/handler" }] } },
        { expiresAt: new Date(guarded.clock.now().getTime() + 365 * DAY) },
      );
      const call = apiRequest(() => ({ server: guarded, keys: guardedKeys }));
      const team = await expectJson<{ id: string }>(
        await call("/api/v1/teams", { method: "POST", body: { display_name: "Inside" } }),
        201,
      );
      const connection = await expectJson<{ id: string }>(
        await call(connectionsPath(team.id), {
          method: "POST",
          body: {
            protocol: "oidc",
            display_name: "Loopback IdP",
            oidc: {
              issuer_url: provider.issuer,
              client_id: provider.clientId,
              client_secret: provider.clientSecret,
            },
          },
        }),
        201,
      );
      const pkce = pkcePair();
      const started = await call("/api/v1/auth/sso/authorize", {
        method: "POST",
        type: "client",
        body: {
          connection_id: connection.id,
          redirect_uri: REDIRECT_URI,
          state: "client-state",
          code_challenge: pkce.challenge,
        },
      });
      await expectKnownError(started, "SSO_IDENTITY_PROVIDER_ERROR", {
        connection_id: connection.id,
        reason: "The identity provider's address is not a public one.",
      });
    } finally {
      await guarded.close();
    }
  });
});
