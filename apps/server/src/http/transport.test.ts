// The transport of WIRE.md §1: caller resolution errors in order, headers, CORS, masking, bodies, validation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";

const CURRENT = "/api/v1/projects/current";
let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  keys = (await server.createProject({ displayName: "Transport" })).keys;
});
afterAll(() => server.close());

const get = (headers: Record<string, string>, path = CURRENT) => server.request(path, { headers });

describe("caller resolution (§1.3)", () => {
  it("accepts each access type with its key, in both header spellings", async () => {
    for (const prefix of ["x-stack-", "x-hexclave-"] as const) {
      for (const type of ["client", "server", "admin"] as const) {
        const res = await get(accessHeaders(type, keys, prefix));
        expect(res.status, `${prefix}${type}`).toBe(200);
        expect(((await res.json()) as { id: string }).id).toBe(keys.projectId);
      }
    }
  });

  it("rejects a key without an access type", async () => {
    await expectKnownError(
      await get({ "x-stack-publishable-client-key": keys.pck }),
      "PROJECT_KEY_WITHOUT_ACCESS_TYPE",
    );
    await expectKnownError(
      await get({ "x-hexclave-admin-access-token": "x" }),
      "PROJECT_KEY_WITHOUT_ACCESS_TYPE",
    );
  });

  it("asks for an access type on protected routes", async () => {
    const body = await expectKnownError(await get({}), "ACCESS_TYPE_REQUIRED");
    expect(body.message).toMatch(/^You must specify an access level for this Stack project\./);
  });

  it("rejects an unknown access type and a missing project id", async () => {
    const body = await expectKnownError(
      await get({ "x-stack-access-type": "root", "x-stack-project-id": keys.projectId }),
      "INVALID_ACCESS_TYPE",
    );
    expect(body.message).toBe(
      "The x-stack-access-type header must be 'client', 'server', or 'admin', but was 'root'.",
    );
    await expectKnownError(await get({ "x-stack-access-type": "client" }), "ACCESS_TYPE_WITHOUT_PROJECT_ID", {
      request_type: "client",
    });
  });

  it("rejects an unknown project", async () => {
    await expectKnownError(
      await get({ ...accessHeaders("client", keys), "x-stack-project-id": "nope" }),
      "CURRENT_PROJECT_NOT_FOUND",
      { project_id: "nope" },
    );
  });

  it("rejects wrong, missing, expired and foreign keys", async () => {
    const other = (await server.createProject({ displayName: "Other" })).keys;
    const wrong = { ...keys, pck: other.pck, ssk: other.ssk, sak: other.sak };
    const details = { project_id: keys.projectId };
    await expectKnownError(
      await get(accessHeaders("client", wrong)),
      "INVALID_PUBLISHABLE_CLIENT_KEY",
      details,
    );
    await expectKnownError(await get(accessHeaders("server", wrong)), "INVALID_SECRET_SERVER_KEY", details);
    await expectKnownError(
      await get(accessHeaders("admin", wrong)),
      "INVALID_SUPER_SECRET_ADMIN_KEY",
      details,
    );
    const bare = { "x-stack-project-id": keys.projectId };
    await expectKnownError(
      await get({ ...bare, "x-stack-access-type": "server" }),
      "SERVER_AUTHENTICATION_REQUIRED",
    );
    await expectKnownError(
      await get({ ...bare, "x-stack-access-type": "admin" }),
      "ADMIN_AUTHENTICATION_REQUIRED",
    );
    // A key of another access type is ignored rather than accepted.
    await expectKnownError(
      await get({ ...bare, "x-stack-access-type": "server", "x-stack-publishable-client-key": keys.pck }),
      "SERVER_AUTHENTICATION_REQUIRED",
    );
    const expired = (
      await server.createProject({}, { expiresAt: new Date(server.clock.now().getTime() - 1) })
    ).keys;
    await expectKnownError(await get(accessHeaders("server", expired)), "INVALID_SECRET_SERVER_KEY");
  });

  it("lets a client in without a key unless the project requires one", async () => {
    const bare = { "x-stack-access-type": "client", "x-stack-project-id": keys.projectId };
    expect((await get(bare)).status).toBe(200);
    const strict = (await server.createProject({ config: { require_publishable_client_key: true } })).keys;
    await expectKnownError(
      await get({ ...bare, "x-stack-project-id": strict.projectId }),
      "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
      { project_id: strict.projectId },
    );
    expect((await get(accessHeaders("client", strict))).status).toBe(200);
  });

  it("rejects a branch other than main", async () => {
    expect((await get({ ...accessHeaders("client", keys), "x-stack-branch-id": "main" })).status).toBe(200);
    await expectKnownError(
      await get({ ...accessHeaders("client", keys), "x-stack-branch-id": "dev" }),
      "BRANCH_DOES_NOT_EXIST",
      { branch_id: "dev" },
    );
  });

  it("answers conflicting spellings of one header with a plain 400", async () => {
    const res = await get({ ...accessHeaders("client", keys), "x-hexclave-access-type": "server" });
    await expectTextError(
      res,
      400,
      "Conflicting values in headers x-stack-access-type and x-hexclave-access-type.",
    );
  });
});

