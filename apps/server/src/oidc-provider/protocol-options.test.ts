// The OpenID Provider's per-client options and session ties, against openid-client and a real relying party's
// endpoints on loopback: amr/acr from how the user signed in, RS256 id_tokens, private_key_jwt (inline keys and a
// jwks_uri, which goes through the public-address guard), back-channel logout when the Gatehouse session ends
// (the logout_token checked with jose), and expired id_token_hints.
import { createServer, type Server } from "node:http";
import { eq, inArray } from "drizzle-orm";
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oidcPayloads } from "../db/schema.ts";
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
  rs256Rp,
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

/** A user who signed up with a password over HTTP: a real session whose sign-in method is recorded. */
async function passwordUser(s: OpSuite, keys: Project["keys"]) {
  const res = await s.server.request("/api/v1/auth/password/sign-up", {
    method: "POST",
    headers: { ...accessHeaders("client", keys), "content-type": "application/json" },
    body: JSON.stringify({ email: uniqueEmail("op"), password: "correct horse battery" }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string; refresh_token: string; user_id: string };
  return { accessToken: body.access_token, refreshToken: body.refresh_token, userId: body.user_id };
}

/** A relying party's endpoint on loopback that records what is posted to it (a JWKS or a logout receiver). */
async function endpoint(answer: { status: number; body?: string }) {
  const received: string[] = [];
  const http: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push(body);
      res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hook`;
  return { url, received, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
}

const silentUrl = async (config: oidc.Configuration, extra: Record<string, string> = {}) =>
  oidc.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: "openid",
    prompt: "none",
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: "S256",
    ...extra,
  });

describe("amr and acr", () => {
  it("puts how the user signed in into the id_token, and publishes the acr values", async () => {
    const client = await registerClient(suite, p);
    const config = await rp(p, client);
    expect(config.serverMetadata().acr_values_supported).toEqual([
      "urn:gatehouse:acr:1fa",
      "urn:gatehouse:acr:mfa",
    ]);
    expect(config.serverMetadata().claims_supported).toEqual(expect.arrayContaining(["amr", "acr"]));
    const user = await passwordUser(suite, p.keys);
    const claims = (await exchange(config, await signIn(suite, p, config, user))).claims();
    expect(claims).toMatchObject({ sub: user.userId, amr: ["pwd"], acr: "urn:gatehouse:acr:1fa" });
  });

  it("leaves them out for a session nobody signed in to (one a server opened)", async () => {
    const client = await registerClient(suite, p);
    const config = await rp(p, client);
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const claims = (await exchange(config, await signIn(suite, p, config, user))).claims();
    expect(claims?.amr).toBeUndefined();
    expect(claims?.acr).toBeUndefined();
  });
});

describe("RS256 for clients that ask for it", () => {
  it("signs the client's id_tokens with the project's RSA key from the JWKS; others stay ES256", async () => {
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const rsaClient = await registerClient(suite, p, { id_token_signed_response_alg: "RS256" });
    const rsa = await rs256Rp(p, rsaClient);
    const idToken = (await exchange(rsa, await signIn(suite, p, rsa, user))).id_token ?? "";
    expect(decodeProtectedHeader(idToken).alg).toBe("RS256");
    const jwks = createRemoteJWKSet(new URL(String(rsa.serverMetadata().jwks_uri)));
    const verified = await jwtVerify(idToken, jwks, { issuer: p.issuer, audience: rsaClient.client_id });
    expect(verified.payload.sub).toBe(user.userId);

    const ecClient = await registerClient(suite, p);
    const ec = await rp(p, ecClient);
    const ecToken = (await exchange(ec, await signIn(suite, p, ec, user))).id_token ?? "";
    expect(decodeProtectedHeader(ecToken).alg).toBe("ES256");
  });
});

/** A key pair the relying party keeps, its public half as registered with the provider. */
async function clientKeys() {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "rp-1", alg: "ES256", use: "sig" };
  return { privateKey, jwks: { keys: [jwk] } };
}

const keyRp = (client: { client_id: string }, key: CryptoKey) =>
  oidc.discovery(new URL(p.issuer), client.client_id, undefined, oidc.PrivateKeyJwt({ key, kid: "rp-1" }), {
    execute: [oidc.allowInsecureRequests],
  });

describe("private_key_jwt", () => {
  it("authenticates a client by its registered keys, and refuses an assertion signed with another key", async () => {
    const keys = await clientKeys();
    const client = await registerClient(suite, p, {
      token_endpoint_auth_method: "private_key_jwt",
      jwks: keys.jwks,
    });
    expect(client.client_secret).toBeNull();
    const config = await keyRp(client, keys.privateKey);
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const tokens = await exchange(config, await signIn(suite, p, config, user));
    expect(tokens.claims()?.sub).toBe(user.userId);

    const stranger = await keyRp(client, (await clientKeys()).privateKey);
    await expectInvalidClient(oidc.tokenIntrospection(stranger, tokens.access_token));
    // A secret is no way in for a client registered with keys.
    const secret = await rp(p, { client_id: client.client_id, client_secret: "anything" });
    await expectInvalidClient(oidc.tokenIntrospection(secret, tokens.access_token));
  });

  it("reads the keys from the client's jwks_uri", async () => {
    const keys = await clientKeys();
    const jwksServer = await endpoint({ status: 200, body: JSON.stringify(keys.jwks) });
    try {
      const client = await registerClient(suite, p, {
        token_endpoint_auth_method: "private_key_jwt",
        jwks_uri: jwksServer.url,
      });
      const config = await keyRp(client, keys.privateKey);
      expect((await oidc.tokenIntrospection(config, "x")).active).toBe(false);
      expect(jwksServer.received.length).toBeGreaterThan(0);
    } finally {
      await jwksServer.close();
    }
  });

  it("refuses keys without private_key_jwt, and private_key_jwt without keys", async () => {
    const keys = await clientKeys();
    const res = (body: Record<string, unknown>) =>
      server.request("/api/v1/oidc-provider/clients", {
        method: "POST",
        headers: { ...accessHeaders("admin", p.keys), "content-type": "application/json" },
        body: JSON.stringify({ display_name: "X", type: "confidential", redirect_uris: [CALLBACK], ...body }),
      });
    expect((await res({ jwks: keys.jwks })).status).toBe(400);
    expect((await res({ token_endpoint_auth_method: "private_key_jwt" })).status).toBe(400);
    const priv = { keys: [await exportJWK(keys.privateKey)] };
    expect((await res({ token_endpoint_auth_method: "private_key_jwt", jwks: priv })).status).toBe(400);
  });
});

describe("back-channel logout", () => {
  async function signedInApp(receiver: { url: string }) {
    const client = await registerClient(suite, p, { backchannel_logout_uri: receiver.url });
    const config = await rp(p, client);
    const user = await passwordUser(suite, p.keys);
    const started = await signIn(suite, p, config, user);
    await exchange(config, started);
    return { client, config, user, started };
  }

  async function logoutTokenOf(received: string, clientId: string) {
    const token = new URLSearchParams(received).get("logout_token") ?? "";
    const jwks = createRemoteJWKSet(new URL(`${p.issuer}/jwks`));
    return (await jwtVerify(token, jwks, { issuer: p.issuer, audience: clientId, typ: "logout+jwt" }))
      .payload;
  }

  /** Sends what is due: exactly one logout_token, for this app and user with a session id; answers its claims. */
  async function theOneNotice(receiver: { received: string[] }, clientId: string, sub: string) {
    expect(await server.deps.oidcProvider.backchannel.sendDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const payload = await logoutTokenOf(receiver.received[0] ?? "", clientId);
    expect(payload.sub).toBe(sub);
    expect(typeof payload.sid).toBe("string");
    return payload;
  }

  it("tells the app with a logout_token when the user signs out of Gatehouse, and ends the OP session", async () => {
    const receiver = await endpoint({ status: 200 });
    try {
      const { client, config, user, started } = await signedInApp(receiver);
      const out = await server.request("/api/v1/auth/sessions/current", {
        method: "DELETE",
        headers: {
          ...accessHeaders("client", p.keys),
          ...withToken(user.accessToken),
          "x-stack-refresh-token": user.refreshToken,
          "content-type": "application/json",
        },
        body: "{}",
      });
      expect(out.status).toBe(200);
      const payload = await theOneNotice(receiver, client.client_id, user.userId);
      expect(payload.events).toEqual({ "http://schemas.openid.net/event/backchannel-logout": {} });
      expect(payload.nonce).toBeUndefined();
      // Sent once: nothing is left to send.
      expect(await server.deps.oidcProvider.backchannel.sendDue()).toBe(0);
      const landed = new URL(await started.browser.follow((await silentUrl(config)).href, p.issuer));
      expect(landed.searchParams.get("error")).toBe("login_required");
    } finally {
      await receiver.close();
    }
  });

  it("tells the app when the user is deleted, with the notice queued in the deletion's transaction", async () => {
    const receiver = await endpoint({ status: 200 });
    try {
      const { client, user } = await signedInApp(receiver);
      const gone = await server.request(`/api/v1/users/${user.userId}`, {
        method: "DELETE",
        headers: { ...accessHeaders("server", p.keys), "content-type": "application/json" },
        body: "{}",
      });
      expect(gone.status).toBe(200);
      await theOneNotice(receiver, client.client_id, user.userId);
      // Nothing of the user is left at the provider (the notice itself is sent and deleted).
      const left = await server.deps.db
        .select({ id: oidcPayloads.id })
        .from(oidcPayloads)
        .where(eq(oidcPayloads.accountId, user.userId));
      expect(left).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("tells the app when the user is banned; an app that fails is tried again later", async () => {
    const receiver = await endpoint({ status: 500 });
    try {
      const { user } = await signedInApp(receiver);
      const ban = await server.request(`/api/v1/users/${user.userId}`, {
        method: "PATCH",
        headers: { ...accessHeaders("server", p.keys), "content-type": "application/json" },
        body: JSON.stringify({ restricted_by_admin: true }),
      });
      expect(ban.status).toBe(200);
      expect(await server.deps.oidcProvider.backchannel.sendDue()).toBe(0);
      expect(receiver.received).toHaveLength(1);
      // Not again at once: a failed notice waits a minute.
      await server.deps.oidcProvider.backchannel.sendDue();
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe("the background worker", () => {
  it("sweeps provider records past their expiry and keeps live ones", async () => {
    const now = server.clock.now().getTime();
    const row = (id: string, expiresAt: number) => ({
      projectId: p.keys.projectId,
      model: "AccessToken",
      id,
      payload: {},
      expiresAt: new Date(expiresAt),
    });
    await server.deps.db
      .insert(oidcPayloads)
      .values([row("swept-old", now - 1000), row("swept-live", now + 60_000)]);
    await server.deps.oidcProvider.backchannel.worker.runOnce();
    const left = await server.deps.db
      .select({ id: oidcPayloads.id })
      .from(oidcPayloads)
      .where(inArray(oidcPayloads.id, ["swept-old", "swept-live"]));
    expect(left.map((r) => r.id)).toEqual(["swept-live"]);
  });
});

describe("expired id_token_hint", () => {
  /** An id_token for `sub` that expired an hour ago, signed with `key` (by default the project's signing key). */
  async function expiredHint(clientId: string, sub: string, key?: CryptoKey) {
    const [jwk] = await server.deps.signingKeys.privateJwks(p.keys.projectId);
    const signer = key ?? ((await importJWK(jwk as JWK, "ES256")) as CryptoKey);
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ sub })
      .setProtectedHeader({ alg: "ES256", kid: String(jwk?.kid) })
      .setIssuer(p.issuer)
      .setAudience(clientId)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(signer);
  }

  it("does not sign in silently the user an expired hint names when the OP session is someone else's", async () => {
    const client = await registerClient(suite, p);
    const config = await rp(p, client);
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const other = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const started = await signIn(suite, p, config, user);
    const hint = await expiredHint(client.client_id, other.userId);
    const landed = new URL(
      await started.browser.follow((await silentUrl(config, { id_token_hint: hint })).href, p.issuer),
    );
    expect(landed.origin + landed.pathname).toBe(CALLBACK);
    expect(landed.searchParams.get("error")).toBe("login_required");
    expect(landed.searchParams.get("code")).toBeNull();
    // Expiry alone only dates the hint (Core 1.0 §3.1.2.1 uses it to name the user): the session's own user passes.
    const own = await expiredHint(client.client_id, user.userId);
    const ok = new URL(
      await started.browser.follow((await silentUrl(config, { id_token_hint: own })).href, p.issuer),
    );
    expect(ok.searchParams.get("code")).toBeTruthy();
  });

  it("accepts the project's own expired hint at RP-initiated logout (the app's id_token has usually expired)", async () => {
    const client = await registerClient(suite, p, {
      post_logout_redirect_uris: ["https://rp.example.com/bye"],
    });
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const hint = await expiredHint(client.client_id, user.userId);
    const end = `${p.issuer}/session/end?${new URLSearchParams({
      id_token_hint: hint,
      post_logout_redirect_uri: "https://rp.example.com/bye",
    })}`;
    const confirm = await fetch(end, { redirect: "manual" });
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('name="xsrf"');
  });

  it("refuses an expired hint that the project did not sign, on the redirect and at logout", async () => {
    const client = await registerClient(suite, p);
    const config = await rp(p, client);
    const user = await server.signIn(p.keys.projectId, { email: uniqueEmail() });
    const forged = await expiredHint(client.client_id, user.userId, (await clientKeys()).privateKey);
    const landed = new URL(
      await new Browser().follow((await silentUrl(config, { id_token_hint: forged })).href, p.issuer),
    );
    expect(landed.searchParams.get("error")).toBe("invalid_request");
    expect(landed.searchParams.get("error_description")).toContain("id_token_hint");
    const logout = await fetch(`${p.issuer}/session/end?id_token_hint=${forged}`, { redirect: "manual" });
    expect(logout.status).toBe(400);
    expect(await logout.text()).toContain("invalid_request");
  });
});

describe("the public-address guard", () => {
  let guarded: OpSuite & { close: () => Promise<void> };
  let gp: Project;
  beforeAll(async () => {
    guarded = await startOpSuite({ webhookAllowPrivateUrls: false });
    gp = await project(guarded);
  });
  afterAll(() => guarded?.close());

  it("keeps the provider from fetching a jwks_uri or calling a back-channel URI on a private address", async () => {
    const keys = await clientKeys();
    const target = await endpoint({ status: 200, body: JSON.stringify(keys.jwks) });
    try {
      const keyed = await registerClient(guarded, gp, {
        token_endpoint_auth_method: "private_key_jwt",
        jwks_uri: target.url,
      });
      const config = await oidc.discovery(
        new URL(gp.issuer),
        keyed.client_id,
        undefined,
        oidc.PrivateKeyJwt({ key: keys.privateKey, kid: "rp-1" }),
        { execute: [oidc.allowInsecureRequests] },
      );
      await expectInvalidClient(oidc.tokenIntrospection(config, "x"));

      const notified = await registerClient(guarded, gp, { backchannel_logout_uri: target.url });
      const rpConfig = await rp(gp, notified);
      const user = await passwordUser(guarded, gp.keys);
      await exchange(rpConfig, await signIn(guarded, gp, rpConfig, user));
      const out = await guarded.server.request("/api/v1/auth/sessions/current", {
        method: "DELETE",
        headers: {
          ...accessHeaders("client", gp.keys),
          ...withToken(user.accessToken),
          "x-stack-refresh-token": user.refreshToken,
          "content-type": "application/json",
        },
        body: "{}",
      });
      expect(out.status).toBe(200);
      expect(await guarded.server.deps.oidcProvider.backchannel.sendDue()).toBe(0);
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
    }
  });
});
