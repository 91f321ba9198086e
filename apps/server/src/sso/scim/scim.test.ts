// SCIM 2.0 over real HTTP (the app listening on loopback, requests made with fetch as an identity provider's client
// makes them): tokens shown once and revocable, Users created, filtered, paged, patched in Okta's and Entra ID's
// shapes, deactivated (the user's refresh token stops working at once), Groups mapped to team permissions, and the
// RFC 7644 error shapes. One team's token never reaches another team's resources.
import { type ServerType, serve } from "@hono/node-server";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../db/client.ts";
import { expectJson, expectKnownError } from "../../testing/expect-error.ts";
import {
  accessHeaders,
  apiRequest,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueIp,
} from "../../testing/test-server.ts";

const DAY = 24 * 60 * 60 * 1000;
let server: TestServer;
let keys: ProjectKeys;
let http: ServerType;
let origin: string;
let teamA: string;
let teamB: string;
let tokenA: string;
let tokenB: string;

const request = apiRequest(() => ({ server, keys }));
type Json = Record<string, unknown>;

const scim = (token: string, path: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${origin}/api/v1/scim/v2${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${token}`,
      "x-forwarded-for": uniqueIp(),
      ...(init.body === undefined ? {} : { "content-type": "application/scim+json" }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

async function scimJson(res: Response, status = 200): Promise<Json> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/scim\+json/);
  return (await res.json()) as Json;
}

async function expectScimError(res: Response, status: number, scimType?: string) {
  const body = await scimJson(res, status);
  expect(body.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:Error"]);
  expect(body.status).toBe(String(status));
  expect(body.scimType).toBe(scimType);
  expect(typeof body.detail).toBe("string");
}

const newUser = (userName: string, extra: Json = {}) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
  userName,
  name: { givenName: "Ada", familyName: "Lovelace" },
  emails: [{ value: userName, type: "work", primary: true }],
  active: true,
  ...extra,
});

const createToken = async (teamId: string) =>
  expectJson<{ id: string; token: string; scim_base_url: string }>(
    await request(`/api/v1/teams/${teamId}/scim-tokens`, { method: "POST", body: { description: "Okta" } }),
    201,
  );

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject(
    { displayName: "SCIM" },
    { expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) },
  ));
  const team = async (name: string) =>
    (
      await expectJson<{ id: string }>(
        await request("/api/v1/teams", { method: "POST", body: { display_name: name } }),
        201,
      )
    ).id;
  teamA = await team("Corp A");
  teamB = await team("Corp B");
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
    await request(`/api/v1/teams/${teamA}/sso-connections`, {
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
  http = serve({ fetch: server.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => http.once("listening", resolve));
  const address = http.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  tokenA = (await createToken(teamA)).token;
  tokenB = (await createToken(teamB)).token;
});
afterAll(async () => {
  await new Promise((resolve) => http?.close(resolve));
  await server?.deps.emailWorker.stop();
  await server?.close();
});

describe("SCIM tokens", () => {
  it("are shown once, listed without the token, and refused once revoked", async () => {
    const created = await createToken(teamA);
    expect(created.token).toMatch(/^gh_scim_[0-9a-z]{48}$/);
    expect(created.scim_base_url).toMatch(/\/api\/v1\/scim\/v2$/);
    const list = await expectJson<{ items: Json[] }>(await request(`/api/v1/teams/${teamA}/scim-tokens`));
    const listed = list.items.find((item) => item.id === created.id);
    expect(listed).toBeDefined();
    expect(JSON.stringify(list)).not.toContain(created.token);
    expect((await scim(created.token, "/Users")).status).toBe(200);
    await expectJson(await request(`/api/v1/teams/${teamA}/scim-tokens/${created.id}`, { method: "DELETE" }));
    await expectScimError(await scim(created.token, "/Users"), 401);
    await expectKnownError(
      await request(`/api/v1/teams/${teamA}/scim-tokens/${created.id}`, { method: "DELETE" }),
      "SCIM_TOKEN_NOT_FOUND",
    );
  });

  it("stores only the SHA-256 hash", async () => {
    const created = await createToken(teamB);
    const [row] = await server.deps.sso.scim.repo.listTokens(server.deps.db, keys.projectId, teamB);
    expect(JSON.stringify(row)).not.toContain(created.token);
  });

  it("refuse a missing, malformed or unknown bearer token, and a client without $manage_sso", async () => {
    const res = await fetch(`${origin}/api/v1/scim/v2/Users`);
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
    await expectScimError(res, 401);
    await expectScimError(await scim("nope", "/Users"), 401);
    await expectScimError(await scim(`gh_scim_${"0".repeat(48)}`, "/Users"), 401);
    const member = await server.signIn(keys.projectId);
    const res2 = await server.request(`/api/v1/teams/${teamA}/scim-tokens`, {
      headers: { ...accessHeaders("client", keys), "x-stack-access-token": member.accessToken },
    });
    expect(res2.status).toBe(404);
    expect(res2.headers.get("x-stack-known-error")).toBe("TEAM_MEMBERSHIP_NOT_FOUND");
  });
});

describe("SCIM Users", () => {
  it("create, filter, page, patch (Okta and Entra shapes), deactivate ending sessions, and delete", async () => {
    const created = await scimJson(
      await scim(tokenA, "/Users", {
        method: "POST",
        body: newUser("ada@corp-a.example", { externalId: "00u1" }),
      }),
      201,
    );
    const id = created.id as string;
    expect(created).toMatchObject({ userName: "ada@corp-a.example", active: true, externalId: "00u1" });
    expect((created.meta as Json).location).toBe(`${server.deps.sso.scim.baseUrl}/Users/${id}`);
    const members = await expectJson<{ items: { id: string }[] }>(
      await request(`/api/v1/users?team_id=${teamA}`),
    );
    expect(members.items.map((u) => u.id)).toContain(id);

    await scimJson(
      await scim(tokenA, "/Users", { method: "POST", body: newUser("bob@corp-a.example") }),
      201,
    );
    await scimJson(await scim(tokenA, "/Users", { method: "POST", body: newUser("cy@corp-a.example") }), 201);

    const byName = await scimJson(
      await scim(tokenA, `/Users?filter=${encodeURIComponent('userName eq "ADA@corp-a.example"')}`),
    );
    expect(byName.totalResults).toBe(1);
    expect(((byName.Resources as Json[])[0] as Json).id).toBe(id);
    const byExternal = await scimJson(
      await scim(tokenA, `/Users?filter=${encodeURIComponent('externalId eq "00u1"')}`),
    );
    expect(byExternal.totalResults).toBe(1);
    const either = await scimJson(
      await scim(
        tokenA,
        `/Users?filter=${encodeURIComponent('userName eq "bob@corp-a.example" or (userName sw "cy" and active eq true)')}`,
      ),
    );
    expect(either.totalResults).toBe(2);
    const page = await scimJson(await scim(tokenA, "/Users?startIndex=2&count=1"));
    expect(page).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    // Another team's token sees none of them.
    expect((await scimJson(await scim(tokenB, "/Users"))).totalResults).toBe(0);
    await expectScimError(await scim(tokenB, `/Users/${id}`), 404);

    // Okta: replace with a value object and no path.
    const okta = await scimJson(
      await scim(tokenA, `/Users/${id}`, {
        method: "PATCH",
        body: {
          schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
          Operations: [{ op: "replace", value: { name: { givenName: "Augusta", familyName: "King" } } }],
        },
      }),
    );
    expect(okta.name).toEqual({ givenName: "Augusta", familyName: "King" });
    // Entra ID: capitalised ops, a value path, and "False" as a string.
    const session = await expectJson<{ refresh_token: string }>(
      await request("/api/v1/auth/sessions", { method: "POST", body: { user_id: id } }),
      200,
    );
    const refresh = () =>
      server.request("/api/v1/auth/sessions/current/refresh", {
        method: "POST",
        headers: { ...accessHeaders("client", keys), "x-stack-refresh-token": session.refresh_token },
      });
    expect((await refresh()).status).toBe(200);
    const entra = await scimJson(
      await scim(tokenA, `/Users/${id}`, {
        method: "PATCH",
        body: {
          schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
          Operations: [
            { op: "Replace", path: 'emails[type eq "work"].value', value: "augusta@corp-a.example" },
            { op: "Replace", path: "active", value: "False" },
          ],
        },
      }),
    );
    expect(entra.active).toBe(false);
    expect((entra.emails as Json[])[0]?.value).toBe("augusta@corp-a.example");
    await expectKnownError(await refresh(), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    const after = await expectJson<{ items: { id: string }[] }>(
      await request(`/api/v1/users?team_id=${teamA}`),
    );
    expect(after.items.map((u) => u.id)).not.toContain(id);

    // Reactivation (PUT) makes them a member again; DELETE deprovisions and forgets the SCIM user.
    await scimJson(
      await scim(tokenA, `/Users/${id}`, { method: "PUT", body: newUser("ada@corp-a.example") }),
    );
    const back = await expectJson<{ items: { id: string }[] }>(
      await request(`/api/v1/users?team_id=${teamA}`),
    );
    expect(back.items.map((u) => u.id)).toContain(id);
    expect((await scim(tokenA, `/Users/${id}`, { method: "DELETE" })).status).toBe(204);
    await expectScimError(await scim(tokenA, `/Users/${id}`), 404);
    const gone = await expectJson<{ items: { id: string }[] }>(
      await request(`/api/v1/users?team_id=${teamA}`),
    );
    expect(gone.items.map((u) => u.id)).not.toContain(id);
  });

  it("answers RFC 7644 errors: uniqueness, invalid filter, invalid value, invalid path, not found", async () => {
    await scimJson(
      await scim(tokenA, "/Users", { method: "POST", body: newUser("dup@corp-a.example") }),
      201,
    );
    await expectScimError(
      await scim(tokenA, "/Users", { method: "POST", body: newUser("DUP@corp-a.example") }),
      409,
      "uniqueness",
    );
    await expectScimError(
      await scim(tokenA, `/Users?filter=${encodeURIComponent("userName zz 1")}`),
      400,
      "invalidFilter",
    );
    await expectScimError(
      await scim(tokenA, `/Users?filter=${encodeURIComponent('userName eq "x')}`),
      400,
      "invalidFilter",
    );
    await expectScimError(
      await scim(tokenA, "/Users", { method: "POST", body: { userName: 5 } }),
      400,
      "invalidValue",
    );
    await expectScimError(await scim(tokenA, "/Users", { method: "POST", body: [] }), 400, "invalidValue");
    const [dup] = (
      await scimJson(
        await scim(tokenA, `/Users?filter=${encodeURIComponent('userName eq "dup@corp-a.example"')}`),
      )
    ).Resources as Json[];
    await expectScimError(
      await scim(tokenA, `/Users/${dup?.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "replace", path: "a..b[", value: 1 }] },
      }),
      400,
      "invalidPath",
    );
    await expectScimError(await scim(tokenA, "/Users/not-an-id"), 404);
    await expectScimError(await scim(tokenA, "/Nothing"), 404);
    const bad = await fetch(`${origin}/api/v1/scim/v2/Users`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokenA}`, "content-type": "application/scim+json" },
      body: "{",
    });
    await expectScimError(bad, 400, "invalidSyntax");
  });

  it("discovery documents", async () => {
    const config = await scimJson(await scim(tokenA, "/ServiceProviderConfig"));
    expect(config).toMatchObject({ patch: { supported: true }, filter: { supported: true } });
    const types = await scimJson(await scim(tokenA, "/ResourceTypes"));
    expect((types.Resources as Json[]).map((r) => r.id)).toEqual(["User", "Group"]);
    const schemas = await scimJson(await scim(tokenA, "/Schemas"));
    expect(schemas.totalResults).toBe(2);
    await scimJson(await scim(tokenA, "/Schemas/urn:ietf:params:scim:schemas:core:2.0:User"));
  });
});

describe("SCIM Groups", () => {
  it("map to team permissions: joining grants, leaving (Entra's remove shape) and deleting revoke", async () => {
    const user = await scimJson(
      await scim(tokenA, "/Users", { method: "POST", body: newUser("fin@corp-a.example") }),
      201,
    );
    const userId = user.id as string;
    const permissions = async () =>
      (
        await expectJson<{ items: { id: string }[] }>(
          await request(`/api/v1/team-permissions?team_id=${teamA}&user_id=${userId}`),
        )
      ).items.map((p) => p.id);
    expect(await permissions()).not.toContain("billing");

    const group = await scimJson(
      await scim(tokenA, "/Groups", {
        method: "POST",
        body: { displayName: "Finance", members: [{ value: userId }] },
      }),
      201,
    );
    expect(group.members).toEqual([
      expect.objectContaining({ value: userId, display: "fin@corp-a.example" }),
    ]);
    expect(await permissions()).toContain("billing");
    const filtered = await scimJson(
      await scim(
        tokenA,
        `/Groups?filter=${encodeURIComponent('displayName eq "finance"')}&excludedAttributes=members`,
      ),
    );
    expect(filtered.totalResults).toBe(1);
    expect((filtered.Resources as Json[])[0]?.members).toBeUndefined();
    const userView = await scimJson(await scim(tokenA, `/Users/${userId}`));
    expect(userView.groups).toEqual([expect.objectContaining({ value: group.id, display: "Finance" })]);

    await scimJson(
      await scim(tokenA, `/Groups/${group.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "Remove", path: "members", value: [{ value: userId }] }] },
      }),
    );
    expect(await permissions()).not.toContain("billing");
    await scimJson(
      await scim(tokenA, `/Groups/${group.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "add", path: "members", value: [{ value: userId }] }] },
      }),
    );
    expect(await permissions()).toContain("billing");
    await scimJson(
      await scim(tokenA, `/Groups/${group.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "remove", path: `members[value eq "${userId}"]` }] },
      }),
    );
    expect(await permissions()).not.toContain("billing");
    await scimJson(
      await scim(tokenA, `/Groups/${group.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "replace", path: "members", value: [{ value: userId }] }] },
      }),
    );
    expect(await permissions()).toContain("billing");
    expect((await scim(tokenA, `/Groups/${group.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await permissions()).not.toContain("billing");
  });

  it("refuses members that are not the team's SCIM users, and a duplicate name", async () => {
    const other = await scimJson(
      await scim(tokenB, "/Users", { method: "POST", body: newUser("eve@corp-b.example") }),
      201,
    );
    await expectScimError(
      await scim(tokenA, "/Groups", {
        method: "POST",
        body: { displayName: "Spies", members: [{ value: other.id }] },
      }),
      400,
      "invalidValue",
    );
    await scimJson(await scim(tokenA, "/Groups", { method: "POST", body: { displayName: "Ops" } }), 201);
    await expectScimError(
      await scim(tokenA, "/Groups", { method: "POST", body: { displayName: "ops" } }),
      409,
      "uniqueness",
    );
  });
});

