// Issue 15 item 1, black-box: the account takeover through the development OAuth provider, against real server
// processes. On a default install nothing stands in for GitHub; with the instance's switch on, a typed address
// arrives unverified and never signs in to (or joins) the account that owns it, so the operator stays the operator.
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, type RunningServer, spawnServer } from "@gatehouse/server/testing/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIsolatedServer } from "../support.ts";

const APP_CALLBACK = "http://localhost:3000/handler/oauth-callback";
const OPERATOR = { email: "operator@example.com", password: "the operator's password" };

type Server = Awaited<ReturnType<typeof startIsolatedServer>>;
type Json = Record<string, unknown>;

const internalClient = (server: RunningServer) => ({
  "x-stack-access-type": "client",
  "x-stack-project-id": "internal",
  "x-stack-publishable-client-key": server.keys.pck,
});
const internalAdmin = (server: RunningServer) => ({
  "x-stack-access-type": "admin",
  "x-stack-project-id": "internal",
  "x-stack-super-secret-admin-key": server.keys.sak,
});

async function call(
  server: RunningServer,
  path: string,
  headers: Record<string, string>,
  init: RequestInit = {},
) {
  const res = await fetch(`${server.baseUrl}${path}`, { redirect: "manual", ...init, headers });
  return { res, body: (res.headers.get("content-type")?.includes("json") ? await res.json() : {}) as Json };
}

/** GET /auth/oauth/authorize/github in json mode, as the SDK asks: the provider URL, or the known error. */
async function authorize(server: RunningServer) {
  const verifier = randomBytes(32).toString("base64url");
  const query = new URLSearchParams({
    client_id: "internal",
    client_secret: server.keys.pck,
    redirect_uri: APP_CALLBACK,
    scope: "legacy",
    state: "app-state",
    grant_type: "authorization_code",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    response_type: "code",
    stack_response_mode: "json",
  });
  const { res, body } = await call(server, `/api/v1/auth/oauth/authorize/github?${query}`, {});
  return { res, body, verifier };
}

/** The whole attack: authorize, the development page typed with `email`, the callback: where the app lands. */
async function typeAddress(server: RunningServer, email: string) {
  const { res, body, verifier } = await authorize(server);
  expect(res.status, JSON.stringify(body)).toBe(200);
  const page = new URL(String(body.location));
  const chosen = await fetch(page, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      state: page.searchParams.get("state") ?? "",
      code_challenge: page.searchParams.get("code_challenge") ?? "",
      redirect_uri: page.searchParams.get("redirect_uri") ?? "",
      action: "allow",
      email,
      display_name: "Mallory",
    }),
  });
  expect(chosen.status).toBe(303);
  const callback = await fetch(chosen.headers.get("location") ?? "", { redirect: "manual" });
  expect(callback.status).toBe(303);
  return { landing: new URL(callback.headers.get("location") ?? ""), verifier, page };
}