describe("access tokens (§1.3 step 5)", () => {
  const withToken = (token: string, extra: Record<string, string> = {}) =>
    get({ ...accessHeaders("client", keys), "x-stack-access-token": token, ...extra });

  it("accepts a valid token and names its user on the API root", async () => {
    const { accessToken: token, userId } = await server.signIn(keys.projectId);
    expect((await withToken(token)).status).toBe(200);
    const root = await server.request("/api/v1", {
      headers: { ...accessHeaders("client", keys), "x-stack-access-token": token },
    });
    expect(await root.text()).toBe(
      `Welcome to the Gatehouse API endpoint!\n\nAuthentication: client access to project ${keys.projectId}, user ${userId}`,
    );
  });

  it("rejects garbage, tampered tokens and tokens of unknown keys as unparsable", async () => {
    await expectKnownError(await withToken("not-a-jwt"), "UNPARSABLE_ACCESS_TOKEN");
    const token = await server.mintAccessToken(keys.projectId);
    const [h, p, s] = token.split(".");
    const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: "x" })).toString("base64url")}.${s}`;
    await expectKnownError(await withToken(tampered), "UNPARSABLE_ACCESS_TOKEN");
    const unknownKid = `${Buffer.from(JSON.stringify({ alg: "ES256", kid: "gone", typ: "JWT" })).toString("base64url")}.${p}.${s}`;
    await expectKnownError(await withToken(unknownKid), "UNPARSABLE_ACCESS_TOKEN");
  });

  it("reports an expired token with its details", async () => {
    const { accessToken: token, userId } = await server.signIn(keys.projectId, { expiresInSeconds: 60 });
    server.clock.advance(61_000);
    const body = await expectKnownError(await withToken(token), "ACCESS_TOKEN_EXPIRED");
    expect(body.details).toMatchObject({ project_id: keys.projectId, user_id: userId });
    expect(body.message).toMatch(/\(The access token expired at \d{4}-\d\d-\d\dT.*Z\.\)$/);
  });

  it("rejects a token of another project", async () => {
    const other = (await server.createProject({ displayName: "Elsewhere" })).keys;
    const token = await server.mintAccessToken(other.projectId);
    await expectKnownError(await withToken(token), "INVALID_PROJECT_FOR_ACCESS_TOKEN", {
      expected_project_id: keys.projectId,
      actual_project_id: other.projectId,
    });
  });

  it("accepts anonymous and restricted tokens only when asked to", async () => {
    const anon = await server.mintAccessToken(keys.projectId, { audience: "anonymous" });
    await expectKnownError(await withToken(anon), "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
    expect((await withToken(anon, { "x-stack-allow-anonymous-user": "true" })).status).toBe(200);
    const restricted = await server.mintAccessToken(keys.projectId, { audience: "restricted" });
    await expectKnownError(await withToken(restricted), "RESTRICTED_USER_NOT_ALLOWED", {
      restricted_reason: { type: "restricted_by_administrator" },
    });
    expect((await withToken(restricted, { "x-hexclave-allow-restricted-user": "TRUE" })).status).toBe(200);
    expect((await withToken(restricted, { "x-stack-allow-anonymous-user": "true" })).status).toBe(200);
  });

  it("ignores the access token when no access type is given", async () => {
    const res = await server.request("/api/v1", { headers: { "x-stack-access-token": "garbage" } });
    expect(await res.text()).toBe("Welcome to the Gatehouse API endpoint!\n\nAuthentication: None");
  });
});

describe("admin access tokens (§1.3 step 7)", () => {
  const admin = (token: string) =>
    get({
      "x-stack-access-type": "admin",
      "x-stack-project-id": keys.projectId,
      "x-stack-admin-access-token": token,
    });

  it("answers each failure with its error", async () => {
    await expectKnownError(await admin("garbage"), "UNPARSABLE_ADMIN_ACCESS_TOKEN");
    const foreign = await server.mintAccessToken(keys.projectId);
    await expectKnownError(await admin(foreign), "INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN");
    const internal = await server.mintAccessToken("internal", { expiresInSeconds: 30 });
    await expectKnownError(await admin(internal), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
    server.clock.advance(31_000);
    await expectKnownError(await admin(internal), "ADMIN_ACCESS_TOKEN_EXPIRED");
  });

  it("admits members of the project's owner team only, while they are neither restricted nor removed", async () => {
    const internal = await server.deps.projects.find("internal");
    if (!internal) throw new Error("no internal project");
    const owner = await server.signIn("internal", { email: "owner@example.com" });
    const outsider = await server.signIn("internal", { email: "outsider@example.com" });
    const team = await inTransaction(server.deps.db, async (tx) => {
      const created = await server.deps.teams.create(tx, internal, { displayName: "Owners" }, owner.userId);
      await server.deps.projectsRepo.setOwnerTeam(tx, keys.projectId, created.id);
      return created;
    });
    expect((await admin(owner.accessToken)).status).toBe(200);
    await expectKnownError(await admin(outsider.accessToken), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
    await server.deps.usersRepo.update(server.deps.db, owner.userId, { restrictedByAdmin: true });
    await expectKnownError(await admin(owner.accessToken), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
    await server.deps.usersRepo.update(server.deps.db, owner.userId, { restrictedByAdmin: false });
    expect((await admin(owner.accessToken)).status).toBe(200);
    await inTransaction(server.deps.db, (tx) =>
      server.deps.teams.removeMember(tx, "internal", team.id, owner.userId),
    );
    await expectKnownError(await admin(owner.accessToken), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });

  it("uses the token and ignores a valid admin key beside it", async () => {
    const res = await get({ ...accessHeaders("admin", keys), "x-stack-admin-access-token": "garbage" });
    await expectKnownError(res, "UNPARSABLE_ADMIN_ACCESS_TOKEN");
  });
});

describe("response headers, CORS and masking (§1.4, §1.5, §1.8)", () => {
  it("sets the common headers on every answer", async () => {
    for (const res of [
      await get(accessHeaders("client", keys)),
      await get({}),
      await server.request("/api/v1/nowhere"),
    ]) {
      const id = res.headers.get("x-stack-request-id");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get("x-hexclave-request-id")).toBe(id);
      expect(res.headers.get("cache-control")).toBe("no-store, max-age=0");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("answers preflight requests", async () => {
    const res = await server.request(CURRENT, { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(res.headers.get("access-control-max-age")).toBe("86400");
    const allowed = res.headers.get("access-control-allow-headers")?.split(", ") ?? [];
    for (const h of [
      "x-stack-access-type",
      "x-hexclave-refresh-token",
      "content-type",
      "x-vercel-protection-bypass",
    ]) {
      expect(allowed).toContain(h);
    }
    expect(res.headers.get("access-control-expose-headers")).toBe(
      "content-type, retry-after, x-stack-actual-status, x-stack-known-error, x-stack-request-id, x-hexclave-actual-status, x-hexclave-known-error, x-hexclave-request-id",
    );
  });

  it("masks 4xx as 200 with the real status when asked, in either spelling", async () => {
    for (const name of ["x-stack-override-error-status", "x-hexclave-override-error-status"]) {
      const res = await get({ ...accessHeaders("client", { ...keys, pck: "pck_wrong" }), [name]: "true" });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-stack-actual-status")).toBe("401");
      expect(res.headers.get("x-hexclave-actual-status")).toBe("401");
      expect(res.headers.get("x-stack-known-error")).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
      expect(((await res.json()) as { code: string }).code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
    }
    const plain = await server.request("/nowhere", { headers: { "x-stack-override-error-status": "yes" } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("x-stack-actual-status")).toBe("404");
    const off = await get({ "x-stack-override-error-status": "false" });
    expect(off.status).toBe(400);
    expect(off.headers.get("x-stack-actual-status")).toBeNull();
    const ok = await get({ ...accessHeaders("client", keys), "x-stack-override-error-status": "true" });
    expect(ok.headers.get("x-stack-actual-status")).toBeNull();
  });
});

describe("bodies and validation (§1.6)", () => {
  const post = (body: BodyInit, contentType?: string, headers: Record<string, string> = {}) =>
    server.request("/api/v1/check-feature-support", {
      method: "POST",
      body,
      headers: contentType ? { "content-type": contentType, ...headers } : headers,
    });

  it("refuses malformed JSON and unknown content types", async () => {
    const body = await expectKnownError(await post("{oops", "application/json"), "BODY_PARSING_ERROR");
    expect(body.message).toBe("Invalid JSON in request body");
    expect(body.details).toBeUndefined();
    const xml = await expectKnownError(await post("<a/>", "application/xml"), "BODY_PARSING_ERROR");
    expect(xml.message).toBe("Unknown content type in request body: application/xml");
  });

  it("parses the body before anything else, even before the caller", async () => {
    const res = await server.request(CURRENT, {
      method: "GET",
      headers: { "x-stack-access-type": "bogus" },
    });
    await expectKnownError(res, "INVALID_ACCESS_TYPE");
    const early = await server.request("/api/v1", {
      method: "GET",
      headers: { "x-stack-access-type": "bogus" },
    });
    await expectKnownError(early, "INVALID_ACCESS_TYPE");
  });

  it("accepts JSON with a charset and form-encoded bodies", async () => {
    const json = await post(JSON.stringify({ feature_name: "Payments" }), "application/json; charset=utf-8");
    expect(await json.text()).toBe(
      "Payments is not yet supported. Please reach out to Stack support for more information.",
    );
    const form = await post("feature_name=Teams", "application/x-www-form-urlencoded");
    expect(await form.text()).toMatch(/^Teams is not yet supported/);
  });

  it("refuses bodies over 1 MiB", async () => {
    const huge = JSON.stringify({ feature_name: "x".repeat(1024 * 1024) });
    await expectTextError(await post(huge, "application/json"), 413, "Request body too large.");
  });

  it("reports unknown query fields as a SCHEMA_ERROR naming them", async () => {
    const res = await get(accessHeaders("client", keys), `${CURRENT}?foo=1&bar=2`);
    const body = await expectKnownError(res, "SCHEMA_ERROR");
    expect(body.message).toBe(
      "Request validation failed on GET /api/v1/projects/current:\n  - query contains unknown properties: foo, bar",
    );
    expect(body.details).toEqual({ message: body.message });
  });

  it("reports wrong query values with the field name", async () => {
    const res = await server.request("/health?db=yes");
    const body = await expectKnownError(res, "SCHEMA_ERROR");
    expect(body.message).toMatch(/^Request validation failed on GET \/health:\n {2}- query\.db: /);
  });

  it("validates after the access check", async () => {
    await expectKnownError(await get({}, `${CURRENT}?foo=1`), "ACCESS_TYPE_REQUIRED");
  });
});

describe("unknown routes and unexpected failures (§1.9)", () => {
  it("answers 404 and 405 in plain text", async () => {
    await expectTextError(await server.request("/api/v1/nothing-here"), 404, "Not found.");
    const res = await server.request(CURRENT, { method: "PUT" });
    await expectTextError(res, 405, "Method not allowed.");
    expect(res.headers.get("allow")).toBe("GET, PATCH, DELETE");
  });

  it("answers an unexpected failure with a 500 that names the request and hides the cause", async () => {
    const broken = await createTestServer();
    const { keys: k } = await broken.createProject();
    await broken.close();
    const res = await broken.request(CURRENT, { headers: accessHeaders("client", k) });
    expect(res.status).toBe(500);
    const text = await res.text();
    const id = res.headers.get("x-stack-request-id");
    expect(text).toBe(
      `Something went wrong. Please make sure the data you entered is correct.\n\nRequest ID: ${id}`,
    );
  });
});
