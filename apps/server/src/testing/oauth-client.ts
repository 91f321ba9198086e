// What an app does around Gatehouse's OAuth endpoints, for tests: a PKCE pair and a state, the authorize URL it
// opens, and the token exchange it makes with the code the callback brings back. Follows redirects by hand, so a
// test sees every hop (the provider's page, the callback, the app's redirect URI).
import { createHash, randomBytes } from "node:crypto";

export type PkcePair = { verifier: string; challenge: string };

export function pkcePair(): PkcePair {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export type AuthorizeOptions = {
  projectId: string;
  clientSecret: string;
  redirectUri: string;
  pkce: PkcePair;
  state?: string;
  type?: "authenticate" | "link";
  token?: string;
  providerScope?: string;
  errorRedirectUri?: string;
  afterCallbackRedirectUrl?: string;
  responseMode?: "json" | "redirect";
  /** Overrides or removes (undefined) parameters, for tests of bad requests. */
  override?: Record<string, string | undefined>;
};

/** `/api/v1/auth/oauth/authorize/{provider}?…` as the Stack SDK builds it. */
export function authorizePath(providerId: string, o: AuthorizeOptions): string {
  const params: Record<string, string | undefined> = {
    client_id: o.projectId,
    client_secret: o.clientSecret,
    redirect_uri: o.redirectUri,
    scope: "legacy",
    state: o.state ?? randomBytes(16).toString("hex"),
    grant_type: "authorization_code",
    code_challenge: o.pkce.challenge,
    code_challenge_method: "S256",
    response_type: "code",
    type: o.type,
    token: o.token,
    provider_scope: o.providerScope,
    error_redirect_uri: o.errorRedirectUri,
    after_callback_redirect_url: o.afterCallbackRedirectUrl,
    stack_response_mode: o.responseMode,
    ...o.override,
  };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `/api/v1/auth/oauth/authorize/${providerId}?${query}`;
}

/** The token endpoint's form body for the authorization_code grant. */
export function codeGrantBody(input: {
  projectId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  verifier: string;
}): URLSearchParams {
  return new URLSearchParams({
    grant_type: "authorization_code",
    client_id: input.projectId,
    client_secret: input.clientSecret,
    code: input.code,
    redirect_uri: input.redirectUri,
    code_verifier: input.verifier,
  });
}

/** The cookies a response sets, as a Cookie header value (name=value pairs only). */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}