describe("a default install (no OAuth keys, no development switch)", () => {
  let server: Server;
  beforeAll(async () => {
    server = await startIsolatedServer("dev-oauth-default");
  });
  afterAll(() => server?.stop());

  it("refuses GitHub for the internal project with a known error instead of standing in for it", async () => {
    const first = await authorize(server.server);
    expect(first.res.status).toBe(400);
    expect(first.res.headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    // Even with GitHub on shared keys in the project's settings, nothing stands in without the switch.
    const { res } = await call(
      server.server,
      "/api/v1/projects/current",
      {
        ...internalAdmin(server.server),
        "content-type": "application/json",
      },
      {
        method: "PATCH",
        body: JSON.stringify({
          config: { oauth_providers: [{ id: "github", type: "shared", enabled: true }] },
        }),
      },
    );
    expect(res.status).toBe(200);
    const again = await authorize(server.server);
    expect(again.res.status).toBe(400);
    expect(again.res.headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
  });

  it("refuses to start with the switch on under NODE_ENV=production", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "gatehouse-dev-oauth-production-"));
    const refused = spawnServer({
      PORT: String(await freePort()),
      GATEHOUSE_DATA_DIR: dataDir,
      NODE_ENV: "production",
      GATEHOUSE_DEVELOPMENT_OAUTH: "demo",
    });
    // Whichever comes first: the exit, or (were the switch accepted) the start-up banner.
    const started = new Promise<"started">((resolve) =>
      refused.child.stdout?.on("data", () => {
        if (refused.output().includes("Gatehouse is running at")) resolve("started");
      }),
    );
    try {
      expect(await Promise.race([refused.exited, started])).toBe(1);
      expect(refused.output()).toContain(
        "GATEHOUSE_DEVELOPMENT_OAUTH: the development OAuth provider is never",
      );
    } finally {
      if (refused.child.exitCode === null) refused.child.kill("SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the switch on for the internal project itself (GATEHOUSE_DEVELOPMENT_OAUTH=internal)", () => {
  let server: Server;
  let gatehouse: RunningServer;
  let operatorId: string;

  beforeAll(async () => {
    server = await startIsolatedServer("dev-oauth-switched", {
      GATEHOUSE_DEVELOPMENT_OAUTH: "internal",
      STACK_SEED_INTERNAL_PROJECT_OAUTH_PROVIDERS: "github,google",
      STACK_SEED_INTERNAL_PROJECT_USER_EMAIL: OPERATOR.email,
      STACK_SEED_INTERNAL_PROJECT_USER_PASSWORD: OPERATOR.password,
      STACK_SEED_INTERNAL_PROJECT_USER_INTERNAL_ACCESS: "true",
    });
    gatehouse = server.server;
    const signedIn = await call(
      gatehouse,
      "/api/v1/auth/password/sign-in",
      {
        ...internalClient(gatehouse),
        "content-type": "application/json",
      },
      { method: "POST", body: JSON.stringify(OPERATOR) },
    );
    expect(signedIn.res.status).toBe(200);
    operatorId = String(signedIn.body.user_id);
    // What the attack was after: the operator's token reads the internal project's API keys.
    const keys = await call(gatehouse, "/api/v1/internal/api-keys", {
      "x-stack-access-type": "admin",
      "x-stack-project-id": "internal",
      "x-stack-admin-access-token": String(signedIn.body.access_token),
    });
    expect(keys.res.status).toBe(200);
  });
  afterAll(() => server?.stop());

  /** The operator as the server sees them: the same id, address and verification, and no provider linked. */
  async function expectOperatorUntouched() {
    const { res, body } = await call(gatehouse, `/api/v1/users/${operatorId}`, internalAdmin(gatehouse));
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      id: operatorId,
      primary_email: OPERATOR.email,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      oauth_providers: [],
    });
  }

  it("shows a page that says it is a test stand-in, never framed, sending no referrer", async () => {
    const { body } = await authorize(gatehouse);
    const page = await fetch(String(body.location));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Test stand-in · not GitHub");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("form-action 'self' http://localhost:3000");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("refuses the operator's address with the catalogue's error: no code, the operator untouched", async () => {
    const { landing } = await typeAddress(gatehouse, OPERATOR.email);
    expect(landing.origin + landing.pathname).toBe(APP_CALLBACK);
    expect(landing.searchParams.get("code")).toBeNull();
    expect(landing.searchParams.get("errorCode")).toBe(
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
    );
    await expectOperatorUntouched();
  });

  it("with allow_duplicates, signs in a separate user whose copy of the address is unverified", async () => {
    const patched = await call(
      gatehouse,
      "/api/v1/projects/current",
      {
        ...internalAdmin(gatehouse),
        "content-type": "application/json",
      },
      {
        method: "PATCH",
        body: JSON.stringify({ config: { oauth_account_merge_strategy: "allow_duplicates" } }),
      },
    );
    expect(patched.res.status).toBe(200);

    const { landing, verifier } = await typeAddress(gatehouse, OPERATOR.email);
    const code = landing.searchParams.get("code");
    expect(code, landing.toString()).toBeTruthy();
    const exchanged = await fetch(`${gatehouse.baseUrl}/api/v1/auth/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: "internal",
        client_secret: gatehouse.keys.pck,
        code: code ?? "",
        redirect_uri: APP_CALLBACK,
        code_verifier: verifier,
      }),
    });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; is_new_user: boolean };
    expect(tokens.is_new_user).toBe(true);

    const me = await call(gatehouse, "/api/v1/users/me", {
      ...internalClient(gatehouse),
      "x-stack-access-token": tokens.access_token,
    });
    expect(me.res.status).toBe(200);
    expect(me.body.id).not.toBe(operatorId);
    expect(me.body).toMatchObject({ primary_email: OPERATOR.email, primary_email_verified: false });
    const asServer = await call(gatehouse, `/api/v1/users/${String(me.body.id)}`, internalAdmin(gatehouse));
    expect(asServer.body.primary_email_auth_enabled).toBe(false);

    // The token is no admin token: the internal project's keys stay out of reach.
    const keys = await call(gatehouse, "/api/v1/internal/api-keys", {
      "x-stack-access-type": "admin",
      "x-stack-project-id": "internal",
      "x-stack-admin-access-token": tokens.access_token,
    });
    expect(keys.res.status).not.toBe(200);
    expect(keys.res.headers.get("x-stack-known-error")).toBeTruthy();
    await expectOperatorUntouched();
  });
});
