// SCIM 2.0 over real HTTP (the app listening on loopback, requests made with fetch as an identity provider's client
// makes them): tokens shown once and revocable, Users created, filtered, paged, patched in Okta's and Entra ID's
// shapes, deactivated (the user's refresh token stops working at once), discovery, and the RFC 7644 error shapes.
// One team's token never reaches another team's resources. Groups and generated requests: scim-groups.test.ts.
import { describe, expect, it } from "vitest";
import { expectJson, expectKnownError } from "../../testing/expect-error.ts";
import { accessHeaders } from "../../testing/test-server.ts";
import { expectScimError, type Json, newUser, scimJson, scimSuite } from "./scim-suite.ts";

const { s, request, scim, createToken } = scimSuite();

describe("SCIM tokens", () => {
  it("are shown once, listed without the token, and refused once revoked", async () => {
    const created = await createToken(s.teamA);
    expect(created.token).toMatch(/^gh_scim_[0-9a-z]{48}$/);
    expect(created.scim_base_url).toMatch(/\/api\/v1\/scim\/v2$/);
    const list = await expectJson<{ items: Json[] }>(await request(`/api/v1/teams/${s.teamA}/scim-tokens`));
    const listed = list.items.find((item) => item.id === created.id);
    expect(listed).toBeDefined();
    expect(JSON.stringify(list)).not.toContain(created.token);
    expect((await scim(created.token, "/Users")).status).toBe(200);
    await expectJson(
      await request(`/api/v1/teams/${s.teamA}/scim-tokens/${created.id}`, { method: "DELETE" }),
    );
    await expectScimError(await scim(created.token, "/Users"), 401);
    await expectKnownError(
      await request(`/api/v1/teams/${s.teamA}/scim-tokens/${created.id}`, { method: "DELETE" }),
      "SCIM_TOKEN_NOT_FOUND",
    );
  });

  it("stores only the SHA-256 hash", async () => {
    const created = await createToken(s.teamB);
    const [row] = await s.server.deps.sso.scim.repo.listTokens(s.server.deps.db, s.keys.projectId, s.teamB);
    expect(JSON.stringify(row)).not.toContain(created.token);
  });

  it("refuse a missing, malformed or unknown bearer token, and a client without $manage_sso", async () => {
    const res = await fetch(`${s.origin}/api/v1/scim/v2/Users`);
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
    await expectScimError(res, 401);
    await expectScimError(await scim("nope", "/Users"), 401);
    await expectScimError(await scim(`gh_scim_${"0".repeat(48)}`, "/Users"), 401);
    const member = await s.server.signIn(s.keys.projectId);
    const res2 = await s.server.request(`/api/v1/teams/${s.teamA}/scim-tokens`, {
      headers: { ...accessHeaders("client", s.keys), "x-stack-access-token": member.accessToken },
    });
    expect(res2.status).toBe(404);
    expect(res2.headers.get("x-stack-known-error")).toBe("TEAM_MEMBERSHIP_NOT_FOUND");
  });
});

