// GET /api/v1/projects/current (the client view of WIRE.md §4.13; admins get the admin view) and the per-project
// JWKS of §3.2: key shape, audience flags, validation, unknown projects, verification of minted tokens with jose, and
// the 307 redirects.
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenIssuerAndAudience } from "../services/sessions.ts";
import { expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  TEST_BASE_URL,
  type TestServer,
} from "../testing/test-server.ts";

const CURRENT = "/api/v1/projects/current";
const jwksPath = (projectId: string, query = "") =>
  `/api/v1/projects/${projectId}/.well-known/jwks.json${query}`;

let server: TestServer;
let keys: ProjectKeys;
let plain: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  keys = (
    await server.createProject({
      displayName: "Configured",
      config: {
        magic_link_enabled: true,
        domains: [{ domain: "https://app.example.com", handler_path: "/auth" }],
        oauth_providers: [
          { id: "github", type: "standard", enabled: true, client_id: "id", client_secret: "secret" },
          { id: "google", type: "shared", enabled: false },
        ],
      },
    })
  ).keys;
  plain = (await server.createProject({ displayName: "Plain" })).keys;
});
afterAll(() => server.close());

type Jwk = Record<string, unknown> & { kid: string };

async function fetchJwks(projectId: string, query = "", headers: Record<string, string> = {}) {
  const res = await server.request(jwksPath(projectId, query), { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
  const text = await res.text();
  const body = JSON.parse(text) as { keys: Jwk[] };
  return { text, body, keys: body.keys };
}

const CLIENT_CONFIG_KEYS = [
  "allow_team_api_keys",
  "allow_user_api_keys",
  "client_team_creation_enabled",
  "client_user_deletion_enabled",
  "credential_enabled",
  "domains",
  "enabled_oauth_providers",
  "magic_link_enabled",
  "oauth_providers",
  "passkey_enabled",
  "sign_up_enabled",
];

describe("GET /api/v1/projects/current", () => {
  async function current(type: "client" | "server" | "admin", projectKeys: ProjectKeys) {
    const res = await server.request(CURRENT, { headers: accessHeaders(type, projectKeys) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const text = await res.text();
    return { text, body: JSON.parse(text) as { config: Record<string, unknown> } & Record<string, unknown> };
  }

  const expectedConfigured = () => ({
    id: keys.projectId,
    display_name: "Configured",
    logo_url: null,
    logo_full_url: null,
    logo_dark_mode_url: null,
    logo_full_dark_mode_url: null,
    config: {
      sign_up_enabled: true,
      credential_enabled: true,
      magic_link_enabled: true,
      passkey_enabled: false,
      client_team_creation_enabled: false,
      client_user_deletion_enabled: false,
      allow_user_api_keys: false,
      allow_team_api_keys: false,
      oauth_providers: [{ id: "github" }],
      enabled_oauth_providers: [{ id: "github" }],
      domains: [{ domain: "https://app.example.com", handler_path: "/auth" }],
    },
  });

  for (const type of ["client", "server"] as const) {
    it(`shows the client view to ${type} callers`, async () => {
      const { text, body } = await current(type, keys);
      // [GO] the logos too: our pages show them on the sign-in card.
      expect(Object.keys(body).sort()).toEqual([
        "config",
        "display_name",
        "id",
        "logo_dark_mode_url",
        "logo_full_dark_mode_url",
        "logo_full_url",
        "logo_url",
      ]);
      expect(Object.keys(body.config).sort()).toEqual(CLIENT_CONFIG_KEYS);
      expect(body).toEqual(expectedConfigured());
      expect(text).not.toContain("secret");
      expect(text).not.toContain("client_id");
      expect(text).not.toContain("google");
    });
  }

  // The admin view itself is covered in project-settings.test.ts.
  it("shows the admin view to admin callers", async () => {
    const { body } = await current("admin", keys);
    expect(Object.keys(body).sort()).toEqual([
      "config",
      "created_at_millis",
      "description",
      "display_name",
      "id",
      "is_production_mode",
      "logo_dark_mode_url",
      "logo_full_dark_mode_url",
      "logo_full_url",
      "logo_url",
      "owner_team_id",
      "production_mode_errors",
      "user_count",
    ]);
    expect(body.config.oauth_providers).toEqual([
      {
        id: "github",
        provider_config_id: "github",
        type: "standard",
        enabled: true,
        client_id: "id",
        client_secret: "secret",
      },
      { id: "google", provider_config_id: "google", type: "shared", enabled: false },
    ]);
  });

  it("shows the defaults of a new project", async () => {
    const { body } = await current("client", plain);
    expect(body).toEqual({
      id: plain.projectId,
      display_name: "Plain",
      logo_url: null,
      logo_full_url: null,
      logo_dark_mode_url: null,
      logo_full_dark_mode_url: null,
      config: {
        sign_up_enabled: true,
        credential_enabled: true,
        magic_link_enabled: false,
        passkey_enabled: false,
        client_team_creation_enabled: false,
        client_user_deletion_enabled: false,
        allow_user_api_keys: false,
        allow_team_api_keys: false,
        oauth_providers: [],
        enabled_oauth_providers: [],
        domains: [],
      },
    });
  });

  it("needs an access type", async () => {
    await expectKnownError(await server.request(CURRENT), "ACCESS_TYPE_REQUIRED");
  });
});

describe("GET /api/v1/projects/{project_id}/.well-known/jwks.json", () => {
  it("publishes one public ES256 key by default, without private parts", async () => {
    const { text, keys: jwks } = await fetchJwks(keys.projectId);
    expect(jwks).toHaveLength(1);
    const [key] = jwks as [Jwk];
    expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "x", "y"]);
    expect(key).toMatchObject({ kty: "EC", alg: "ES256", crv: "P-256" });
    expect(key.kid).toMatch(/.+/);
    expect(key.x).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key.y).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(text).not.toContain('"d"');
  });

  it("adds the restricted and anonymous keys on request", async () => {
    const only = (await fetchJwks(keys.projectId)).keys;
    const restricted = (await fetchJwks(keys.projectId, "?include_restricted=true")).keys;
    const anonymous = (await fetchJwks(keys.projectId, "?include_anonymous=true")).keys;
    const both = (await fetchJwks(keys.projectId, "?include_restricted=true&include_anonymous=true")).keys;
    expect(restricted).toHaveLength(2);
    expect(anonymous).toHaveLength(3);
    expect(both).toHaveLength(3);
    const kids = (list: Jwk[]) => list.map((k) => k.kid).sort();
    expect(kids(restricted)).toEqual(expect.arrayContaining(kids(only)));
    expect(kids(anonymous)).toEqual(expect.arrayContaining(kids(restricted)));
    expect(new Set(kids(anonymous)).size).toBe(3);
    for (const key of anonymous) {
      expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "x", "y"]);
    }
  });

  it("treats false flags as absent", async () => {
    expect((await fetchJwks(keys.projectId, "?include_anonymous=false")).keys).toHaveLength(1);
    expect((await fetchJwks(keys.projectId, "?include_restricted=false")).keys).toHaveLength(1);
    expect(
      (await fetchJwks(keys.projectId, "?include_restricted=true&include_anonymous=false")).keys,
    ).toHaveLength(2);
  });

  it("rejects a non-boolean flag and unknown query fields", async () => {
    const body = await expectKnownError(
      await server.request(jwksPath(keys.projectId, "?include_restricted=maybe")),
      "SCHEMA_ERROR",
    );
    expect(body.message).toMatch(
      /^Request validation failed on GET \/api\/v1\/projects\/[^/]+\/\.well-known\/jwks\.json:\n {2}- query\.include_restricted/,
    );
    const unknown = await expectKnownError(
      await server.request(jwksPath(keys.projectId, "?foo=1")),
      "SCHEMA_ERROR",
    );
    expect(unknown.message).toContain("  - query contains unknown properties: foo");
  });

  it("answers 404 text for an unknown project", async () => {
    await expectTextError(await server.request(jwksPath("no-such-project")), 404, "Project not found.");
  });

  it("publishes different keys per project", async () => {
    const a = (await fetchJwks(keys.projectId, "?include_anonymous=true")).keys.map((k) => k.kid);
    const b = (await fetchJwks(plain.projectId, "?include_anonymous=true")).keys.map((k) => k.kid);
    expect(a.filter((kid) => b.includes(kid))).toEqual([]);
  });

  it("needs no headers and ignores wrong keys (access none)", async () => {
    const expected = (await fetchJwks(keys.projectId)).body;
    const wrong = {
      ...accessHeaders("admin", keys),
      "x-stack-super-secret-admin-key": "sak_wrong",
      "x-stack-access-token": "not-a-token",
    };
    expect((await fetchJwks(keys.projectId, "", wrong)).body).toEqual(expected);
    const nonsense = { "x-stack-access-type": "root", "x-stack-project-id": "nope" };
    expect((await fetchJwks(keys.projectId, "", nonsense)).body).toEqual(expected);
  });

  it("carries CORS and the common headers", async () => {
    const res = await server.request(jwksPath(keys.projectId));
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-stack-request-id")).toMatch(/.+/);
  });
});

