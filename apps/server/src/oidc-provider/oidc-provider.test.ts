// Gatehouse as an OpenID Provider, driven by a certified relying party (openid-client 6) over real HTTP: the app
// served on a loopback port, discovery, the code flow with PKCE through our consent step (the handler page's API
// calls, made here as the page would), id_token claims, userinfo, refresh rotation with reuse detection,
// introspection and revocation; and the refusals: wrong redirect_uri, reused code, wrong verifier, refresh reuse,
// another project's token, prompt=none without a session.
import { decodeJwt } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
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
import { type TestServer, uniqueEmail } from "../testing/test-server.ts";

let suite: OpSuite & { close: () => Promise<void> };
let server: TestServer;
beforeAll(async () => {
  suite = await startOpSuite();
  server = suite.server;
});
afterAll(() => suite?.close());

describe("OpenID Provider with openid-client", () => {
  let p: Project;
  let client: { client_id: string; client_secret: string | null };
  let config: oidc.Configuration;
  let user: Awaited<ReturnType<TestServer["signIn"]>>;
  let email: string;

  beforeAll(async () => {
    p = await project(suite);
    client = await registerClient(suite, p);
    config = await rp(p, client);
    email = uniqueEmail();
    user = await server.signIn(p.keys.projectId, { email });
  });

  it("publishes discovery, the project's ES256 keys and its OpenID Provider RS256 key", async () => {
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(p.issuer);
    expect(metadata.code_challenge_methods_supported).toContain("S256");
    expect(metadata.id_token_signing_alg_values_supported).toEqual(["ES256", "RS256"]);
    const jwks = (await (await fetch(String(metadata.jwks_uri))).json()) as {
      keys: Array<{ kid: string; kty: string; d?: string }>;
    };
    const published = await server.deps.signingKeys.jwks(p.keys.projectId, {
      restricted: false,
      anonymous: false,
    });
    const ec = jwks.keys.filter((k) => k.kty === "EC");
    expect(ec.map((k) => k.kid).sort()).toEqual(published.map((k) => k.kid).sort());
    expect(jwks.keys.filter((k) => k.kty === "RSA")).toHaveLength(1);
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
  });

  it("runs the code flow with PKCE: consent, id_token, userinfo", async () => {
    const started = await signIn(suite, p, config, user);
    expect(started.consent).toMatchObject({
      client: {
        client_id: client.client_id,
        display_name: "Wiki",
        logo_url: "https://rp.example.com/logo.png",
      },
      consent_required: true,
    });
    expect(started.consent.scopes).toEqual(
      expect.arrayContaining(["openid", "profile", "email", "offline_access"]),
    );
    const tokens = await exchange(config, started);
    const claims = tokens.claims();
    expect(claims?.sub).toBe(user.userId);
    expect(claims?.nonce).toBe(started.nonce);
    expect(typeof claims?.auth_time).toBe("number");
    // at_hash is optional in the code flow (Core 1.0 §3.1.3.6), and oidc-provider leaves it out there.
    expect(decodeJwt(tokens.id_token ?? "")).toMatchObject({ iss: p.issuer, aud: client.client_id });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.userId);
    expect(info).toMatchObject({ sub: user.userId, email, email_verified: true });
  });

  it("remembers consent: the next sign-in needs none", async () => {
    const again = await signIn(suite, p, config, user);
    expect(again.consent.consent_required).toBe(false);
    expect(again.consent.scopes).toEqual([]);
  });

  it("rotates refresh tokens and revokes the grant when a used one comes back", async () => {
    const tokens = await exchange(config, await signIn(suite, p, config, user));
    const first = tokens.refresh_token ?? "";
    expect(first).not.toBe("");
    const rotated = await oidc.refreshTokenGrant(config, first);
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(first);
    await expect(oidc.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: "invalid_grant" });
    // Reuse ended the whole grant: the rotated token and its access token are dead too.
    await expect(oidc.refreshTokenGrant(config, rotated.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
    expect((await oidc.tokenIntrospection(config, rotated.access_token)).active).toBe(false);
  });

  it("introspects and revokes access tokens", async () => {
    const tokens = await exchange(config, await signIn(suite, p, config, user));
    const live = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(live).toMatchObject({ active: true, sub: user.userId, client_id: client.client_id });
    await oidc.tokenRevocation(config, tokens.access_token);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(oidc.fetchUserInfo(config, tokens.access_token, user.userId)).rejects.toBeDefined();
  });

  it("refuses a reused code, and ends the tokens it gave", async () => {
    const started = await signIn(suite, p, config, user);
    const tokens = await exchange(config, started);
    await expect(exchange(config, started)).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
  });

  it("refuses a code with the wrong verifier", async () => {
    const started = await signIn(suite, p, config, user);
    await expect(exchange(config, started, oidc.randomPKCECodeVerifier())).rejects.toMatchObject({
      error: "invalid_grant",
    });
  });

  it("refuses a redirect_uri that is not registered exactly, without redirecting", async () => {
    for (const redirect of [`${CALLBACK}/`, `${CALLBACK}?x=1`, "https://evil.example.com/callback"]) {
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirect,
        scope: "openid",
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: "S256",
      });
      const res = await fetch(url, { redirect: "manual" });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain("invalid_redirect_uri");
    }
  });

  it("answers prompt=none without a session with login_required on the redirect", async () => {
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: "openid",
      prompt: "none",
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const landed = new URL(await new Browser().follow(url.href, p.issuer));
    expect(landed.origin + landed.pathname).toBe(CALLBACK);
    expect(landed.searchParams.get("error")).toBe("login_required");
    expect(landed.searchParams.get("state")).toBe(state);
  });

  it("does not accept another project's tokens or clients", async () => {
    const other = await project(suite);
    const otherClient = await registerClient(suite, other);
    const otherConfig = await rp(other, otherClient);
    const tokens = await exchange(config, await signIn(suite, p, config, user));
    expect((await oidc.tokenIntrospection(otherConfig, tokens.access_token)).active).toBe(false);
    await expect(oidc.fetchUserInfo(otherConfig, tokens.access_token, user.userId)).rejects.toBeDefined();
    // This project's client does not exist at the other project's provider.
    await expectInvalidClient(rp(other, client).then((c) => oidc.tokenIntrospection(c, tokens.access_token)));
  });

  it("refuses a wrong client secret", async () => {
    const wrong = await rp(p, { client_id: client.client_id, client_secret: "not-the-secret" });
    await expectInvalidClient(oidc.tokenIntrospection(wrong, "x"));
  });
});