describe("SCIM Users", () => {
  it("create, filter, page, patch (Okta and Entra shapes), deactivate ending sessions, and delete", async () => {
    const created = await scimJson(
      await scim(s.tokenA, "/Users", {
        method: "POST",
        body: newUser("ada@corp-a.example", { externalId: "00u1" }),
      }),
      201,
    );
    const id = created.id as string;
    expect(created).toMatchObject({ userName: "ada@corp-a.example", active: true, externalId: "00u1" });
    expect((created.meta as Json).location).toBe(`${s.server.deps.sso.scim.baseUrl}/Users/${id}`);
    const members = await expectJson<{ items: { id: string }[] }>(
      await request(`/api/v1/users?team_id=${s.teamA}`),
    );
    expect(members.items.map((u) => u.id)).toContain(id);

    await scimJson(
      await scim(s.tokenA, "/Users", { method: "POST", body: newUser("bob@corp-a.example") }),
      201,
    );
    await scimJson(
      await scim(s.tokenA, "/Users", { method: "POST", body: newUser("cy@corp-a.example") }),
      201,
    );

    const byName = await scimJson(
      await scim(s.tokenA, `/Users?filter=${encodeURIComponent('userName eq "ADA@corp-a.example"')}`),
    );
    expect(byName.totalResults).toBe(1);
    expect(((byName.Resources as Json[])[0] as Json).id).toBe(id);
    const byExternal = await scimJson(
      await scim(s.tokenA, `/Users?filter=${encodeURIComponent('externalId eq "00u1"')}`),
    );
    expect(byExternal.totalResults).toBe(1);
    const either = await scimJson(
      await scim(
        s.tokenA,
        `/Users?filter=${encodeURIComponent('userName eq "bob@corp-a.example" or (userName sw "cy" and active eq true)')}`,
      ),
    );
    expect(either.totalResults).toBe(2);
    const page = await scimJson(await scim(s.tokenA, "/Users?startIndex=2&count=1"));
    expect(page).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    // Another team's token sees none of them.
    expect((await scimJson(await scim(s.tokenB, "/Users"))).totalResults).toBe(0);
    await expectScimError(await scim(s.tokenB, `/Users/${id}`), 404);

    // Okta: replace with a value object and no path.
    const okta = await scimJson(
      await scim(s.tokenA, `/Users/${id}`, {
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
      s.server.request("/api/v1/auth/sessions/current/refresh", {
        method: "POST",
        headers: { ...accessHeaders("client", s.keys), "x-stack-refresh-token": session.refresh_token },
      });
    expect((await refresh()).status).toBe(200);
    const entra = await scimJson(
      await scim(s.tokenA, `/Users/${id}`, {
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
      await request(`/api/v1/users?team_id=${s.teamA}`),
    );
    expect(after.items.map((u) => u.id)).not.toContain(id);

    // Reactivation (PUT) makes them a member again; DELETE deprovisions and forgets the SCIM user.
    await scimJson(
      await scim(s.tokenA, `/Users/${id}`, { method: "PUT", body: newUser("ada@corp-a.example") }),
    );
    const back = await expectJson<{ items: { id: string }[] }>(
      await request(`/api/v1/users?team_id=${s.teamA}`),
    );
    expect(back.items.map((u) => u.id)).toContain(id);
    expect((await scim(s.tokenA, `/Users/${id}`, { method: "DELETE" })).status).toBe(204);
    await expectScimError(await scim(s.tokenA, `/Users/${id}`), 404);
    const gone = await expectJson<{ items: { id: string }[] }>(
      await request(`/api/v1/users?team_id=${s.teamA}`),
    );
    expect(gone.items.map((u) => u.id)).not.toContain(id);
  });

  it("answers RFC 7644 errors: uniqueness, invalid filter, invalid value, invalid path, not found", async () => {
    await scimJson(
      await scim(s.tokenA, "/Users", { method: "POST", body: newUser("dup@corp-a.example") }),
      201,
    );
    await expectScimError(
      await scim(s.tokenA, "/Users", { method: "POST", body: newUser("DUP@corp-a.example") }),
      409,
      "uniqueness",
    );
    await expectScimError(
      await scim(s.tokenA, `/Users?filter=${encodeURIComponent("userName zz 1")}`),
      400,
      "invalidFilter",
    );
    await expectScimError(
      await scim(s.tokenA, `/Users?filter=${encodeURIComponent('userName eq "x')}`),
      400,
      "invalidFilter",
    );
    await expectScimError(
      await scim(s.tokenA, "/Users", { method: "POST", body: { userName: 5 } }),
      400,
      "invalidValue",
    );
    await expectScimError(await scim(s.tokenA, "/Users", { method: "POST", body: [] }), 400, "invalidValue");
    const [dup] = (
      await scimJson(
        await scim(s.tokenA, `/Users?filter=${encodeURIComponent('userName eq "dup@corp-a.example"')}`),
      )
    ).Resources as Json[];
    await expectScimError(
      await scim(s.tokenA, `/Users/${dup?.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "replace", path: "a..b[", value: 1 }] },
      }),
      400,
      "invalidPath",
    );
    await expectScimError(await scim(s.tokenA, "/Users/not-an-id"), 404);
    await expectScimError(await scim(s.tokenA, "/Nothing"), 404);
    const bad = await fetch(`${s.origin}/api/v1/scim/v2/Users`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.tokenA}`, "content-type": "application/scim+json" },
      body: "{",
    });
    await expectScimError(bad, 400, "invalidSyntax");
  });

  it("discovery documents", async () => {
    const config = await scimJson(await scim(s.tokenA, "/ServiceProviderConfig"));
    expect(config).toMatchObject({ patch: { supported: true }, filter: { supported: true } });
    const types = await scimJson(await scim(s.tokenA, "/ResourceTypes"));
    expect((types.Resources as Json[]).map((r) => r.id)).toEqual(["User", "Group"]);
    const schemas = await scimJson(await scim(s.tokenA, "/Schemas"));
    expect(schemas.totalResults).toBe(2);
    await scimJson(await scim(s.tokenA, "/Schemas/urn:ietf:params:scim:schemas:core:2.0:User"));
  });
});