describe("SSO sign-in of a deprovisioned user", () => {
  it("is refused with SCIM_USER_DEACTIVATED while SCIM says inactive, and allowed again once reactivated", async () => {
    const user = await scimJson(
      await scim(tokenA, "/Users", { method: "POST", body: newUser("sso@corp-a.example") }),
      201,
    );
    const project = await server.deps.projects.find(keys.projectId);
    const [connection] = await server.deps.sso.repo.listConnections(server.deps.db, keys.projectId, teamA);
    if (!project || !connection) throw new Error("setup");
    // The identity provider's identity already linked to the SCIM user (signed in before).
    await server.deps.sso.repo.insertIdentity(server.deps.db, {
      connectionId: connection.id,
      subject: "sub-sso",
      projectId: project.id,
      userId: user.id as string,
      email: "sso@corp-a.example",
    });
    const signIn = () =>
      inTransaction(server.deps.db, (tx) =>
        server.deps.sso.provisioning.signIn(tx, project, connection, { subject: "sub-sso", attributes: {} }),
      );
    await scimJson(
      await scim(tokenA, `/Users/${user.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "replace", value: { active: false } }] },
      }),
    );
    await expect(signIn()).rejects.toMatchObject({ code: "SCIM_USER_DEACTIVATED" });
    await scimJson(
      await scim(tokenA, `/Users/${user.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "replace", path: "active", value: true }] },
      }),
    );
    await expect(signIn()).resolves.toMatchObject({ userId: user.id });
  });
});

