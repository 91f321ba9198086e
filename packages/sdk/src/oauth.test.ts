// OAuth in the browser: PKCE against RFC 7636's vector, the authorize query of WIRE.md §4.5, and the verifier cookie
// written, read once and deleted through a fake `document` that keeps cookies the way a browser does.
import { knownErrorIs } from "@gatehouse/contract/known-error";
import { describe, expect, it } from "vitest";
import {
  authorizePath,
  authorizeUrl,
  createPkcePair,
  pkceChallenge,
  readOAuthCallback,
  saveVerifier,
} from "./oauth.ts";

/** `document.cookie`: reading lists live cookies, writing sets one (Max-Age 0 deletes it); every write is recorded. */
function fakeDocument(initial: Record<string, string> = {}) {
  const jar = new Map(Object.entries(initial));
  const writes: string[] = [];
  return {
    writes,
    jar,
    get cookie() {
      return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    },
    set cookie(line: string) {
      writes.push(line);
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const at = pair.indexOf("=");
      const maxAge = attributes.find((a) => a.toLowerCase().startsWith("max-age="));
      if (maxAge !== undefined && Number(maxAge.slice("max-age=".length)) <= 0) jar.delete(pair.slice(0, at));
      else jar.set(pair.slice(0, at), pair.slice(at + 1));
    },
  };
}

describe("PKCE", () => {
  it("computes the S256 challenge of RFC 7636 appendix B", async () => {
    // The appendix's verifier is the base64url of its 32 listed octets (116, 24, 223, …, 121).
    expect(await pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });

  it("creates 43-character base64url verifiers and states, fresh each time, with their challenge", async () => {
    const pairs = await Promise.all(Array.from({ length: 20 }, () => createPkcePair()));
    for (const { state, verifier, challenge } of pairs) {
      expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(challenge).toBe(await pkceChallenge(verifier));
    }
    expect(new Set(pairs.flatMap((p) => [p.verifier, p.state])).size).toBe(40);
  });
});

describe("authorize URL", () => {
  const options = {
    provider: "GitHub",
    projectId: "proj-1",
    redirectUri:
      "https://app.example.com/handler/oauth-callback?after_auth_return_to=%2Fp&code=old&state=old",
    errorRedirectUrl: "https://app.example.com/handler/error",
    type: "authenticate" as const,
    state: "the-state",
    codeChallenge: "the-challenge",
  };

  it("carries exactly the query of WIRE.md §4.5 in JSON mode", () => {
    const url = new URL(authorizeUrl({ ...options, baseUrl: "http://localhost:8102/" }));
    expect(url.origin + url.pathname).toBe("http://localhost:8102/api/v1/auth/oauth/authorize/github");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "proj-1",
      client_secret: "__stack_public_client__",
      redirect_uri: "https://app.example.com/handler/oauth-callback?after_auth_return_to=%2Fp",
      scope: "legacy",
      state: "the-state",
      grant_type: "authorization_code",
      code_challenge: "the-challenge",
      code_challenge_method: "S256",
      response_type: "code",
      type: "authenticate",
      error_redirect_url: "https://app.example.com/handler/error",
      stack_response_mode: "json",
    });
  });

  it("adds the key, the token, the return target and provider scopes when given", () => {
    const path = authorizePath({
      ...options,
      type: "link",
      publishableClientKey: "pck_1",
      token: "access-token",
      afterCallbackRedirectUrl: "https://app.example.com/settings",
      providerScope: "repo read:user",
    });
    expect(path.startsWith("/auth/oauth/authorize/github?")).toBe(true);
    const query = new URLSearchParams(path.slice(path.indexOf("?")));
    expect(query.get("client_secret")).toBe("pck_1");
    expect(query.get("type")).toBe("link");
    expect(query.get("token")).toBe("access-token");
    expect(query.get("after_callback_redirect_url")).toBe("https://app.example.com/settings");
    expect(query.get("provider_scope")).toBe("repo read:user");
  });

  it("leaves out a null token", () => {
    expect(new URLSearchParams(authorizePath({ ...options, token: null }).split("?")[1]).has("token")).toBe(
      false,
    );
  });
});

describe("verifier cookie and callback", () => {
  const callbackPage = (query: string) => `https://app.example.com/handler/oauth-callback${query}`;

  it("writes stack-oauth-outer-{state} for 3600 s, Secure only on https", () => {
    const document = fakeDocument();
    saveVerifier(document, "s1", "v1", true);
    saveVerifier(document, "s2", "v2", false);
    expect(document.writes).toEqual([
      "stack-oauth-outer-s1=v1; Max-Age=3600; Path=/; SameSite=Lax; Secure",
      "stack-oauth-outer-s2=v2; Max-Age=3600; Path=/; SameSite=Lax",
    ]);
  });

  it("reads the verifier once, deletes its cookie, and gives the redirect URI without code and state", async () => {
    const document = fakeDocument({ other: "x" });
    const { state, verifier } = await createPkcePair();
    saveVerifier(document, state, verifier, true);
    const page = callbackPage(`?after_auth_return_to=%2Fp&code=c0de&state=${state}#frag`);

    expect(readOAuthCallback(page, document)).toEqual({
      code: "c0de",
      state,
      verifier,
      redirectUri: callbackPage("?after_auth_return_to=%2Fp"),
    });
    expect(document.writes.at(-1)).toBe(
      `stack-oauth-outer-${state}=; Max-Age=0; Path=/; SameSite=Lax; Secure`,
    );
    expect([...document.jar.keys()]).toEqual(["other"]);
    expect(readOAuthCallback(page, document)).toBeNull();
  });

  it("answers null without a cookie for the state, or without code or state", () => {
    const document = fakeDocument({ "stack-oauth-outer-s": "v", "stack-oauth-outer-other": "w" });
    expect(readOAuthCallback(callbackPage("?code=c&state=unknown"), document)).toBeNull();
    expect(readOAuthCallback(callbackPage("?code=c"), document)).toBeNull();
    expect(readOAuthCallback(callbackPage("?state=s"), document)).toBeNull();
    expect(readOAuthCallback(callbackPage("?code=&state=s"), document)).toBeNull();
    expect(document.writes).toEqual([]);
    expect(document.jar.get("stack-oauth-outer-s")).toBe("v");
  });

  it("matches the cookie name exactly", () => {
    const document = fakeDocument({ "xstack-oauth-outer-s": "wrong", "stack-oauth-outer-s2": "wrong" });
    expect(readOAuthCallback(callbackPage("?code=c&state=s"), document)).toBeNull();
  });

  it("throws the known error the server put in the query, leaving the cookie", () => {
    const document = fakeDocument({ "stack-oauth-outer-s": "v" });
    const details = encodeURIComponent(JSON.stringify({ provider: "github" }));
    const page = callbackPage(
      `?code=c&state=s&error=server_error&errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=Denied.&details=${details}`,
    );
    let thrown: unknown;
    try {
      readOAuthCallback(page, document);
    } catch (error) {
      thrown = error;
    }
    expect(knownErrorIs(thrown, "OAUTH_PROVIDER_ACCESS_DENIED")).toBe(true);
    expect((thrown as Error).message).toBe("Denied.");
    expect((thrown as { details?: unknown }).details).toEqual({ provider: "github" });
    expect(document.jar.has("stack-oauth-outer-s")).toBe(true);
  });
});
