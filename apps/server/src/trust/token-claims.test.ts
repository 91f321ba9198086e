// Custom access-token claims (issue 21 item 4): a template saved on the project shows in tokens issued after it
// (a refresh included), verified with jose against the project's JWKS; templates are validated on save, never shadow
// the standard claims, and claims above the size limit are left out with a marker.
import { createLocalJWKSet, type JSONWebKeySet, type JWTPayload, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenIssuerAndAudience } from "../services/sessions.ts";
import {
  apiRequest,
  createTestServer,
  type ProjectKeys,
  TEST_BASE_URL,
  type TestServer,
  uniqueEmail,
} from "../testing/test-server.ts";

let server: TestServer;
let keys: ProjectKeys;
const request = apiRequest(() => ({ server, keys }));

beforeAll(async () => {
  server = await createTestServer();
  keys = (await server.createProject({ displayName: "Claims" })).keys;
});
afterAll(() => server.close());

const configure = (access_token_claims: unknown) =>
  request("/api/v1/projects/current", {
    method: "PATCH",
    type: "admin",
    body: { config: { access_token_claims } },
  });

/** What a back end does: verify the token against the JWKS alone, then read the claims. */
async function verified(token: string): Promise<JWTPayload> {
  const jwksRes = await server.request(`/api/v1/projects/${keys.projectId}/.well-known/jwks.json`);
  const jwks = createLocalJWKSet((await jwksRes.json()) as JSONWebKeySet);
  const { iss, aud } = tokenIssuerAndAudience(TEST_BASE_URL, keys.projectId, "default");
  const { payload } = await jwtVerify(token, jwks, {
    issuer: iss,
    audience: aud,
    currentDate: server.clock.now(),
  });
  return payload;
}

async function refreshed(refreshToken: string): Promise<string> {
  const ok = await server.request("/api/v1/auth/sessions/current/refresh", {
    method: "POST",
    headers: {
      "x-stack-access-type": "client",
      "x-stack-project-id": keys.projectId,
      "x-stack-publishable-client-key": keys.pck,
      "x-stack-refresh-token": refreshToken,
    },
  });
  expect(ok.status).toBe(200);
  return ((await ok.json()) as { access_token: string }).access_token;
}

describe("custom access-token claims", () => {
  it("adds metadata, team roles and project permissions to tokens issued after the template is saved", async () => {
    const definition = await request("/api/v1/project-permission-definitions", {
      method: "POST",
      type: "admin",
      body: { id: "reports:read" },
    });
    expect(definition.status).toBe(201);
    const signedIn = await server.signIn(keys.projectId, { email: uniqueEmail("claims") });
    const userId = signedIn.userId;
    expect(
      (
        await request(`/api/v1/users/${userId}`, {
          method: "PATCH",
          body: { server_metadata: { plan: "gold", internal: "x" }, client_metadata: { theme: "dark" } },
        })
      ).status,
    ).toBe(200);
    const team = await request("/api/v1/teams", {
      method: "POST",
      body: { display_name: "Ops", creator_user_id: userId },
    });
    expect(team.status).toBe(201);
    const teamId = ((await team.json()) as { id: string }).id;
    expect(
      (await request(`/api/v1/project-permissions/${userId}/reports:read`, { method: "POST", body: {} }))
        .status,
    ).toBe(201);

    const before = await verified(await refreshed(signedIn.refreshToken));
    expect(before).not.toHaveProperty("teams");
    expect(before).not.toHaveProperty("plan");

    const saved = await configure({
      metadata: [
        { claim: "plan", source: "server_metadata", key: "plan" },
        { claim: "ui_theme", source: "client_metadata", key: "theme" },
        { claim: "absent", source: "client_read_only_metadata", key: "nothing" },
      ],
      teams: "permissions",
      project_permissions: true,
    });
    expect(saved.status).toBe(200);

    const after = await verified(await refreshed(signedIn.refreshToken));
    expect(after.plan).toBe("gold");
    expect(after.ui_theme).toBe("dark");
    expect(after).not.toHaveProperty("absent");
    expect(after).not.toHaveProperty("internal");
    expect(after.permissions).toEqual(["reports:read"]);
    // The team creator's default role, with what it contains: a back end checks roles from the token alone.
    const teams = after.teams as { id: string; permissions: string[] }[];
    expect(teams.map((t) => t.id)).toEqual([teamId]);
    expect(teams[0]?.permissions).toContain("team_admin");
    expect(teams[0]?.permissions).toContain("$update_team");
    // The standard claims are unchanged.
    expect(after.sub).toBe(userId);

    expect((await configure({ metadata: [], teams: "ids", project_permissions: false })).status).toBe(200);
    const idsOnly = await verified(await refreshed(signedIn.refreshToken));
    expect(idsOnly.teams).toEqual([{ id: teamId }]);
    expect(idsOnly).not.toHaveProperty("permissions");
    expect(idsOnly).not.toHaveProperty("plan");
  });

  it("leaves the claims out, with a marker, when they would pass the size limit", async () => {
    const signedIn = await server.signIn(keys.projectId, { email: uniqueEmail("big") });
    await request(`/api/v1/users/${signedIn.userId}`, {
      method: "PATCH",
      body: { server_metadata: { blob: "x".repeat(5000) } },
    });
    expect(
      (await configure({ metadata: [{ claim: "blob", source: "server_metadata", key: "blob" }] })).status,
    ).toBe(200);
    const payload = await verified(await refreshed(signedIn.refreshToken));
    expect(payload.custom_claims_omitted).toBe(true);
    expect(payload).not.toHaveProperty("blob");
  });

  it("refuses templates that shadow standard claims, repeat a claim or are too large", async () => {
    for (const template of [
      { metadata: [{ claim: "sub", source: "server_metadata", key: "a" }] },
      { metadata: [{ claim: "teams", source: "server_metadata", key: "a" }] },
      { metadata: [{ claim: "Bad-Name", source: "server_metadata", key: "a" }] },
      { metadata: [{ claim: "role_x", source: "private_stuff", key: "a" }] },
      {
        metadata: [
          { claim: "twice", source: "server_metadata", key: "a" },
          { claim: "twice", source: "client_metadata", key: "b" },
        ],
      },
      {
        metadata: Array.from({ length: 21 }, (_, i) => ({
          claim: `c${i}`,
          source: "server_metadata",
          key: "k",
        })),
      },
      { teams: "everything" },
    ]) {
      const res = await configure(template);
      expect(res.status, JSON.stringify(template)).toBe(400);
      expect(res.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
    }
  });
});