describe("verifying tokens with the JWKS", () => {
  const keySet = async (projectId: string, query = "") =>
    createLocalJWKSet((await fetchJwks(projectId, query)).body as unknown as JSONWebKeySet);

  it("verifies a normal token with the default JWKS, issuer and audience", async () => {
    const { accessToken: token, userId } = await server.signIn(keys.projectId);
    const { iss, aud } = tokenIssuerAndAudience(TEST_BASE_URL, keys.projectId, "default");
    expect(iss).toBe(`${TEST_BASE_URL}/api/v1/projects/${keys.projectId}`);
    expect(aud).toBe(keys.projectId);
    const { payload, protectedHeader } = await jwtVerify(token, await keySet(keys.projectId), {
      issuer: iss,
      audience: aud,
      currentDate: server.clock.now(),
    });
    expect(protectedHeader).toMatchObject({ alg: "ES256", typ: "JWT" });
    expect(payload.sub).toBe(userId);
    expect(payload.project_id).toBe(keys.projectId);
  });

  it("does not verify an anonymous token with the default JWKS, but does with include_anonymous", async () => {
    const token = await server.mintAccessToken(keys.projectId, { audience: "anonymous" });
    const { iss, aud } = tokenIssuerAndAudience(TEST_BASE_URL, keys.projectId, "anonymous");
    expect(aud).toBe(`${keys.projectId}:anon`);
    const options = { issuer: iss, audience: aud, currentDate: server.clock.now() };
    await expect(jwtVerify(token, await keySet(keys.projectId), options)).rejects.toMatchObject({
      code: "ERR_JWKS_NO_MATCHING_KEY",
    });
    await expect(
      jwtVerify(token, await keySet(keys.projectId, "?include_restricted=true"), options),
    ).rejects.toMatchObject({ code: "ERR_JWKS_NO_MATCHING_KEY" });
    const { payload } = await jwtVerify(
      token,
      await keySet(keys.projectId, "?include_anonymous=true"),
      options,
    );
    expect(payload.aud).toBe(`${keys.projectId}:anon`);
    expect(payload.is_anonymous).toBe(true);
  });

  it("verifies a restricted token only with the restricted keys", async () => {
    const token = await server.mintAccessToken(keys.projectId, { audience: "restricted" });
    const { iss, aud } = tokenIssuerAndAudience(TEST_BASE_URL, keys.projectId, "restricted");
    const options = { issuer: iss, audience: aud, currentDate: server.clock.now() };
    await expect(jwtVerify(token, await keySet(keys.projectId), options)).rejects.toMatchObject({
      code: "ERR_JWKS_NO_MATCHING_KEY",
    });
    const { payload } = await jwtVerify(
      token,
      await keySet(keys.projectId, "?include_restricted=true"),
      options,
    );
    expect(payload.aud).toBe(`${keys.projectId}:restricted`);
  });

  it("does not verify a token of one project with another project's JWKS", async () => {
    const token = await server.mintAccessToken(keys.projectId);
    const { iss, aud } = tokenIssuerAndAudience(TEST_BASE_URL, keys.projectId, "default");
    await expect(
      jwtVerify(token, await keySet(plain.projectId, "?include_anonymous=true"), {
        issuer: iss,
        audience: aud,
        currentDate: server.clock.now(),
      }),
    ).rejects.toMatchObject({ code: "ERR_JWKS_NO_MATCHING_KEY" });
  });
});

describe("JWKS redirects", () => {
  async function expectRedirect(path: string, location: string) {
    const res = await server.request(path);
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe(location);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  }

  it("sends anonymous-users JWKS requests to include_anonymous=true", async () => {
    await expectRedirect(
      `/api/v1/projects-anonymous-users/${keys.projectId}/.well-known/jwks.json`,
      `/api/v1/projects/${keys.projectId}/.well-known/jwks.json?include_anonymous=true`,
    );
  });

  it("sends restricted-users JWKS requests to include_restricted=true", async () => {
    await expectRedirect(
      `/api/v1/projects-restricted-users/${keys.projectId}/.well-known/jwks.json`,
      `/api/v1/projects/${keys.projectId}/.well-known/jwks.json?include_restricted=true`,
    );
  });

  it("lands on a JWKS with the audience's keys", async () => {
    const res = await server.request(
      `/api/v1/projects-anonymous-users/${keys.projectId}/.well-known/jwks.json`,
    );
    const target = res.headers.get("location");
    expect(target).not.toBeNull();
    expect((await fetchJwks(keys.projectId, target!.slice(target!.indexOf("?")))).keys).toHaveLength(3);
  });
});
