// The SCIM suites' shared setup: a test server listening on loopback (so requests go over real HTTP, as an identity
// provider's client sends them), a project with two teams (A with an SSO group mapping Finance → billing), a SCIM
// token for each, and the helpers that call SCIM and check its answers.
import { type ServerType, serve } from "@hono/node-server";
import { afterAll, beforeAll, expect } from "vitest";
import { expectJson } from "../../testing/expect-error.ts";
import {
  apiRequest,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueIp,
} from "../../testing/test-server.ts";

export type Json = Record<string, unknown>;
type Suite = {
  server: TestServer;
  keys: ProjectKeys;
  origin: string;
  teamA: string;
  teamB: string;
  tokenA: string;
  tokenB: string;
};

/** Registers the suite's hooks; the answer's fields are set once beforeAll has run. */
export function scimSuite() {
  const s = {} as Suite;
  let http: ServerType | undefined;
  const request = apiRequest(() => ({ server: s.server, keys: s.keys }));
  const createToken = async (teamId: string) =>
    expectJson<{ id: string; token: string; scim_base_url: string }>(
      await request(`/api/v1/teams/${teamId}/scim-tokens`, { method: "POST", body: { description: "Okta" } }),
      201,
    );
  const scim = (token: string, path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${s.origin}/api/v1/scim/v2${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${token}`,
        "x-forwarded-for": uniqueIp(),
        ...(init.body === undefined ? {} : { "content-type": "application/scim+json" }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  beforeAll(async () => {
    s.server = await createTestServer();
    ({ keys: s.keys } = await s.server.createProject(
      { displayName: "SCIM" },
      { expiresAt: new Date(s.server.clock.now().getTime() + 365 * DAY) },
    ));
    const team = async (name: string) =>
      (
        await expectJson<{ id: string }>(
          await request("/api/v1/teams", { method: "POST", body: { display_name: name } }),
          201,
        )
      ).id;
    s.teamA = await team("Corp A");
    s.teamB = await team("Corp B");
    await expectJson(
      await request("/api/v1/team-permission-definitions", {
        method: "POST",
        type: "admin",
        body: { id: "billing", description: "Billing" },
      }),
      201,
    );
    // Groups map to permissions through the team's SSO attribute mapping, as at SSO sign-in.
    await expectJson(
      await request(`/api/v1/teams/${s.teamA}/sso-connections`, {
        method: "POST",
        body: {
          protocol: "oidc",
          display_name: "Corp A",
          oidc: { issuer_url: "https://idp.corp-a.example", client_id: "c", client_secret: "s" },
          attribute_mapping: { group_permissions: { Finance: ["billing"] } },
        },
      }),
      201,
    );
    const listening = serve({ fetch: s.server.app.fetch, port: 0, hostname: "127.0.0.1" });
    http = listening;
    await new Promise((resolve) => listening.once("listening", resolve));
    const address = listening.address();
    s.origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    s.tokenA = (await createToken(s.teamA)).token;
    s.tokenB = (await createToken(s.teamB)).token;
  });
  afterAll(async () => {
    await new Promise((resolve) => (http ? http.close(resolve) : resolve(undefined)));
    await s.server?.deps.emailWorker.stop();
    await s.server?.close();
  });
  return { s, request, scim, createToken };
}

const DAY = 24 * 60 * 60 * 1000;

export async function scimJson(res: Response, status = 200): Promise<Json> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/scim\+json/);
  return (await res.json()) as Json;
}

export async function expectScimError(res: Response, status: number, scimType?: string) {
  const body = await scimJson(res, status);
  expect(body.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:Error"]);
  expect(body.status).toBe(String(status));
  expect(body.scimType).toBe(scimType);
  expect(typeof body.detail).toBe("string");
}

export const newUser = (userName: string, extra: Json = {}) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
  userName,
  name: { givenName: "Ada", familyName: "Lovelace" },
  emails: [{ value: userName, type: "work", primary: true }],
  active: true,
  ...extra,
});
