// Which backend serves a provider (WIRE.md §7): the instance's OAuth app for shared providers when configured, the
// development provider for the projects the instance's switch names (never in production mode, never the internal
// project through `*`), and the project's own app for standard ones. Checked through the authorization URL each
// backend builds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../crypto/secret-box.ts";
import { createTestServer, TEST_BASE_URL, TEST_SECRET, type TestServer } from "../testing/test-server.ts";
import { createDevelopmentProvider } from "./development-provider.ts";
import { createProviderDirectory } from "./directory.ts";

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

function directory(sharedCredentials = {}, developmentProjects: string[] = []) {
  const now = () => server.clock.now().getTime();
  return createProviderDirectory({
    baseUrl: TEST_BASE_URL,
    clock: server.clock,
    secrets: server.deps.projectSecrets,
    development: createDevelopmentProvider({
      box: createSecretBox(TEST_SECRET, "dev"),
      baseUrl: TEST_BASE_URL,
      now,
    }),
    sharedCredentials,
    developmentProjects,
  });
}

async function projectWith(providers: unknown[], isProductionMode = false) {
  const { project } = await server.createProject({
    isProductionMode,
    config: { oauth_providers: providers as never, allow_localhost: !isProductionMode },
  });
  return project;
}

const urlOf = async (
  dir: ReturnType<typeof directory>,
  project: Awaited<ReturnType<typeof projectWith>>,
  id: string,
) => {
  const { backend, shared, redirectUri } = await dir.resolve(project, id);
  const url = new URL(
    await backend.authorizationUrl({ state: "st", codeChallenge: "ch", redirectUri, extraScopes: ["repo"] }),
  );
  return { url, shared };
};

describe("the provider directory", () => {
  it("sends shared providers to the instance's OAuth app when it has one", async () => {
    const project = await projectWith([{ id: "github", type: "shared", enabled: true }], true);
    const { url, shared } = await urlOf(
      directory({ github: { clientId: "gh-id", clientSecret: "s" } }),
      project,
      "github",
    );
    expect(shared).toBe(true);
    expect(url.origin + url.pathname).toBe("https://github.com/login/oauth/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "gh-id",
      redirect_uri: `${TEST_BASE_URL}/api/v1/auth/oauth/callback/github`,
      response_type: "code",
      state: "st",
      code_challenge: "ch",
      code_challenge_method: "S256",
      scope: "user:email repo",
    });
  });

  it("serves shared providers without instance keys with the development provider only where switched on", async () => {
    const dev = await projectWith([{ id: "google", type: "shared", enabled: true }]);
    const notFound = { code: "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED" };
    // No switch: nothing stands in, whatever the project.
    await expect(directory().resolve(dev, "google")).rejects.toMatchObject(notFound);
    await expect(directory({}, ["someone-else"]).resolve(dev, "google")).rejects.toMatchObject(notFound);
    for (const switched of [[dev.id], ["*"]]) {
      const { url } = await urlOf(directory({}, switched), dev, "google");
      expect(url.origin + url.pathname).toBe(`${TEST_BASE_URL}/api/v1/auth/oauth/development/google`);
      expect((await directory({}, switched).resolve(dev, "google")).development).toBe(true);
    }
    // Never in production mode, even when named.
    const live = await projectWith([{ id: "google", type: "shared", enabled: true }], true);
    await expect(directory({}, [live.id, "*"]).resolve(live, "google")).rejects.toMatchObject(notFound);
    // Instance keys win over the switch: the real provider, and its identities are not development ones.
    const keyed = directory({ google: { clientId: "g", clientSecret: "s" } }, ["*"]);
    expect((await keyed.resolve(dev, "google")).development).toBe(false);
  });

  it("never lets `*` cover the internal project: it must be named", async () => {
    const internal = await server.deps.projects.find("internal");
    if (!internal) throw new Error("no internal project");
    expect(directory({}, ["*"]).sharedUsable(internal, "github")).toBe(false);
    expect(directory({}, ["internal"]).sharedUsable(internal, "github")).toBe(true);
    expect(directory({ github: { clientId: "g", clientSecret: "s" } }).sharedUsable(internal, "github")).toBe(
      true,
    );
    expect(directory().sharedUsable(internal, "github")).toBe(false);
  });

  it("uses the project's own app for standard providers, with the Microsoft tenant and Facebook configuration", async () => {
    const project = await projectWith([
      {
        id: "microsoft",
        type: "standard",
        enabled: true,
        client_id: "ms",
        client_secret: "x",
        microsoft_tenant_id: "contoso",
      },
      {
        id: "facebook",
        type: "standard",
        enabled: true,
        client_id: "fb",
        client_secret: "x",
        facebook_config_id: "cfg",
      },
      { id: "x", type: "standard", enabled: false, client_id: "x", client_secret: "x" },
    ]);
    const ms = await urlOf(directory(), project, "microsoft");
    expect(ms.shared).toBe(false);
    expect(ms.url.origin + ms.url.pathname).toBe(
      "https://login.microsoftonline.com/contoso/oauth2/v2.0/authorize",
    );
    expect(ms.url.searchParams.get("client_id")).toBe("ms");
    const fb = await urlOf(directory(), project, "facebook");
    expect(fb.url.searchParams.get("config_id")).toBe("cfg");
    expect(fb.url.searchParams.has("scope")).toBe(false);
    await expect(directory().resolve(project, "x")).rejects.toMatchObject({
      code: "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
    });
  });
});
