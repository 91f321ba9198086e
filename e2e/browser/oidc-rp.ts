// The relying parties the OpenID Provider suites sign in with: openid-client (authorization address with PKCE, a
// nonce and a state; the code exchange checking them) and the passport-openidconnect Express app (passport-rp/).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import * as oidc from "openid-client";

/** openid-client configured by discovery of `issuer` for a confidential client sending its secret by HTTP Basic. */
export async function openIdClient(issuer: string, clientId: string, secret: string, callback: string) {
  const config = await oidc.discovery(new URL(issuer), clientId, secret, oidc.ClientSecretBasic(secret), {
    execute: [oidc.allowInsecureRequests],
  });
  /**
   * An authorization address with PKCE, a nonce and a state, and what the exchange later checks. offline_access
   * needs `prompt: "consent"` (OIDC Core §11: the provider ignores it otherwise).
   */
  async function authorization(scope = "openid profile email", prompt?: string) {
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      nonce,
      state,
      ...(prompt ? { prompt } : {}),
    });
    return { url, verifier, nonce, state };
  }
  /** The code exchange of the address the browser reached at the callback. */
  function exchange(reached: URL, auth: Awaited<ReturnType<typeof authorization>>) {
    return oidc.authorizationCodeGrant(config, reached, {
      pkceCodeVerifier: auth.verifier,
      expectedNonce: auth.nonce,
      expectedState: auth.state,
    });
  }
  return { config, authorization, exchange };
}

/** The passport-openidconnect app on `port` (client_secret_post); `stop` ends it. */
export async function startPassportRp(issuer: string, clientId: string, secret: string, port: number) {
  const app: ChildProcess = spawn(
    process.execPath,
    [fileURLToPath(new URL("./passport-rp/server.mjs", import.meta.url))],
    {
      env: { ...process.env, ISSUER: issuer, CLIENT_ID: clientId, CLIENT_SECRET: secret, PORT: String(port) },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  await once(app.stdout as NodeJS.ReadableStream, "data");
  return { url: `http://127.0.0.1:${port}`, stop: () => app.kill() };
}
