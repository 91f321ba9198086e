// SCIM Groups mapped to team permissions, a deprovisioned user's SSO sign-in refused, and generated SCIM requests that
// must never answer a 5xx nor an error outside RFC 7644's shape (over real HTTP, scim-suite.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inTransaction } from "../../db/client.ts";
import { expectJson } from "../../testing/expect-error.ts";
import { expectScimError, type Json, newUser, scimJson, scimSuite } from "./scim-suite.ts";

const { s, request, scim } = scimSuite();

describe("SCIM Groups", () => {
  it("map to team permissions: joining grants, leaving (Entra's remove shape) and deleting revoke", async () => {
    const user = await scimJson(
      await scim(s.tokenA, "/Users", { method: "POST", body: newUser("fin@corp-a.example") }),
      201,
    );
    const userId = user.id as string;
    const permissions = async () =>
      (
        await expectJson<{ items: { id: string }[] }>(
          await request(`/api/v1/team-permissions?team_id=${s.teamA}&user_id=${userId}`),
        )
      ).items.map((p) => p.id);
    expect(await permissions()).not.toContain("billing");

    const group = await scimJson(
      await scim(s.tokenA, "/Groups", {
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
        s.tokenA,
        `/Groups?filter=${encodeURIComponent('displayName eq "finance"')}&excludedAttributes=members`,
      ),
    );
    expect(filtered.totalResults).toBe(1);
    expect((filtered.Resources as Json[])[0]?.members).toBeUndefined();
    const userView = await scimJson(await scim(s.tokenA, `/Users/${userId}`));
    expect(userView.groups).toEqual([expect.objectContaining({ value: group.id, display: "Finance" })]);

    await scimJson(
      await scim(s.tokenA, `/Groups/${group.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "Remove", path: "members", value: [{ value: userId }] }] },
      }),
    );
    expect(await permissions()).not.toContain("billing");
    await scimJson(
      await scim(s.tokenA, `/Groups/${group.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "add", path: "members", value: [{ value: userId }] }] },
      }),
    );
    expect(await permissions()).toContain("billing");
    await scimJson(
      await scim(s.tokenA, `/Groups/${group.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "remove", path: `members[value eq "${userId}"]` }] },
      }),
    );
    expect(await permissions()).not.toContain("billing");
    await scimJson(
      await scim(s.tokenA, `/Groups/${group.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "replace", path: "members", value: [{ value: userId }] }] },
      }),
    );
    expect(await permissions()).toContain("billing");
    expect((await scim(s.tokenA, `/Groups/${group.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await permissions()).not.toContain("billing");
  });

  it("refuses members that are not the team's SCIM users, and a duplicate name", async () => {
    const other = await scimJson(
      await scim(s.tokenB, "/Users", { method: "POST", body: newUser("eve@corp-b.example") }),
      201,
    );
    await expectScimError(
      await scim(s.tokenA, "/Groups", {
        method: "POST",
        body: { displayName: "Spies", members: [{ value: other.id }] },
      }),
      400,
      "invalidValue",
    );
    await scimJson(await scim(s.tokenA, "/Groups", { method: "POST", body: { displayName: "Ops" } }), 201);
    await expectScimError(
      await scim(s.tokenA, "/Groups", { method: "POST", body: { displayName: "ops" } }),
      409,
      "uniqueness",
    );
  });
});

describe("SSO sign-in of a deprovisioned user", () => {
  it("is refused with SCIM_USER_DEACTIVATED while SCIM says inactive, and allowed again once reactivated", async () => {
    const user = await scimJson(
      await scim(s.tokenA, "/Users", { method: "POST", body: newUser("sso@corp-a.example") }),
      201,
    );
    const project = await s.server.deps.projects.find(s.keys.projectId);
    const [connection] = await s.server.deps.sso.repo.listConnections(
      s.server.deps.db,
      s.keys.projectId,
      s.teamA,
    );
    if (!project || !connection) throw new Error("setup");
    // The identity provider's identity already linked to the SCIM user (signed in before).
    await s.server.deps.sso.repo.insertIdentity(s.server.deps.db, {
      connectionId: connection.id,
      subject: "sub-sso",
      projectId: project.id,
      userId: user.id as string,
      email: "sso@corp-a.example",
    });
    const signIn = () =>
      inTransaction(s.server.deps.db, (tx) =>
        s.server.deps.sso.provisioning.signIn(tx, project, connection, {
          subject: "sub-sso",
          attributes: {},
        }),
      );
    await scimJson(
      await scim(s.tokenA, `/Users/${user.id}`, {
        method: "PATCH",
        body: { Operations: [{ op: "replace", value: { active: false } }] },
      }),
    );
    await expect(signIn()).rejects.toMatchObject({ code: "SCIM_USER_DEACTIVATED" });
    await scimJson(
      await scim(s.tokenA, `/Users/${user.id}`, {
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
      await scim(s.tokenA, "/Users", { method: "POST", body: newUser("fuzz@corp-a.example") }),
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
        const res = await scim(s.tokenA, req.path, {
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
