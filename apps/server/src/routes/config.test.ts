// Config as code over HTTP (Stack's `/internal/config`): the rendered config, overrides per level and their merge
// order, PATCH changing what the project does (sign-up, password sign-in, trusted domains), reset-keys, the pushed
// source, unsupported keys, sealing at rest, and admin-only access.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configOverrides } from "../db/schema.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
} from "../testing/test-server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

type Json = Record<string, unknown>;

function call(
  keys: ProjectKeys,
  type: "client" | "server" | "admin",
  method: string,
  path: string,
  body?: unknown,
) {
  const headers: Record<string, string> = { ...accessHeaders(type, keys), "x-forwarded-for": uniqueIp() };
  if (body !== undefined) headers["content-type"] = "application/json";
  return server.request(`/api/v1/internal/config${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function setup() {
  const { keys } = await server.createProject({ displayName: "Config" });
  const admin = (method: string, path: string, body?: unknown) => call(keys, "admin", method, path, body);
  const patch = async (level: string, override: Json) =>
    expectJson<{ success: true; unsupported_keys: string[] }>(
      await admin("PATCH", `/override/${level}`, { config_override_string: JSON.stringify(override) }),
    );
  const config = async () => {
    const body = await expectJson<{ config_string: string; unsupported_keys: string[] }>(
      await admin("GET", ""),
    );
    return {
      config: JSON.parse(body.config_string) as Json & { auth: Json; domains: Json },
      unsupported: body.unsupported_keys,
    };
  };
  const override = async (level: string) =>
    JSON.parse(
      (await expectJson<{ config_string: string }>(await admin("GET", `/override/${level}`))).config_string,
    );
  const project = async () => (await server.deps.projects.find(keys.projectId))?.config;
  return { keys, admin, patch, config, override, project };
}

describe("GET /internal/config", () => {
  it("renders the project's configuration in Stack's format", async () => {
    const { config } = await setup();
    const { config: c, unsupported } = await config();
    expect(c.auth).toMatchObject({
      allowSignUp: true,
      password: { allowSignIn: true },
      otp: { allowSignIn: false },
    });
    expect(c.domains).toMatchObject({ allowLocalhost: true, trustedDomains: {} });
    expect(c).toMatchObject({
      teams: { createPersonalTeamOnSignUp: false, allowClientTeamCreation: false },
      project: { requirePublishableClientKey: false },
      rbac: { defaultPermissions: { teamCreator: { team_admin: true }, teamMember: { team_member: true } } },
      emails: { server: { isShared: true } },
    });
    expect(unsupported).toEqual([]);
  });

  it("shows the project's values for supported keys, whatever an override says, and nothing of another project", async () => {
    const { keys, patch, config } = await setup();
    await patch("environment", { "domains.trustedDomains.a": { baseUrl: "https://a.example.com" } });
    // Removed from the dashboard afterwards: the rendered config follows the project.
    await server.deps.projects.update(keys.projectId, { config: { domains: [], sign_up_enabled: false } });
    const { config: c } = await config();
    expect(c.domains.trustedDomains).toEqual({});
    expect(c.auth.allowSignUp).toBe(false);
    const other = await setup();
    expect((await other.config()).config.auth.allowSignUp).toBe(true);
  });

  it("is admin only", async () => {
    const { keys } = await setup();
    for (const type of ["client", "server"] as const)
      await expectKnownError(await call(keys, type, "GET", ""), "INSUFFICIENT_ACCESS_TYPE");
  });
});

describe("PATCH /internal/config/override/{level}", () => {
  it("changes what the project does: sign-up off refuses a password sign-up", async () => {
    const { keys, patch, config, project } = await setup();
    await patch("environment", { "auth.allowSignUp": false, auth: { password: { allowSignIn: true } } });
    expect((await project())?.sign_up_enabled).toBe(false);
    expect((await config()).config.auth).toMatchObject({ allowSignUp: false });
    const res = await server.request("/api/v1/auth/password/sign-up", {
      method: "POST",
      headers: {
        ...accessHeaders("client", keys),
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
      },
      body: JSON.stringify({ email: uniqueEmail(), password: "correct horse battery" }),
    });
    await expectKnownError(res, "SIGN_UP_NOT_ENABLED");
  });

  it("turns password sign-in off and trusted domains on, and merges levels project < branch < environment", async () => {
    const { patch, project, override } = await setup();
    await patch("branch", {
      "auth.password.allowSignIn": false,
      "domains.trustedDomains.main": { baseUrl: "https://app.example.com", handlerPath: "/auth" },
    });
    let c = await project();
    expect(c?.credential_enabled).toBe(false);
    expect(c?.domains).toEqual([{ domain: "https://app.example.com", handler_path: "/auth" }]);
    // The environment wins over the branch.
    await patch("environment", { "auth.password.allowSignIn": true });
    expect((await project())?.credential_enabled).toBe(true);
    // A second domain adds to the list; PATCH replaces a key and the keys below it within its level.
    await patch("branch", { "domains.trustedDomains.docs": { baseUrl: "https://docs.example.com" } });
    c = await project();
    expect(c?.domains.map((d) => d.domain)).toEqual(["https://app.example.com", "https://docs.example.com"]);
    expect(Object.keys(await override("branch"))).toEqual([
      "auth.password.allowSignIn",
      "domains.trustedDomains.main",
      "domains.trustedDomains.docs",
    ]);
  });

  it("changes trusted domains entry by entry, keeping the ones set from the dashboard", async () => {
    const { keys, admin, patch, project, config } = await setup();
    await server.deps.projects.update(keys.projectId, {
      config: { domains: [{ domain: "https://dash.example.com", handler_path: "/handler" }] },
    });
    await patch("environment", { "domains.trustedDomains.a": { baseUrl: "https://a.example.com" } });
    await patch("environment", { "domains.trustedDomains.b": { baseUrl: "https://b.example.com" } });
    const domains = async () => (await project())?.domains.map((d) => d.domain);
    expect(await domains()).toEqual([
      "https://dash.example.com",
      "https://a.example.com",
      "https://b.example.com",
    ]);
    // The rendered record uses the override's ids.
    expect(Object.keys((await config()).config.domains.trustedDomains as Json)).toEqual(["0", "a", "b"]);
    await expectJson(
      await admin("POST", "/override/environment/reset-keys", { keys: ["domains.trustedDomains.a"] }),
    );
    expect(await domains()).toEqual(["https://dash.example.com", "https://b.example.com"]);
    await patch("environment", { "domains.trustedDomains.0": null });
    expect(await domains()).toEqual(["https://b.example.com"]);
  });

  it("refuses a value of the wrong type or an invalid domain, and changes nothing", async () => {
    const { admin, project, override } = await setup();
    const send = (o: Json) =>
      admin("PATCH", "/override/environment", { config_override_string: JSON.stringify(o) });
    await expectTextError(
      await send({ "auth.allowSignUp": "no" }),
      400,
      "Invalid config: auth.allowSignUp must be a boolean.",
    );
    const bad = await send({ "domains.trustedDomains.x": { baseUrl: "https://a.example.com/path" } });
    expect(bad.status).toBe(400);
    await expectTextError(
      await admin("PATCH", "/override/environment", { config_override_string: "[1]" }),
      400,
      "Invalid config JSON",
    );
    expect(await override("environment")).toEqual({});
    expect((await project())?.domains).toEqual([]);
  });

  it("keeps keys it does not support, renders them and says so", async () => {
    const { patch, config } = await setup();
    const answer = await patch("environment", { "payments.testMode": false, "auth.allowSignUp": true });
    expect(answer.unsupported_keys).toEqual(["payments.testMode"]);
    const rendered = await config();
    expect(rendered.config.payments).toEqual({ testMode: false });
    expect(rendered.unsupported).toEqual(["payments.testMode"]);
  });

  it("stores overrides sealed", async () => {
    const { keys, patch } = await setup();
    await patch("environment", { "emails.server": { isShared: true }, "secret.thing": "hunter2-plaintext" });
    const rows = await server.deps.db.select().from(configOverrides);
    const row = rows.find((r) => r.projectId === keys.projectId);
    expect(row?.sealedConfig).not.toContain("hunter2");
  });
});

describe("PUT, reset-keys and the source", () => {
  it("needs a source for the branch level, keeps it, and unlinks it", async () => {
    const { admin, project } = await setup();
    const put = (body: Json) => admin("PUT", "/override/branch", body);
    await expectTextError(
      await put({ config_string: "{}" }),
      400,
      "source is required for branch level config",
    );
    expect(await expectJson(await admin("GET", "/source"))).toEqual({ source: { type: "unlinked" } });
    const source = {
      type: "pushed-from-github",
      owner: "acme",
      repo: "app",
      branch: "main",
      commit_hash: "abc",
      config_file_path: "stack.config.ts",
    };
    await expectJson(
      await put({ config_string: JSON.stringify({ "teams.allowClientTeamCreation": true }), source }),
    );
    expect((await project())?.client_team_creation_enabled).toBe(true);
    expect(await expectJson(await admin("GET", "/source"))).toEqual({ source });
    // Replacing without the key puts the default back.
    await expectJson(await put({ config_string: "{}", source }));
    expect((await project())?.client_team_creation_enabled).toBe(false);
    expect(await expectJson(await admin("DELETE", "/source"))).toEqual({ success: true });
    expect(await expectJson(await admin("GET", "/source"))).toEqual({ source: { type: "unlinked" } });
  });

  it("reset-keys removes a key and its descendants; the project falls back", async () => {
    const { admin, patch, project, override } = await setup();
    await patch("branch", { "auth.allowSignUp": false });
    await patch("environment", {
      auth: { allowSignUp: true, otp: { allowSignIn: true } },
      "users.allowClientUserDeletion": true,
    });
    expect((await project())?.magic_link_enabled).toBe(true);
    await expectJson(await admin("POST", "/override/environment/reset-keys", { keys: ["auth"] }));
    expect(await override("environment")).toEqual({ "users.allowClientUserDeletion": true });
    const c = await project();
    expect(c?.sign_up_enabled).toBe(false);
    expect(c?.magic_link_enabled).toBe(false);
    expect(c?.client_user_deletion_enabled).toBe(true);
    expect((await admin("POST", "/override/project/reset-keys", { keys: [] })).status).toBe(400);
  });

  it("sets project.requirePublishableClientKey at the project level", async () => {
    const { patch, project } = await setup();
    await patch("project", { "project.requirePublishableClientKey": true });
    expect((await project())?.require_publishable_client_key).toBe(true);
  });
});
