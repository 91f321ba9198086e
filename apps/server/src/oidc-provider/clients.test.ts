// OAuth clients as project resources and what the user controls: the admin API (secret once, SHA-256 at rest,
// exact redirect URIs), public clients that must use PKCE, first-party clients without consent, a user's granted
// apps with revoke, and a ban or "sign out everywhere" ending what the user holds at the OpenID Provider.
import { eq } from "drizzle-orm";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../crypto/hash.ts";
import { oidcClients } from "../db/schema.ts";
import {
  api,
  Browser,
  CALLBACK,
  exchange,
  expectInvalidClient,
  type OpSuite,
  type Project,
  project,
  registerClient,
  rp,
  signIn,
  startOpSuite,
} from "../testing/oidc-relying-party.ts";
import { accessHeaders, type TestServer, uniqueEmail, withToken } from "../testing/test-server.ts";

let suite: OpSuite & { close: () => Promise<void> };
let server: TestServer;
let p: Project;
beforeAll(async () => {
  suite = await startOpSuite();
  server = suite.server;
  p = await project(suite);
});
afterAll(() => suite?.close());

const CLIENTS = "/api/v1/oidc-provider/clients";

describe("admin API for OAuth clients", () => {
  it("creates a confidential client whose secret is shown once and kept only as its hash", async () => {
    const created = await registerClient(suite, p);
    expect(created.client_secret).toMatch(/^[\w-]{40,}$/);
    const [row] = await server.deps.db
      .select()
      .from(oidcClients)
      .where(eq(oidcClients.clientId, created.client_id));
    expect(row?.secretHash).toBe(sha256Hex(created.client_secret ?? ""));
    const read = await api(suite, p, "GET", `${CLIENTS}/${created.client_id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty("client_secret");
    expect(read.body).toMatchObject({ type: "confidential", redirect_uris: [CALLBACK], first_party: false });
    const list = await api(suite, p, "GET", CLIENTS);
    expect((list.body.items as Array<{ client_id: string }>).map((c) => c.client_id)).toContain(
      created.client_id,
    );
  });

  it("updates and deletes a client; a deleted one is unknown to the provider", async () => {
    const created = await registerClient(suite, p);
    const updated = await api(suite, p, "PATCH", `${CLIENTS}/${created.client_id}`, {
      display_name: "Renamed",
      redirect_uris: ["https://rp.example.com/other"],
    });
    expect(updated.body).toMatchObject({
      display_name: "Renamed",
      redirect_uris: ["https://rp.example.com/other"],
    });
    const config = await rp(p, created);
    expect((await api(suite, p, "DELETE", `${CLIENTS}/${created.client_id}`)).status).toBe(200);
    expect((await api(suite, p, "GET", `${CLIENTS}/${created.client_id}`)).body.code).toBe(
      "OIDC_CLIENT_NOT_FOUND",
    );
    await expectInvalidClient(oidc.tokenIntrospection(config, "x"));
  });

  it("refuses bad input and other projects' clients with known errors", async () => {
    const bad = await api(suite, p, "POST", CLIENTS, {
      display_name: "x",
      type: "public",
      redirect_uris: ["https://rp.example.com/cb#fragment"],
    });
    expect(bad.body.code).toBe("SCHEMA_ERROR");
    const created = await registerClient(suite, p);
    const other = await project(suite);
    expect((await api(suite, other, "GET", `${CLIENTS}/${created.client_id}`)).body.code).toBe(
      "OIDC_CLIENT_NOT_FOUND",
    );
    const asClient = await api(suite, p, "GET", CLIENTS, undefined, accessHeaders("client", p.keys));
    expect(asClient.status).toBe(401);
  });
});

describe("token endpoint authentication per client", () => {
  /** A relying party that sends the secret the way `auth` does. */
  const rpWith = (client: { client_id: string; client_secret: string | null }, auth: oidc.ClientAuth) =>
    oidc.discovery(new URL(p.issuer), client.client_id, client.client_secret ?? undefined, auth, {
      execute: [oidc.allowInsecureRequests],
    });

  it("records client_secret_post for the client, and the token endpoint takes the secret in the body", async () => {
    const created = await registerClient(suite, p, { token_endpoint_auth_method: "client_secret_post" });
    const read = await api(suite, p, "GET", `${CLIENTS}/${created.client_id}`);
    expect(read.body.token_endpoint_auth_method).toBe("client_secret_post");
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const secret = created.client_secret ?? "";
    const post = await rpWith(created, oidc.ClientSecretPost(secret));
    const tokens = await exchange(post, await signIn(suite, p, post, user));
    expect(tokens.access_token).toBeTruthy();
  });

  // oidc-provider alone takes basic and post interchangeably for a secret-based client; provider.ts accepts only
  // the registered one (RFC 7591 §2), so a secret sent the other way is invalid_client.
  it("keeps client_secret_basic by default, switches by update, and reports none for public clients", async () => {
    const created = await registerClient(suite, p);
    const read = await api(suite, p, "GET", `${CLIENTS}/${created.client_id}`);
    expect(read.body.token_endpoint_auth_method).toBe("client_secret_basic");
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const secret = created.client_secret ?? "";
    const basic = await rpWith(created, oidc.ClientSecretBasic(secret));
    expect((await oidc.tokenIntrospection(basic, "x")).active).toBe(false);
    const postBefore = await rpWith(created, oidc.ClientSecretPost(secret));
    await expectInvalidClient(oidc.tokenIntrospection(postBefore, "x"));

    const updated = await api(suite, p, "PATCH", `${CLIENTS}/${created.client_id}`, {
      token_endpoint_auth_method: "client_secret_post",
    });
    expect(updated.body.token_endpoint_auth_method).toBe("client_secret_post");
    const post = await rpWith(created, oidc.ClientSecretPost(secret));
    const tokens = await exchange(post, await signIn(suite, p, post, user));
    expect(tokens.access_token).toBeTruthy();
    await expectInvalidClient(oidc.tokenIntrospection(basic, "x"));

    const bad = await api(suite, p, "PATCH", `${CLIENTS}/${created.client_id}`, {
      token_endpoint_auth_method: "private_key_jwt",
    });
    expect(bad.status).toBe(400);
    const publicClient = await registerClient(suite, p, { type: "public" });
    const readPublic = await api(suite, p, "GET", `${CLIENTS}/${publicClient.client_id}`);
    expect(readPublic.body.token_endpoint_auth_method).toBe("none");
  });
});

describe("public and first-party clients", () => {
  it("lets a public client in only with PKCE", async () => {
    const created = await registerClient(suite, p, { type: "public", first_party: true });
    expect(created.client_secret).toBeNull();
    const config = await rp(p, created);
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const started = await signIn(suite, p, config, user);
    expect(started.consent.consent_required).toBe(false);
    expect((await exchange(config, started)).claims()?.sub).toBe(user.userId);
    // Without a code challenge the authorization request itself is refused, on the redirect.
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: "openid", state: "s" });
    const landed = new URL(await new Browser().follow(url.href, p.issuer));
    expect(landed.searchParams.get("error")).toBe("invalid_request");
  });
});

describe("the user's granted apps, bans and signing out everywhere", () => {
  it("lists granted apps and revokes one: its tokens end", async () => {
    const created = await registerClient(suite, p);
    const config = await rp(p, created);
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const tokens = await exchange(config, await signIn(suite, p, config, user));
    const asUser = { ...accessHeaders("client", p.keys), ...withToken(user.accessToken) };
    const grants = await api(suite, p, "GET", "/api/v1/oidc-provider/grants", undefined, asUser);
    expect(grants.body.items).toEqual([
      expect.objectContaining({
        client_id: created.client_id,
        display_name: "Wiki",
        scopes: expect.any(Array),
      }),
    ]);
    const revoked = await api(
      suite,
      p,
      "DELETE",
      `/api/v1/oidc-provider/grants/${created.client_id}`,
      undefined,
      asUser,
    );
    expect(revoked.status).toBe(200);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
    const after = await api(suite, p, "GET", "/api/v1/oidc-provider/grants", undefined, asUser);
    expect(after.body.items).toEqual([]);
  });

  it("ends the OP session, grants and tokens of a banned user", async () => {
    const created = await registerClient(suite, p);
    const config = await rp(p, created);
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const started = await signIn(suite, p, config, user);
    const tokens = await exchange(config, started);
    const ban = await server.request(`/api/v1/users/${user.userId}`, {
      method: "PATCH",
      headers: { ...accessHeaders("server", p.keys), "content-type": "application/json" },
      body: JSON.stringify({ restricted_by_admin: true }),
    });
    expect(ban.status).toBe(200);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
    // The OP session in the same browser is gone too: prompt=none now needs a sign-in.
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: "openid",
      prompt: "none",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const landed = new URL(await started.browser.follow(url.href, p.issuer));
    expect(landed.searchParams.get("error")).toBe("login_required");
  });

  it("signs in silently with prompt=none while the OP session lives", async () => {
    const created = await registerClient(suite, p);
    const config = await rp(p, created);
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const started = await signIn(suite, p, config, user);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: "openid",
      prompt: "none",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const landed = new URL(await started.browser.follow(url.href, p.issuer));
    expect(landed.searchParams.get("code")).toBeTruthy();
    const tokens = await oidc.authorizationCodeGrant(config, landed, { pkceCodeVerifier: verifier });
    expect(tokens.claims()?.sub).toBe(user.userId);
  });
});

describe("fresh sign-in (prompt=login)", () => {
  it("refuses a session older than the request, accepts a newer one, and reports its start as auth_time", async () => {
    const created = await registerClient(suite, p);
    const config = await rp(p, created);
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    // The request must come in a later second than the session began (its iat and auth_time are whole seconds). The
    // test clock stands at the server's start, which on a fast machine was still the request's own second.
    const sessionSecond = Math.floor(server.clock.now().getTime() / 1000);
    while (Math.floor(Date.now() / 1000) <= sessionSecond) await new Promise((r) => setTimeout(r, 50));
    const browser = new Browser();
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: "openid",
      prompt: "login",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const page = new URL(await browser.follow(url.href, p.issuer));
    const interaction = `/api/v1/oidc-provider/interactions/${page.searchParams.get("interaction_id")}`;
    const as = (token: string) => ({ ...accessHeaders("client", p.keys), ...withToken(token) });
    // The session is too old for prompt=login.
    const details = await api(suite, p, "GET", interaction, undefined, as(user.accessToken));
    expect(details.body.sign_in_required).toBe(true);
    const refused = await api(suite, p, "POST", `${interaction}/accept`, {}, as(user.accessToken));
    expect(refused).toMatchObject({ status: 403, body: { code: "OIDC_FRESH_SIGN_IN_REQUIRED" } });

    // Signed in again after the request: accepted, and auth_time is when that session began.
    server.clock.set(new Date(Date.now() + 5000));
    const record = await server.deps.usersRepo.find(p.keys.projectId, user.userId);
    if (!record) throw new Error("user gone");
    const again = await server.deps.sessions.signInNew(async () => record, "password");
    const token = await server.deps.sessions.mintAccessToken(record, again.sessionId);
    expect((await api(suite, p, "GET", interaction, undefined, as(token))).body.sign_in_required).toBe(false);
    const accepted = await api(suite, p, "POST", `${interaction}/accept`, {}, as(token));
    const landed = new URL(await browser.follow(String(accepted.body.redirect_url), p.issuer));
    const tokens = await oidc.authorizationCodeGrant(config, landed, { pkceCodeVerifier: verifier });
    expect(tokens.claims()?.auth_time).toBe(Math.floor(server.clock.now().getTime() / 1000));
  });
});

describe("RP-initiated logout", () => {
  it("asks, signs the user out of the OP and returns to the registered post-logout URI", async () => {
    const created = await registerClient(suite, p, {
      post_logout_redirect_uris: ["https://rp.example.com/bye"],
    });
    const config = await rp(p, created);
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const started = await signIn(suite, p, config, user);
    const tokens = await exchange(config, started);
    const end = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token ?? "",
      post_logout_redirect_uri: "https://rp.example.com/bye",
      state: "bye-state",
    });
    const confirm = await started.browser.get(end.href);
    expect(confirm.status).toBe(200);
    const html = await confirm.text();
    expect(html).not.toContain("googleapis");
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? "";
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const answer = await fetch(new URL(action, p.issuer), {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: [...started.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
      },
      body: new URLSearchParams({ xsrf, logout: "yes" }),
    });
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get("location") ?? "");
    expect(back.origin + back.pathname).toBe("https://rp.example.com/bye");
    expect(back.searchParams.get("state")).toBe("bye-state");
    // A post-logout URI that is not registered is refused.
    const wrong = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token ?? "",
      post_logout_redirect_uri: "https://evil.example.com/",
    });
    expect((await fetch(wrong, { redirect: "manual" })).status).toBe(400);
  });
});