describe("generated SCIM requests", () => {
  it("never answer a 5xx, and every error has RFC 7644's shape", async () => {
    const target = await scimJson(
      await scim(tokenA, "/Users", { method: "POST", body: newUser("fuzz@corp-a.example") }),
      201,
    );
    const filterText = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc
        .tuple(
          fc.constantFrom("userName", "externalId", "emails.value", "name.givenName", "active", "x[y eq 1]"),
          fc.constantFrom("eq", "ne", "co", "sw", "pr", "gt", "zz", "and", ""),
          fc.constantFrom('"a"', "1", "true", "null", '"', "(", ""),
          fc.constantFrom("", " and ", " or ", " not (", ")"),
        )
        .map((parts) => parts.join(" ")),
    );
    const operation = fc.record(
      {
        op: fc.oneof(fc.constantFrom("add", "Replace", "remove", "move"), fc.anything()),
        path: fc.oneof(
          fc.constantFrom("active", "members", 'emails[type eq "work"].value', "name.givenName", "a[", ""),
          fc.anything(),
        ),
        value: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const requests = fc.oneof(
      filterText.map((filter) => ({ method: "GET", path: `/Users?filter=${encodeURIComponent(filter)}` })),
      fc.anything().map((body) => ({ method: "POST", path: "/Users", body })),
      fc.anything().map((body) => ({ method: "POST", path: "/Groups", body })),
      fc.anything().map((body) => ({ method: "PUT", path: `/Users/${target.id}`, body })),
      fc
        .array(operation, { maxLength: 3 })
        .map((Operations) => ({ method: "PATCH", path: `/Users/${target.id}`, body: { Operations } })),
      fc
        .tuple(fc.constantFrom("-1", "0", "x", "99999999999", ""), fc.constantFrom("-5", "0", "1000", "a"))
        .map(([start, count]) => ({ method: "GET", path: `/Groups?startIndex=${start}&count=${count}` })),
    );
    await fc.assert(
      fc.asyncProperty(requests, async (req) => {
        const res = await scim(tokenA, req.path, {
          method: req.method,
          body: "body" in req ? req.body : undefined,
        });
        expect(res.status, `${req.method} ${req.path}`).toBeLessThan(500);
        if (res.status >= 400) {
          const body = (await res.json()) as Json;
          expect(body.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:Error"]);
        } else {
          await res.body?.cancel();
        }
      }),
      { numRuns: 150, seed: 19_2026 },
    );
  });
});
