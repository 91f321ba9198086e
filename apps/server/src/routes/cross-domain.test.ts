// The cross-domain hand-off over HTTP (Stack's `/auth/oauth/cross-domain/authorize`): a signed-in session gets a
// code for another trusted domain, exchanged once with its PKCE verifier at `/auth/oauth/token` for a new session of
// the same user; untrusted URLs, a missing or foreign refresh token and a wrong verifier are refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import { codeGrantBody, pkcePair, TOKEN_PATH } from "../testing/oauth-client.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueIp,
} from "../testing/test-server.ts";

const OTHER = "https://other.example.com";
const REDIRECT_URI = `${OTHER}/handler/oauth-callback?stack_cross_domain_auth=1`;
const PATH = "/api/v1/auth/oauth/cross-domain/authorize";

let server: TestServer;
let keys: ProjectKeys;
beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject({
    config: { allow_localhost: false, domains: [{ domain: OTHER, handler_path: "/handler" }] },
  }));
});
afterAll(() => server.close());

type Session = Awaited<ReturnType<TestServer["signIn"]>>;

function authorize(
  session: Session | null,
  body: Record<string, unknown>,
  refreshToken = session?.refreshToken,
) {
  const headers: Record<string, string> = {
    ...accessHeaders("client", keys),
    "content-type": "application/json",
    "x-forwarded-for": uniqueIp(),
  };
  if (session) headers["x-stack-access-token"] = session.accessToken;
  if (refreshToken) headers["x-stack-refresh-token"] = refreshToken;
  return server.request(PATH, { method: "POST", headers, body: JSON.stringify(body) });
}

function exchange(code: string, verifier: string, redirectUri = REDIRECT_URI) {
  const form = codeGrantBody({
    projectId: keys.projectId,
    clientSecret: keys.pck,
    code,
    redirectUri,
    verifier,
  });
  return server.request(TOKEN_PATH, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": uniqueIp() },
    body: form.toString(),
  });
}

describe("POST /auth/oauth/cross-domain/authorize", () => {
  it("hands the session over: a redirect with code and state, exchanged once for the same user", async () => {
    const session = await server.signIn(keys.projectId);
    const pkce = pkcePair();
    const answer = await expectJson<{ redirect_url: string }>(
      await authorize(session, {
        redirect_uri: REDIRECT_URI,
        state: "state-1",
        code_challenge: pkce.challenge,
        code_challenge_method: "S256",
        after_callback_redirect_url: `${OTHER}/dashboard`,
      }),
    );
    const url = new URL(answer.redirect_url);
    expect(url.origin + url.pathname).toBe(`${OTHER}/handler/oauth-callback`);
    expect(url.searchParams.get("state")).toBe("state-1");
    expect(url.searchParams.get("stack_cross_domain_auth")).toBe("1");
    const code = url.searchParams.get("code") ?? "";
    // Stack's SDK sends back the URL it landed on without code and state.
    url.searchParams.delete("code");
    url.searchParams.delete("state");
    expect(url.toString()).toBe(REDIRECT_URI);

    await expectKnownError(await exchange(code, pkcePair().verifier), "INVALID_AUTHORIZATION_CODE");
    const tokens = await expectJson<Record<string, unknown>>(await exchange(code, pkce.verifier));
    expect(tokens).toMatchObject({ is_new_user: false, after_callback_redirect_url: `${OTHER}/dashboard` });
    expect(tokens.refresh_token).not.toBe(session.refreshToken);
    const handed = await server.deps.sessions.findByRefreshToken(
      keys.projectId,
      tokens.refresh_token as string,
    );
    expect(handed?.userId).toBe(session.userId);
    expect(handed?.id).not.toBe(session.sessionId);
    await expectKnownError(await exchange(code, pkce.verifier), "INVALID_AUTHORIZATION_CODE");
  });

  it("does not ask a session that passed its second factor for it again", async () => {
    const session = await server.signIn(keys.projectId);
    await server.deps.usersRepo.update(server.deps.db, session.userId, { sealedTotpSecret: "sealed-secret" });
    const pkce = pkcePair();
    const answer = await expectJson<{ redirect_url: string }>(
      await authorize(session, { redirect_uri: REDIRECT_URI, state: "s", code_challenge: pkce.challenge }),
    );
    const code = new URL(answer.redirect_url).searchParams.get("code") ?? "";
    expect(await expectJson(await exchange(code, pkce.verifier))).toHaveProperty("refresh_token");
  });

  it("refuses untrusted redirect and after-callback URLs", async () => {
    const session = await server.signIn(keys.projectId);
    const challenge = pkcePair().challenge;
    for (const body of [
      { redirect_uri: "https://evil.example.com/cb", state: "s", code_challenge: challenge },
      { redirect_uri: "http://localhost:3000/cb", state: "s", code_challenge: challenge },
      {
        redirect_uri: REDIRECT_URI,
        state: "s",
        code_challenge: challenge,
        after_callback_redirect_url: "https://evil.example.com",
      },
    ])
      await expectKnownError(await authorize(session, body), "REDIRECT_URL_NOT_WHITELISTED");
  });

  it("needs a signed-in user and that session's own refresh token", async () => {
    const body = { redirect_uri: REDIRECT_URI, state: "s", code_challenge: pkcePair().challenge };
    await expectKnownError(await authorize(null, body), "USER_AUTHENTICATION_REQUIRED");
    const session = await server.signIn(keys.projectId);
    const another = await server.signIn(keys.projectId);
    await expectTextError(
      await authorize(session, body, ""),
      400,
      "Cross-domain auth handoff requires passing the current refresh token.",
    );
    await expectTextError(
      await authorize(session, body, another.refreshToken),
      401,
      "Cross-domain auth handoff refresh token does not match the authenticated session.",
    );
  });

  it("checks the body: S256 only and a well-formed challenge", async () => {
    const session = await server.signIn(keys.projectId);
    const base = { redirect_uri: REDIRECT_URI, state: "s", code_challenge: pkcePair().challenge };
    await expectKnownError(
      await authorize(session, { ...base, code_challenge_method: "plain" }),
      "SCHEMA_ERROR",
    );
    await expectKnownError(await authorize(session, { ...base, code_challenge: "short" }), "SCHEMA_ERROR");
  });
});
