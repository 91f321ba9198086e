// Project administration (WIRE.md §4.13, §7, §8): the admin view, settings changes and their checks, the
// production-mode rules, sealed secrets, deletion with everything the project owns, the `/internal/projects/current`
// aliases, and the projects a dashboard user lists and creates. Admin access by key and by admin access token.
import { randomUUID } from "node:crypto";
import { count, is, sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import * as schema from "../db/schema.ts";
import { expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
} from "../testing/test-server.ts";

const CURRENT = "/api/v1/projects/current";
const NO_LOGOS = {
  logo_url: null,
  logo_full_url: null,
  logo_dark_mode_url: null,
  logo_full_dark_mode_url: null,
};
/** A 1×1 transparent PNG, as a dashboard would send an uploaded file. */
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
const INTERNAL_CURRENT = "/api/v1/internal/projects/current";
const PROJECTS = "/api/v1/internal/projects";

const LOCALHOST = "Localhost is not allowed in production mode, turn off Allow localhost in project settings";
const localhostDomain = (d: string) =>
  `Localhost domains are not allowed to be trusted in production mode: ${d}`;
const ipDomain = (d: string) => `Direct IPs are not valid for trusted domains in production mode: ${d}`;
const httpDomain = (d: string) => `Trusted domains should be HTTPS: ${d}`;

type Json = Record<string, unknown>;
type View = Json & { config: Json; production_mode_errors: string[] };
type Headers = Record<string, string>;

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

async function send(headers: Headers, method: string, path: string, body?: unknown): Promise<Response> {
  const all: Headers = { "x-forwarded-for": uniqueIp(), ...headers };
  if (body !== undefined) all["content-type"] = "application/json";
  return server.request(path, {
    method,
    headers: all,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function json<T = View>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const admin = (keys: ProjectKeys) => accessHeaders("admin", keys);
const patch = (keys: ProjectKeys, body: unknown) => send(admin(keys), "PATCH", CURRENT, body);
const getView = async (keys: ProjectKeys) => json(await send(admin(keys), "GET", CURRENT));

async function newProject(displayName = "Settings") {
  return (await server.createProject({ displayName })).keys;
}

/** The problem lines of a SCHEMA_ERROR. */
async function schemaProblems(res: Response): Promise<string> {
  const body = await expectKnownError(res, "SCHEMA_ERROR");
  return body.message;
}

/** A signed-in user of project `internal`, with the personal team it gets on sign-up. */
async function dashboardUser() {
  const signedIn = await server.signIn("internal", { email: uniqueEmail("operator") });
  const [teamId] = await server.deps.teamsRepo.teamIdsOf(server.deps.db, signedIn.userId);
  if (!teamId) throw new Error("The internal user got no personal team");
  const as = (type: "client" | "server" | "admin"): Headers => ({
    ...accessHeaders(type, server.internal),
    "x-stack-access-token": signedIn.accessToken,
  });
  return { ...signedIn, teamId, as };
}

const adminToken = (projectId: string, token: string): Headers => ({
  "x-stack-access-type": "admin",
  "x-stack-project-id": projectId,
  "x-stack-admin-access-token": token,
});

const defaultConfig = (projectId: string) => ({
  id: projectId,
  legacy_global_jwt_signing: false,
  sign_up_enabled: true,
  credential_enabled: true,
  magic_link_enabled: false,
  passkey_enabled: false,
  client_team_creation_enabled: false,
  client_user_deletion_enabled: false,
  allow_user_api_keys: false,
  allow_team_api_keys: false,
  allow_localhost: true,
  create_team_on_sign_up: false,
  domains: [],
  oauth_providers: [],
  enabled_oauth_providers: [],
  email_config: { type: "shared" },
  team_creator_default_permissions: [{ id: "team_admin" }],
  team_member_default_permissions: [{ id: "team_member" }],
  user_default_permissions: [],
  oauth_account_merge_strategy: "link_method",
  require_publishable_client_key: false,
  refresh_token_rotation: false,
  default_language: null,
  password_breach_check: "list",
  password_breach_range_url: null,
  password_min_strength: null,
  access_token_claims: null,
  bot_protection: "off",
  bot_protection_site_key: null,
  bot_protection_secret: null,
  bot_protection_verify_url: null,
  audit_log_retention_days: null,
  audit_log_webhooks: false,
  new_device_notice_enabled: true,
  bot_protection_script_url: null,
});

const SMTP: Record<string, unknown> = {
  type: "standard",
  host: "smtp.example.com",
  port: 587,
  username: "mailer",
  password: "smtp-password-in-clear",
  sender_name: "Acme",
  sender_email: "noreply@acme.example.com",
};

describe("GET /projects/current for admin callers (the admin view)", () => {
  it("shows every setting of a new project with the read-only keys and its defaults", async () => {
    const keys = await newProject("Fresh");
    const view = await getView(keys);
    expect(view).toEqual({
      id: keys.projectId,
      display_name: "Fresh",
      description: null,
      created_at_millis: server.clock.now().getTime(),
      user_count: 0,
      is_production_mode: false,
      owner_team_id: null,
      ...NO_LOGOS,
      config: defaultConfig(keys.projectId),
      production_mode_errors: [LOCALHOST],
    });
  });

  it("counts the project's users, anonymous ones included, and no one else's", async () => {
    const keys = await newProject();
    await server.signIn(keys.projectId);
    await server.signIn(keys.projectId, { audience: "anonymous" });
    await server.signIn((await newProject()).projectId);
    expect((await getView(keys)).user_count).toBe(2);
  });

  it("answers the same under /internal/projects/current, which only admins may call", async () => {
    const keys = await newProject();
    expect(await json(await send(admin(keys), "GET", INTERNAL_CURRENT))).toEqual(await getView(keys));
    for (const type of ["client", "server"] as const) {
      await expectKnownError(
        await send(accessHeaders(type, keys), "GET", INTERNAL_CURRENT),
        "INSUFFICIENT_ACCESS_TYPE",
        { actual_access_type: type, allowed_access_types: ["admin"] },
      );
    }
    await expectKnownError(await send({}, "GET", INTERNAL_CURRENT), "ACCESS_TYPE_REQUIRED");
  });

  it("still shows the client view to client and server callers", async () => {
    const keys = await newProject();
    for (const type of ["client", "server"] as const) {
      const view = await json(await send(accessHeaders(type, keys), "GET", CURRENT));
      expect(Object.keys(view).sort()).toEqual(
        ["config", "display_name", "id", ...Object.keys(NO_LOGOS)].sort(),
      );
    }
  });
});

describe("PATCH /projects/current", () => {
  it("changes name, description and settings, merging the config key by key", async () => {
    const keys = await newProject("Before");
    const first = await json(
      await patch(keys, {
        display_name: "After",
        description: "The shop",
        config: {
          sign_up_enabled: false,
          magic_link_enabled: true,
          domains: [{ domain: "https://shop.example.com", handler_path: "/auth" }],
        },
      }),
    );
    expect(first).toMatchObject({
      display_name: "After",
      description: "The shop",
      is_production_mode: false,
    });
    const second = await json(
      await patch(keys, {
        config: {
          passkey_enabled: true,
          client_team_creation_enabled: true,
          client_user_deletion_enabled: true,
          allow_localhost: false,
          create_team_on_sign_up: true,
          team_creator_default_permissions: [{ id: "$update_team" }],
          team_member_default_permissions: [],
          oauth_account_merge_strategy: "raise_error",
          require_publishable_client_key: true,
          refresh_token_rotation: true,
          default_language: "ja",
        },
      }),
    );
    expect(second).toEqual({
      ...first,
      config: {
        ...defaultConfig(keys.projectId),
        sign_up_enabled: false,
        magic_link_enabled: true,
        domains: [{ domain: "https://shop.example.com", handler_path: "/auth" }],
        passkey_enabled: true,
        client_team_creation_enabled: true,
        client_user_deletion_enabled: true,
        allow_localhost: false,
        create_team_on_sign_up: true,
        team_creator_default_permissions: [{ id: "$update_team" }],
        team_member_default_permissions: [],
        oauth_account_merge_strategy: "raise_error",
        require_publishable_client_key: true,
        refresh_token_rotation: true,
        default_language: "ja",
      },
      production_mode_errors: [],
    });
    expect(await getView(keys)).toEqual(second);
  });

  it("changes nothing with an empty body or {}, and clears the description with null", async () => {
    const keys = await newProject();
    await json(await patch(keys, { description: "Something" }));
    const before = await getView(keys);
    expect(await json(await send(admin(keys), "PATCH", CURRENT))).toEqual(before);
    expect(await json(await patch(keys, {}))).toEqual(before);
    expect(await json(await patch(keys, { config: {} }))).toEqual(before);
    expect((await json(await patch(keys, { description: null }))).description).toBeNull();
  });

  it("replaces domains and providers as whole lists, with handler_path and enabled defaulted", async () => {
    const keys = await newProject();
    await json(
      await patch(keys, {
        config: {
          domains: [
            { domain: "https://a.example.com", handler_path: "/a" },
            { domain: "https://b.example.com" },
          ],
          oauth_providers: [
            { id: "github", type: "standard", client_id: "gh-id", client_secret: "gh-secret" },
            { id: "google", type: "shared", enabled: false },
          ],
        },
      }),
    );
    const view = await json(
      await patch(keys, {
        config: {
          domains: [{ domain: "http://localhost:3000" }],
          oauth_providers: [
            { id: "spotify", type: "shared" },
            {
              id: "microsoft",
              type: "standard",
              enabled: true,
              client_id: "ms-id",
              client_secret: "ms-secret",
              microsoft_tenant_id: "tenant",
            },
            {
              id: "facebook",
              type: "standard",
              enabled: false,
              client_id: "fb-id",
              client_secret: "fb-secret",
              facebook_config_id: "fb-config",
            },
          ],
        },
      }),
    );
    expect(view.config.domains).toEqual([{ domain: "http://localhost:3000", handler_path: "/handler" }]);
    expect(view.config.oauth_providers).toEqual([
      { id: "spotify", provider_config_id: "spotify", type: "shared", enabled: true },
      {
        id: "microsoft",
        provider_config_id: "microsoft",
        type: "standard",
        enabled: true,
        client_id: "ms-id",
        client_secret: "ms-secret",
        microsoft_tenant_id: "tenant",
      },
      {
        id: "facebook",
        provider_config_id: "facebook",
        type: "standard",
        enabled: false,
        client_id: "fb-id",
        client_secret: "fb-secret",
        facebook_config_id: "fb-config",
      },
    ]);
    expect(view.config.enabled_oauth_providers).toEqual([{ id: "spotify" }, { id: "microsoft" }]);
    // The client view follows: enabled providers only, no keys.
    const client = await send(accessHeaders("client", keys), "GET", CURRENT);
    const text = await client.text();
    expect(JSON.parse(text).config).toMatchObject({
      oauth_providers: [{ id: "spotify" }, { id: "microsoft" }],
      domains: [{ domain: "http://localhost:3000", handler_path: "/handler" }],
    });
    expect(text).not.toContain("secret");
  });

  it("accepts the standard e-mail config with ports 1 and 65535, and goes back to shared", async () => {
    const keys = await newProject();
    for (const port of [1, 65535]) {
      const view = await json(await patch(keys, { config: { email_config: { ...SMTP, port } } }));
      expect(view.config.email_config).toEqual({ ...SMTP, port });
    }
    const shared = await json(await patch(keys, { config: { email_config: { type: "shared" } } }));
    expect(shared.config.email_config).toEqual({ type: "shared" });
  });

  it("refuses read-only config keys with a SCHEMA_ERROR", async () => {
    const keys = await newProject();
    const readOnly: Json = {
      id: keys.projectId,
      legacy_global_jwt_signing: false,
      enabled_oauth_providers: [],
    };
    for (const [key, value] of Object.entries(readOnly)) {
      expect(await schemaProblems(await patch(keys, { config: { [key]: value } }))).toBe(
        `Request validation failed on PATCH ${CURRENT}:\n  - body.config contains unknown properties: ${key}`,
      );
    }
    const providerConfigId = await schemaProblems(
      await patch(keys, {
        config: { oauth_providers: [{ id: "google", type: "shared", provider_config_id: "google" }] },
      }),
    );
    expect(providerConfigId).toContain(
      "  - body.config.oauth_providers.0 contains unknown properties: provider_config_id",
    );
  });

  it("stores the four logos (Stack's logo_url family), shows them to clients too, and removes one with null", async () => {
    const keys = await newProject();
    const logos = {
      logo_url: "https://cdn.example.com/logo.png",
      logo_full_url: PNG,
      logo_dark_mode_url: "https://cdn.example.com/logo-dark.svg?v=2",
      logo_full_dark_mode_url: "data:image/svg+xml;base64,PHN2Zy8+",
    };
    expect(await json(await patch(keys, logos))).toMatchObject(logos);
    expect(await getView(keys)).toMatchObject(logos);
    // Settings changes elsewhere keep them; the config does not carry them.
    const view = await json(await patch(keys, { config: { sign_up_enabled: false } }));
    expect(view).toMatchObject(logos);
    expect(view.config).not.toHaveProperty("logo_url");
    const client = await json(await send(accessHeaders("client", keys), "GET", CURRENT));
    expect(client).toMatchObject(logos);
    const cleared = await json(await patch(keys, { logo_url: null, logo_full_dark_mode_url: null }));
    expect(cleared).toMatchObject({ ...logos, logo_url: null, logo_full_dark_mode_url: null });
  });

  it("refuses a logo that is neither an https URL nor an inline image, or is too large", async () => {
    const keys = await newProject();
    const refused = [
      "http://cdn.example.com/logo.png",
      "javascript:alert(1)",
      "data:text/html;base64,PHNjcmlwdD4=",
      "data:image/png,rawbytes",
      "https://",
      "https://cdn.example.com/a b.png",
      "/logo.png",
      `data:image/png;base64,${"A".repeat(1_000_000)}`,
    ];
    for (const logo of refused) {
      expect(await schemaProblems(await patch(keys, { logo_dark_mode_url: logo })), logo).toContain(
        "  - body.logo_dark_mode_url",
      );
    }
    expect(await getView(keys)).toMatchObject(NO_LOGOS);
  });

  it("refuses unknown fields, wrong types and broken constraints with a SCHEMA_ERROR", async () => {
    const keys = await newProject();
    const cases: [unknown, string][] = [
      [{ logo: "https://x" }, "body contains unknown properties: logo"],
      [{ display_name: "" }, "body.display_name"],
      [{ display_name: "x".repeat(257) }, "body.display_name"],
      [{ display_name: 5 }, "body.display_name"],
      [{ description: 5 }, "body.description"],
      [{ is_production_mode: "yes" }, "body.is_production_mode"],
      [{ config: { sign_up_enabled: "true" } }, "body.config.sign_up_enabled"],
      [{ config: { oauth_account_merge_strategy: "merge" } }, "body.config.oauth_account_merge_strategy"],
      [{ config: { domains: "https://a.com" } }, "body.config.domains"],
      [
        { config: { team_member_default_permissions: ["team_member"] } },
        "body.config.team_member_default_permissions.0",
      ],
      [{ config: { email_config: { type: "smtp" } } }, "body.config.email_config"],
      [{ config: { nope: true } }, "body.config contains unknown properties: nope"],
      [[], "body"],
    ];
    for (const [body, problem] of cases) {
      expect(await schemaProblems(await patch(keys, body))).toContain(`  - ${problem}`);
    }
    // A failed request changes nothing.
    expect((await getView(keys)).display_name).toBe("Settings");
  });

  it("needs client_id and client_secret on standard providers, and a provider only once", async () => {
    const keys = await newProject();
    const noId = await schemaProblems(
      await patch(keys, {
        config: { oauth_providers: [{ id: "github", type: "standard", client_secret: "s" }] },
      }),
    );
    expect(noId).toBe(
      `Request validation failed on PATCH ${CURRENT}:\n  - body.config.oauth_providers.0.client_id: must be defined for a standard provider`,
    );
    const neither = await schemaProblems(
      await patch(keys, { config: { oauth_providers: [{ id: "github", type: "standard" }] } }),
    );
    expect(neither).toContain(
      "  - body.config.oauth_providers.0.client_id: must be defined for a standard provider",
    );
    expect(neither).toContain(
      "  - body.config.oauth_providers.0.client_secret: must be defined for a standard provider",
    );
    const empty = await schemaProblems(
      await patch(keys, {
        config: { oauth_providers: [{ id: "github", type: "standard", client_id: "", client_secret: "s" }] },
      }),
    );
    expect(empty).toContain("  - body.config.oauth_providers.0.client_id");
    const twice = await schemaProblems(
      await patch(keys, {
        config: {
          oauth_providers: [
            { id: "google", type: "shared" },
            { id: "google", type: "standard", client_id: "i", client_secret: "s" },
          ],
        },
      }),
    );
    expect(twice).toContain("  - body.config.oauth_providers: must not name a provider twice");
    const badType = await schemaProblems(
      await patch(keys, { config: { oauth_providers: [{ id: "google", type: "custom" }] } }),
    );
    expect(badType).toContain("  - body.config.oauth_providers.0.type");
  });

  it("refuses unknown standard providers and shared keys for providers without them", async () => {
    const keys = await newProject();
    const standard = (id: string) => ({ id, type: "standard", client_id: "i", client_secret: "s" });
    await expectKnownError(
      await patch(keys, { config: { oauth_providers: [standard("github"), standard("myspace")] } }),
      "INVALID_STANDARD_OAUTH_PROVIDER_ID",
      { provider_id: "myspace" },
    );
    for (const id of ["discord", "facebook", "x", "myspace"]) {
      await expectKnownError(
        await patch(keys, { config: { oauth_providers: [{ id, type: "shared" }] } }),
        "INVALID_SHARED_OAUTH_PROVIDER_ID",
        { provider_id: id },
      );
    }
    // Every standard id may be configured with own keys, and the four shared ones with shared keys.
    const ids = ["github", "facebook", "google", "microsoft", "spotify", "discord", "gitlab"];
    const more = ["bitbucket", "linkedin", "x", "twitch"];
    const all = await json(
      await patch(keys, { config: { oauth_providers: [...ids, ...more].map(standard) } }),
    );
    expect((all.config.enabled_oauth_providers as Json[]).length).toBe(11);
    const shared = ["google", "github", "microsoft", "spotify"].map((id) => ({ id, type: "shared" }));
    expect(
      (await json(await patch(keys, { config: { oauth_providers: shared } }))).config.oauth_providers,
    ).toEqual(shared.map((p) => ({ ...p, provider_config_id: p.id, enabled: true })));
  });

  it("needs all six fields of a standard e-mail config and a port of 1 to 65535", async () => {
    const keys = await newProject();
    for (const field of ["host", "port", "username", "password", "sender_name", "sender_email"]) {
      const { [field]: _left, ...rest } = SMTP;
      expect(await schemaProblems(await patch(keys, { config: { email_config: rest } }))).toContain(
        `  - body.config.email_config.${field} must be defined`,
      );
    }
    for (const port of [0, 65536, 25.5, "587"]) {
      expect(
        await schemaProblems(await patch(keys, { config: { email_config: { ...SMTP, port } } })),
      ).toContain("  - body.config.email_config.port");
    }
    expect(
      await schemaProblems(await patch(keys, { config: { email_config: { ...SMTP, tls: true } } })),
    ).toContain("  - body.config.email_config contains unknown properties: tls");
    expect((await getView(keys)).config.email_config).toEqual({ type: "shared" });
  });

  it("accepts system permissions and the project's definitions as defaults, and nothing else", async () => {
    const keys = await newProject();
    await inTransaction(server.deps.db, (tx) =>
      server.deps.permissions.createDefaults(tx, keys.projectId, [
        { id: "billing:read", contained_permission_ids: [] },
      ]),
    );
    const view = await json(
      await patch(keys, {
        config: {
          team_creator_default_permissions: [{ id: "team_admin" }, { id: "billing:read" }],
          team_member_default_permissions: [{ id: "$read_members" }, { id: "team_member" }],
        },
      }),
    );
    expect(view.config.team_creator_default_permissions).toEqual([
      { id: "team_admin" },
      { id: "billing:read" },
    ]);
    expect(view.config.team_member_default_permissions).toEqual([
      { id: "$read_members" },
      { id: "team_member" },
    ]);
    for (const key of ["team_creator_default_permissions", "team_member_default_permissions"]) {
      await expectKnownError(
        await patch(keys, { config: { [key]: [{ id: "team_member" }, { id: "billing:write" }] } }),
        "PERMISSION_NOT_FOUND",
        { permission_id: "billing:write" },
      );
      await expectKnownError(
        await patch(keys, { config: { [key]: [{ id: "$fly" }] } }),
        "PERMISSION_NOT_FOUND",
        {
          permission_id: "$fly",
        },
      );
    }
    // Definitions of another project are unknown here.
    const other = await newProject();
    await expectKnownError(
      await patch(other, { config: { team_member_default_permissions: [{ id: "billing:read" }] } }),
      "PERMISSION_NOT_FOUND",
      { permission_id: "billing:read" },
    );
  });

  it("takes origins as domains and refuses anything else with a SCHEMA_ERROR", async () => {
    const keys = await newProject();
    const good = [
      "https://app.example.com",
      "https://app.example.com:8443",
      "http://localhost:3000",
      "http://[::1]:3000",
      "https://203.0.113.7",
    ];
    const view = await json(await patch(keys, { config: { domains: good.map((domain) => ({ domain })) } }));
    expect((view.config.domains as { domain: string }[]).map((d) => d.domain)).toEqual(good);
    const bad = [
      "https://app.example.com/",
      "https://app.example.com/path",
      "https://app.example.com?x=1",
      "https://app.example.com#top",
      "https://*.example.com",
      "https://user@app.example.com",
      "ftp://app.example.com",
      "app.example.com",
      "https://app.example.com:99999",
      "",
    ];
    for (const domain of bad) {
      expect(
        await schemaProblems(await patch(keys, { config: { domains: [{ domain }] } })),
        domain,
      ).toContain("  - body.config.domains.0.domain");
    }
    for (const handler_path of ["handler", ""]) {
      expect(
        await schemaProblems(
          await patch(keys, { config: { domains: [{ domain: "https://a.example.com", handler_path }] } }),
        ),
      ).toContain("  - body.config.domains.0.handler_path");
    }
  });
});

describe("production mode", () => {
  const domains = (...list: string[]) => list.map((domain) => ({ domain }));
  const toProduction = (keys: ProjectKeys, config: Json) => patch(keys, { is_production_mode: true, config });

  it("refuses a project that allows localhost", async () => {
    const keys = await newProject();
    await expectTextError(await patch(keys, { is_production_mode: true }), 400, LOCALHOST);
    expect((await getView(keys)).is_production_mode).toBe(false);
  });

  it("refuses each domain rule on its own", async () => {
    const cases: [string, string][] = [
      ["https://localhost:3000", localhostDomain("https://localhost:3000")],
      ["https://app.localhost", localhostDomain("https://app.localhost")],
      ["https://203.0.113.7", ipDomain("https://203.0.113.7")],
      ["https://[2001:db8::1]", ipDomain("https://[2001:db8::1]")],
      ["http://app.example.com", httpDomain("http://app.example.com")],
    ];
    for (const [domain, message] of cases) {
      const keys = await newProject();
      await expectTextError(
        await toProduction(keys, { allow_localhost: false, domains: domains(domain) }),
        400,
        message,
      );
      // Nothing was stored.
      expect((await getView(keys)).config.domains).toEqual([]);
    }
  });

  it("lists every violation, one per line: the table's order, then the domains' order", async () => {
    const keys = await newProject();
    const list = domains(
      "http://localhost:3000",
      "https://ok.example.com",
      "https://10.0.0.1",
      "http://example.com",
      "http://127.0.0.1:8080",
    );
    const expected = [
      LOCALHOST,
      localhostDomain("http://localhost:3000"),
      localhostDomain("http://127.0.0.1:8080"),
      ipDomain("https://10.0.0.1"),
      ipDomain("http://127.0.0.1:8080"),
      httpDomain("http://localhost:3000"),
      httpDomain("http://example.com"),
      httpDomain("http://127.0.0.1:8080"),
    ];
    await expectTextError(await toProduction(keys, { domains: list }), 400, expected.join("\n"));
    // Outside production mode the same settings are stored, and the admin view lists the problems in advance.
    const view = await json(await patch(keys, { config: { domains: list } }));
    expect(view.production_mode_errors).toEqual(expected);
    expect((await getView(keys)).production_mode_errors).toEqual(expected);
    // The switch fails until the last problem is gone, and then succeeds.
    await expectTextError(await patch(keys, { is_production_mode: true }), 400, expected.join("\n"));
    const clean = await json(
      await toProduction(keys, { allow_localhost: false, domains: domains("https://ok.example.com") }),
    );
    expect(clean).toMatchObject({ is_production_mode: true, production_mode_errors: [] });
  });

  it("holds while the project is in production mode, and ends when it is switched off", async () => {
    const keys = await newProject();
    await json(
      await toProduction(keys, { allow_localhost: false, domains: domains("https://shop.example.com") }),
    );
    await expectTextError(
      await patch(keys, {
        config: { domains: domains("https://shop.example.com", "http://shop.example.com") },
      }),
      400,
      httpDomain("http://shop.example.com"),
    );
    await expectTextError(await patch(keys, { config: { allow_localhost: true } }), 400, LOCALHOST);
    expect(await json(await patch(keys, { display_name: "Still fine" }))).toMatchObject({
      display_name: "Still fine",
      is_production_mode: true,
    });
    const off = await json(
      await patch(keys, { is_production_mode: false, config: { allow_localhost: true } }),
    );
    expect(off).toMatchObject({ is_production_mode: false, production_mode_errors: [LOCALHOST] });
  });
});

describe("secrets at rest", () => {
  it("stores OAuth client secrets and the SMTP password sealed, and shows them to admins in clear", async () => {
    const keys = await newProject();
    const view = await json(
      await patch(keys, {
        config: {
          oauth_providers: [
            { id: "github", type: "standard", client_id: "gh-id", client_secret: "gh-secret-clear" },
          ],
          email_config: SMTP,
        },
      }),
    );
    expect((view.config.oauth_providers as Json[])[0]?.client_secret).toBe("gh-secret-clear");
    expect((view.config.email_config as Json).password).toBe(SMTP.password);

    const row = await server.deps.projectsRepo.find(keys.projectId);
    const stored = JSON.stringify(row?.config);
    expect(stored).not.toContain("gh-secret-clear");
    expect(stored).not.toContain(SMTP.password);
    expect(row?.config.oauth_providers[0]?.client_secret).toMatch(/^v1\./);
    expect(row?.config.oauth_providers[0]?.client_id).toBe("gh-id");
    expect(row?.config.email_config).toMatchObject({
      type: "standard",
      username: "mailer",
      password: /^v1\./,
    });

    // A later change of other keys keeps the secrets, still sealed.
    const later = await json(await patch(keys, { config: { sign_up_enabled: false } }));
    expect(later.config.oauth_providers).toEqual(view.config.oauth_providers);
    expect(later.config.email_config).toEqual(SMTP);
    expect(JSON.stringify((await server.deps.projectsRepo.find(keys.projectId))?.config)).not.toContain(
      "gh-secret-clear",
    );
  });
});

describe("admin access to the settings", () => {
  it("lets members of the owner team in with their admin access token, and no one else", async () => {
    const keys = await newProject();
    const owner = await dashboardUser();
    const outsider = await dashboardUser();
    await inTransaction(server.deps.db, (tx) =>
      server.deps.projectsRepo.setOwnerTeam(tx, keys.projectId, owner.teamId),
    );
    const asOwner = adminToken(keys.projectId, owner.accessToken);
    const view = await json(await send(asOwner, "PATCH", CURRENT, { display_name: "Owned" }));
    expect(view).toMatchObject({ display_name: "Owned", owner_team_id: owner.teamId });
    expect(await json(await send(asOwner, "GET", INTERNAL_CURRENT))).toEqual(view);
    const asOutsider = adminToken(keys.projectId, outsider.accessToken);
    for (const [method, path] of [
      ["GET", CURRENT],
      ["PATCH", CURRENT],
      ["DELETE", CURRENT],
      ["PATCH", INTERNAL_CURRENT],
    ] as const) {
      const body = method === "GET" ? undefined : {};
      await expectKnownError(await send(asOutsider, method, path, body), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
    }
    expect((await getView(keys)).display_name).toBe("Owned");
  });

  it("refuses client and server keys and requests without an access type", async () => {
    const keys = await newProject();
    for (const path of [CURRENT, INTERNAL_CURRENT]) {
      for (const method of ["PATCH", "DELETE"]) {
        for (const type of ["client", "server"] as const) {
          await expectKnownError(
            await send(accessHeaders(type, keys), method, path, {}),
            "INSUFFICIENT_ACCESS_TYPE",
            { actual_access_type: type, allowed_access_types: ["admin"] },
          );
        }
        await expectKnownError(await send({}, method, path, {}), "ACCESS_TYPE_REQUIRED");
      }
    }
    expect((await getView(keys)).display_name).toBe("Settings");
  });

  it("works the same under /internal/projects/current", async () => {
    const keys = await newProject();
    const view = await json(
      await send(admin(keys), "PATCH", INTERNAL_CURRENT, { config: { passkey_enabled: true } }),
    );
    expect(view.config.passkey_enabled).toBe(true);
    await expectKnownError(
      await send(admin(keys), "PATCH", INTERNAL_CURRENT, { config: { enabled_oauth_providers: [] } }),
      "SCHEMA_ERROR",
    );
    await expectTextError(
      await send(admin(keys), "PATCH", INTERNAL_CURRENT, { is_production_mode: true }),
      400,
      LOCALHOST,
    );
  });
});

/** Every table with a `project_id`: all of them must empty when their project goes. */
const projectTables = (Object.values(schema) as unknown[]).filter(
  (value): value is PgTable =>
    is(value, PgTable) && getTableConfig(value).columns.some((c) => c.name === "project_id"),
);

async function rowsOf(table: PgTable, projectId: string): Promise<number> {
  const [row] = await server.deps.db.select({ n: count() }).from(table).where(sql`project_id = ${projectId}`);
  return row?.n ?? -1;
}

async function rowsPerTable(projectId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of projectTables) counts[getTableConfig(table).name] = await rowsOf(table, projectId);
  return counts;
}

/** Users, teams, grants, an invitation, sessions, e-mails, webhook events and the rest: one of each kind of row. */
async function fillProject(keys: ProjectKeys): Promise<void> {
  const srv = accessHeaders("server", keys);
  const user = await json<{ id: string }>(
    await send(srv, "POST", "/api/v1/users", {
      primary_email: uniqueEmail("member"),
      primary_email_auth_enabled: true,
      password: "a password 1",
    }),
    201,
  );
  const team = await json<{ id: string }>(
    await send(srv, "POST", "/api/v1/teams", { display_name: "Crew", creator_user_id: user.id }),
    201,
  );
  await json(
    await send(srv, "POST", "/api/v1/team-invitations/send-code", {
      team_id: team.id,
      email: uniqueEmail("invitee"),
      callback_url: "http://localhost:3000/handler/team-invitation",
    }),
  );
  await json(await send(srv, "POST", "/api/v1/auth/sessions", { user_id: user.id }));
  const now = server.clock.now();
  const { db } = server.deps;
  await db.insert(schema.oauthAccounts).values({
    id: randomUUID(),
    projectId: keys.projectId,
    userId: user.id,
    providerId: "github",
    accountId: "gh-1",
  });
  await db.insert(schema.projectPermissionGrants).values({
    projectId: keys.projectId,
    userId: user.id,
    permissionId: "reader",
  });
  await db.insert(schema.passkeys).values({
    id: randomUUID(),
    projectId: keys.projectId,
    userId: user.id,
    credentialId: "credential-1",
    publicKey: "public-key",
    counter: 0,
    transports: ["internal"],
  });
  await db.insert(schema.mfaRecoveryCodes).values({
    id: randomUUID(),
    projectId: keys.projectId,
    userId: user.id,
    totpSecretHash: "secret-hash",
    codeHash: "code-hash",
  });
  await db.insert(schema.ownedApiKeys).values({
    id: randomUUID(),
    projectId: keys.projectId,
    userId: user.id,
    description: "key",
    isPublic: false,
    keyHash: randomUUID(),
    lastFour: "abcd",
  });
  await db.insert(schema.cliAuthAttempts).values({
    id: randomUUID(),
    projectId: keys.projectId,
    pollingCodeHash: randomUUID(),
    loginCodeHash: randomUUID(),
    userId: user.id,
    expiresAt: now,
  });
  const connectionId = randomUUID();
  await db.insert(schema.ssoConnections).values({
    id: connectionId,
    projectId: keys.projectId,
    teamId: team.id,
    protocol: "oidc",
    displayName: "Crew's IdP",
    enabled: true,
    settings: {},
    attributeMapping: {},
  });
  await db.insert(schema.ssoIdentities).values({
    connectionId,
    subject: "idp-subject-1",
    projectId: keys.projectId,
    userId: user.id,
  });
  await db.insert(schema.ssoDomains).values({
    id: randomUUID(),
    projectId: keys.projectId,
    teamId: team.id,
    domain: "crew.example",
    verificationToken: "token",
    connectionId,
  });
  await db.insert(schema.configOverrides).values({
    projectId: keys.projectId,
    level: "environment",
    sealedConfig: "sealed",
    updatedAt: now,
  });
  await db.insert(schema.notificationPreferences).values({
    projectId: keys.projectId,
    userId: user.id,
    categoryId: "4f6f8873-3d04-46bd-8bef-18338b1a1b4c",
    enabled: false,
  });
  await db.insert(schema.analyticsEvents).values({
    projectId: keys.projectId,
    userId: user.id,
    eventType: "$page-view",
    data: {},
    batchId: randomUUID(),
    segmentId: randomUUID(),
    eventAt: now,
  });
  await db
    .insert(schema.aiChatMessages)
    .values({ projectId: keys.projectId, threadId: "thread", content: {} });
  await db.insert(schema.emailCapacityBoosts).values({ projectId: keys.projectId, expiresAt: now });
  await db.insert(schema.dataVaultEntries).values({
    projectId: keys.projectId,
    storeId: "store",
    hashedKey: "hashed",
    sealedValue: "sealed",
    updatedAt: now,
  });
  await db.insert(schema.emailTemplates).values({
    projectId: keys.projectId,
    type: "password_reset",
    subject: "Reset",
    content: "<p>Reset</p>",
    updatedAt: now,
  });
  await db.insert(schema.scimTokens).values({
    id: randomUUID(),
    projectId: keys.projectId,
    teamId: team.id,
    description: "Okta",
    tokenHash: `hash-${randomUUID()}`,
  });
  await db.insert(schema.scimUsers).values({
    teamId: team.id,
    userId: user.id,
    projectId: keys.projectId,
    userName: "member",
    active: true,
    attributes: {},
    updatedAt: now,
  });
  await db.insert(schema.scimGroups).values({
    id: randomUUID(),
    projectId: keys.projectId,
    teamId: team.id,
    displayName: "Engineering",
    updatedAt: now,
  });
  await db.insert(schema.oidcClients).values({
    clientId: `client-${randomUUID()}`,
    projectId: keys.projectId,
    displayName: "Wiki",
    clientType: "public",
    redirectUris: ["https://wiki.example.com/callback"],
    postLogoutRedirectUris: [],
    allowedScopes: ["openid"],
  });
  await db
    .insert(schema.oidcPayloads)
    .values({ projectId: keys.projectId, model: "Session", id: "s1", payload: {} });
  await db
    .insert(schema.oidcRsaKeys)
    .values({ projectId: keys.projectId, kid: `rsa-${keys.projectId}`, sealedPrivateJwk: "sealed" });
  await db.insert(schema.auditLog).values({
    id: randomUUID(),
    projectId: keys.projectId,
    type: "user.sign_in",
    actorType: "system",
    details: {},
  });
  const endpointId = randomUUID();
  await db.insert(schema.webhookEndpoints).values({
    id: endpointId,
    projectId: keys.projectId,
    url: "https://hooks.example.com",
    sealedSecret: "sealed",
    updatedAt: now,
  });
  const deliveryId = randomUUID();
  await db.insert(schema.webhookDeliveries).values({
    id: deliveryId,
    projectId: keys.projectId,
    endpointId,
    messageId: "msg_1",
    eventType: "user.created",
    body: "{}",
    status: "pending",
  });
  await db.insert(schema.webhookAttempts).values({
    id: randomUUID(),
    projectId: keys.projectId,
    endpointId,
    deliveryId,
    messageId: "msg_1",
    eventType: "user.created",
    attemptNumber: 1,
    status: "failed",
    attemptedAt: now,
    durationMs: 5,
  });
  const importJobId = randomUUID();
  await db.insert(schema.importJobs).values({
    id: importJobId,
    projectId: keys.projectId,
    provider: "clerk",
    fileName: "users.csv",
    dryRun: false,
    status: "succeeded",
    total: 1,
  });
  await db
    .insert(schema.importJobRecords)
    .values({ jobId: importJobId, seq: 1, line: 2, skipReason: "no e-mail" });
}

describe("DELETE /projects/current", () => {
  it("removes the project and every row it owns, and leaves other projects alone", async () => {
    const keys = await newProject("Doomed");
    const survivor = await newProject("Survivor");
    await fillProject(keys);
    await fillProject(survivor);
    const before = await rowsPerTable(keys.projectId);
    expect(Object.keys(before).length).toBeGreaterThanOrEqual(18);
    // Every project-owned table has rows, so the check below proves each cascade.
    for (const [table, n] of Object.entries(before)) expect(n, table).toBeGreaterThan(0);
    const survivorBefore = await rowsPerTable(survivor.projectId);

    expect(await json(await send(admin(keys), "DELETE", CURRENT, {}))).toEqual({ success: true });

    const after = await rowsPerTable(keys.projectId);
    expect(after).toEqual(Object.fromEntries(Object.keys(before).map((table) => [table, 0])));
    expect(await server.deps.projectsRepo.find(keys.projectId)).toBeUndefined();
    expect(await rowsPerTable(survivor.projectId)).toEqual(survivorBefore);
    await expectKnownError(await send(admin(keys), "GET", CURRENT), "CURRENT_PROJECT_NOT_FOUND", {
      project_id: keys.projectId,
    });
  });

  it("also answers under /internal/projects/current, with no body or {}", async () => {
    const first = await newProject();
    expect(await json(await send(admin(first), "DELETE", INTERNAL_CURRENT))).toEqual({ success: true });
    expect(await server.deps.projectsRepo.find(first.projectId)).toBeUndefined();
    const second = await newProject();
    expect(await json(await send(admin(second), "DELETE", INTERNAL_CURRENT, {}))).toEqual({ success: true });
  });

  it("lets an owner delete with an admin access token", async () => {
    const keys = await newProject();
    const owner = await dashboardUser();
    await inTransaction(server.deps.db, (tx) =>
      server.deps.projectsRepo.setOwnerTeam(tx, keys.projectId, owner.teamId),
    );
    expect(
      await json(await send(adminToken(keys.projectId, owner.accessToken), "DELETE", CURRENT, {})),
    ).toEqual({
      success: true,
    });
    expect(await server.deps.projectsRepo.find(keys.projectId)).toBeUndefined();
  });

  it("refuses a body and the internal project", async () => {
    const keys = await newProject();
    expect(await schemaProblems(await send(admin(keys), "DELETE", CURRENT, { force: true }))).toContain(
      "  - body contains unknown properties: force",
    );
    expect(await server.deps.projectsRepo.find(keys.projectId)).toBeDefined();
    for (const path of [CURRENT, INTERNAL_CURRENT]) {
      await expectTextError(
        await send(admin(server.internal), "DELETE", path, {}),
        400,
        "The internal project cannot be deleted.",
      );
    }
    expect(await server.deps.projectsRepo.find("internal")).toBeDefined();
  });
});

describe("GET and POST /internal/projects", () => {
  it("creates a project owned by one of the user's teams, with defaults, definitions and keys", async () => {
    const user = await dashboardUser();
    const created = await json(
      await send(user.as("client"), "POST", PROJECTS, { display_name: "Shop", owner_team_id: user.teamId }),
      201,
    );
    const projectId = String(created.id);
    expect(projectId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created).toEqual({
      id: projectId,
      display_name: "Shop",
      description: null,
      created_at_millis: server.clock.now().getTime(),
      user_count: 0,
      is_production_mode: false,
      owner_team_id: user.teamId,
      ...NO_LOGOS,
      config: defaultConfig(projectId),
      production_mode_errors: [LOCALHOST],
    });
    const definitions = await server.deps.permissions.listDefinitions(projectId);
    expect(definitions.filter((d) => !d.id.startsWith("$"))).toEqual([
      {
        id: "team_admin",
        description: "Default permission for team admins",
        contained_permission_ids: [
          "$update_team",
          "$delete_team",
          "$read_members",
          "$remove_members",
          "$invite_members",
          "$manage_api_keys",
          "$manage_sso",
        ],
      },
      {
        id: "team_member",
        description: "Default permission for team members",
        contained_permission_ids: ["$read_members", "$invite_members"],
      },
    ]);
    const jwks = await json<{ keys: unknown[] }>(
      await server.request(`/api/v1/projects/${projectId}/.well-known/jwks.json`),
    );
    expect(jwks.keys).toHaveLength(1);
    // The creator administers it with an admin access token.
    expect(await json(await send(adminToken(projectId, user.accessToken), "GET", CURRENT))).toEqual(created);
    // And lists it.
    const list = await json<{ items: View[]; is_paginated: boolean }>(
      await send(user.as("client"), "GET", PROJECTS),
    );
    expect(list).toEqual({ items: [created], is_paginated: false });
  });

  it("applies the settings of the request, checked as a PATCH checks them", async () => {
    const user = await dashboardUser();
    const created = await json(
      await send(user.as("client"), "POST", PROJECTS, {
        display_name: "Live",
        owner_team_id: user.teamId,
        description: "In production from the start",
        is_production_mode: true,
        config: {
          allow_localhost: false,
          domains: [{ domain: "https://live.example.com" }],
          team_member_default_permissions: [{ id: "team_admin" }],
          oauth_providers: [{ id: "github", type: "standard", client_id: "i", client_secret: "live-secret" }],
        },
      }),
      201,
    );
    expect(created).toMatchObject({
      display_name: "Live",
      description: "In production from the start",
      is_production_mode: true,
      production_mode_errors: [],
    });
    expect(created.config).toMatchObject({
      allow_localhost: false,
      domains: [{ domain: "https://live.example.com", handler_path: "/handler" }],
      team_member_default_permissions: [{ id: "team_admin" }],
    });
    const row = await server.deps.projectsRepo.find(String(created.id));
    expect(JSON.stringify(row?.config)).not.toContain("live-secret");
  });

  it("creates nothing when the settings are refused", async () => {
    const user = await dashboardUser();
    const create = (extra: Json) =>
      send(user.as("client"), "POST", PROJECTS, { display_name: "No", owner_team_id: user.teamId, ...extra });
    await expectTextError(await create({ is_production_mode: true }), 400, LOCALHOST);
    await expectKnownError(
      await create({ config: { team_creator_default_permissions: [{ id: "owner" }] } }),
      "PERMISSION_NOT_FOUND",
      { permission_id: "owner" },
    );
    await expectKnownError(
      await create({ config: { oauth_providers: [{ id: "discord", type: "shared" }] } }),
      "INVALID_SHARED_OAUTH_PROVIDER_ID",
      { provider_id: "discord" },
    );
    await expectKnownError(
      await create({
        config: { oauth_providers: [{ id: "orkut", type: "standard", client_id: "i", client_secret: "s" }] },
      }),
      "INVALID_STANDARD_OAUTH_PROVIDER_ID",
      { provider_id: "orkut" },
    );
    expect(await json(await send(user.as("client"), "GET", PROJECTS))).toEqual({
      items: [],
      is_paginated: false,
    });
  });

  it("lists only projects of the user's teams, for every access type", async () => {
    const alice = await dashboardUser();
    const bob = await dashboardUser();
    const aliceProject = await json(
      await send(alice.as("client"), "POST", PROJECTS, { display_name: "A", owner_team_id: alice.teamId }),
      201,
    );
    server.clock.advance(1000);
    const bobProject = await json(
      await send(bob.as("server"), "POST", PROJECTS, { display_name: "B", owner_team_id: bob.teamId }),
      201,
    );
    // Alice joins Bob's team: she now sees both, oldest first.
    await inTransaction(server.deps.db, async (tx) => {
      const internal = await server.deps.projectsRepo.find("internal", tx);
      if (!internal) throw new Error("no internal project");
      await server.deps.teams.addMember(tx, internal, bob.teamId, alice.userId, "member");
    });
    const ids = async (headers: Headers) =>
      (await json<{ items: View[] }>(await send(headers, "GET", PROJECTS))).items.map((p) => p.id);
    for (const type of ["client", "server", "admin"] as const) {
      expect(await ids(alice.as(type))).toEqual([aliceProject.id, bobProject.id]);
      expect(await ids(bob.as(type))).toEqual([bobProject.id]);
    }
    // The list shows live user counts.
    await server.signIn(String(bobProject.id));
    const [listed] = (await json<{ items: View[] }>(await send(bob.as("client"), "GET", PROJECTS))).items;
    expect(listed?.user_count).toBe(1);
  });

  it("needs a team the user belongs to", async () => {
    const user = await dashboardUser();
    const other = await dashboardUser();
    for (const teamId of [other.teamId, randomUUID()]) {
      await expectKnownError(
        await send(user.as("client"), "POST", PROJECTS, { display_name: "X", owner_team_id: teamId }),
        "TEAM_MEMBERSHIP_NOT_FOUND",
        { team_id: teamId, user_id: user.userId },
      );
    }
  });

  it("needs project internal, a user and an access type", async () => {
    const keys = await newProject();
    const { accessToken } = await server.signIn(keys.projectId);
    const elsewhere = { ...accessHeaders("client", keys), "x-stack-access-token": accessToken };
    await expectKnownError(await send(elsewhere, "GET", PROJECTS), "EXPECTED_INTERNAL_PROJECT");
    await expectKnownError(
      await send(elsewhere, "POST", PROJECTS, { display_name: "X", owner_team_id: randomUUID() }),
      "EXPECTED_INTERNAL_PROJECT",
    );
    for (const type of ["client", "server", "admin"] as const) {
      await expectKnownError(
        await send(accessHeaders(type, server.internal), "GET", PROJECTS),
        "USER_AUTHENTICATION_REQUIRED",
      );
    }
    await expectKnownError(
      await send(accessHeaders("client", server.internal), "POST", PROJECTS, {
        display_name: "X",
        owner_team_id: randomUUID(),
      }),
      "USER_AUTHENTICATION_REQUIRED",
    );
    await expectKnownError(await send({}, "GET", PROJECTS), "ACCESS_TYPE_REQUIRED");
    await expectKnownError(await send({}, "POST", PROJECTS, {}), "ACCESS_TYPE_REQUIRED");
  });

  it("refuses malformed bodies with a SCHEMA_ERROR", async () => {
    const user = await dashboardUser();
    const cases: [unknown, string][] = [
      [{ owner_team_id: user.teamId }, "body.display_name must be defined"],
      [{ display_name: "X" }, "body.owner_team_id must be defined"],
      [{ display_name: "X", owner_team_id: "team" }, "body.owner_team_id"],
      [{ display_name: "", owner_team_id: user.teamId }, "body.display_name"],
      [{ display_name: "X", owner_team_id: user.teamId, id: "mine" }, "body contains unknown properties: id"],
      [
        { display_name: "X", owner_team_id: user.teamId, config: { id: "mine" } },
        "body.config contains unknown properties: id",
      ],
    ];
    for (const [body, problem] of cases) {
      expect(await schemaProblems(await send(user.as("client"), "POST", PROJECTS, body))).toContain(
        `  - ${problem}`,
      );
    }
    expect(await schemaProblems(await send(user.as("client"), "POST", PROJECTS))).toContain("  - body");
  });
});
