// A multi-factor sign-in asked by the app: `acr_values` naming the multi-factor class is a wish the OP tries to meet,
// and the claims parameter's essential id_token acr a demand. A user with a second factor whose session had one factor
// signs in again; a demand that cannot be met reaches the app as unmet_authentication_requirements; a wish that
// cannot be met yields a one-factor id_token that says so.
import * as oidc from "openid-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR } from "../services/amr.ts";
import {
  api,
  Browser,
  CALLBACK,
  type OpSuite,
  type Project,
  project,
  registerClient,
  rp,
  startOpSuite,
} from "../testing/oidc-relying-party.ts";
import { accessHeaders, uniqueEmail, withToken } from "../testing/test-server.ts";

let suite: OpSuite & { close: () => Promise<void> };
let p: Project;
let started: Date;
beforeAll(async () => {
  suite = await startOpSuite();
  p = await project(suite);
  started = suite.server.clock.now();
  // Sessions begin at the test clock's time; requests carry the real time in whole seconds. Wait until a request is
  // sure to be later than a session begun at the clock's time.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, started.getTime() + 1100 - Date.now())));
});
// The test clock stands at the server's start, before every request, unless a test moves it on.
afterEach(() => suite.server.clock.set(started));
afterAll(() => suite?.close());

const ESSENTIAL_MFA = JSON.stringify({ id_token: { acr: { essential: true, values: [ACR_MULTI_FACTOR] } } });

/** A user who signed in with a password at the test clock's time (before the request), with a second factor or not. */
async function passwordUser(secondFactor: boolean) {
  const email = uniqueEmail("acr");
  const made = await api(suite, p, "POST", "/api/v1/users", {
    primary_email: email,
    primary_email_auth_enabled: true,
    ...(secondFactor ? { totp_secret_base64: Buffer.alloc(20, 3).toString("base64") } : {}),
  });
  expect(made.status).toBe(201);
  return signedIn(String(made.body.id), "password");
}

/** A new Gatehouse session for the user, begun now by `method`, and its access token. */
async function signedIn(userId: string, method: string) {
  const { server } = suite;
  const record = await server.deps.usersRepo.find(p.keys.projectId, userId);
  if (!record) throw new Error("user gone");
  const session = await server.deps.sessions.signInNew(async () => record, method);
  return { userId, token: await server.deps.sessions.mintAccessToken(record, session.sessionId) };
}

/** Authorize with the app's parameters, up to our consent step; the step's details and accept as the page calls them. */
async function authorize(config: oidc.Configuration, params: Record<string, string>) {
  const browser = new Browser();
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: "openid",
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...params,
  });
  const page = new URL(await browser.follow(url.href, p.issuer));
  const path = `/api/v1/oidc-provider/interactions/${page.searchParams.get("interaction_id")}`;
  const as = (token: string) => ({ ...accessHeaders("client", p.keys), ...withToken(token) });
  return {
    details: async (token: string) => (await api(suite, p, "GET", path, undefined, as(token))).body,
    accept: (token: string) => api(suite, p, "POST", `${path}/accept`, {}, as(token)),
    /** Back at the app after an accepted step: the callback address. */
    landed: async (redirect: unknown) => new URL(await browser.follow(String(redirect), p.issuer)),
    exchange: (callback: URL) =>
      oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier }),
  };
}

/** Moves the test clock past the authorization request, so that a session begun now is newer than it. */
const later = () => suite.server.clock.set(new Date(Date.now() + 5000));

describe("a multi-factor sign-in asked by the app", () => {
  it("sends a user with a second factor to sign in again, then gives the app a multi-factor id_token", async () => {
    const config = await rp(p, await registerClient(suite, p));
    const user = await passwordUser(true);
    const flow = await authorize(config, { claims: ESSENTIAL_MFA });
    expect(await flow.details(user.token)).toMatchObject({ sign_in_required: true });
    expect(await flow.accept(user.token)).toMatchObject({
      status: 403,
      body: { code: "OIDC_FRESH_SIGN_IN_REQUIRED" },
    });

    later();
    const again = await signedIn(user.userId, "password+totp");
    expect(await flow.details(again.token)).toMatchObject({ sign_in_required: false });
    const accepted = await flow.accept(again.token);
    expect(accepted.status).toBe(200);
    const claims = (await flow.exchange(await flow.landed(accepted.body.redirect_url))).claims();
    expect(claims).toMatchObject({ sub: user.userId, acr: ACR_MULTI_FACTOR });
    expect(claims?.amr).toEqual(expect.arrayContaining(["pwd", "mfa"]));
  });

  it("tells the app its demand is unmet when the account has no second factor", async () => {
    const config = await rp(p, await registerClient(suite, p));
    const user = await passwordUser(false);
    const flow = await authorize(config, { claims: ESSENTIAL_MFA, state: "s1" });
    expect(await flow.details(user.token)).toMatchObject({ sign_in_required: false });
    const accepted = await flow.accept(user.token);
    expect(accepted.status).toBe(200);
    const callback = await flow.landed(accepted.body.redirect_url);
    expect(callback.origin + callback.pathname).toBe(CALLBACK);
    expect(callback.searchParams.get("error")).toBe("unmet_authentication_requirements");
    expect(callback.searchParams.get("code")).toBeNull();
  });

  it("asks only once: a new one-factor session after the request (a passkey, say) cannot meet the demand", async () => {
    const config = await rp(p, await registerClient(suite, p));
    const user = await passwordUser(true);
    const flow = await authorize(config, { claims: ESSENTIAL_MFA });
    later();
    const again = await signedIn(user.userId, "passkey");
    expect(await flow.details(again.token)).toMatchObject({ sign_in_required: false });
    const callback = await flow.landed((await flow.accept(again.token)).body.redirect_url);
    expect(callback.searchParams.get("error")).toBe("unmet_authentication_requirements");
  });

  it("meets a wish (acr_values) when it can, and otherwise signs the user in with one factor, saying so", async () => {
    const config = await rp(p, await registerClient(suite, p));
    const withFactor = await passwordUser(true);
    const wished = await authorize(config, { acr_values: ACR_MULTI_FACTOR });
    expect(await wished.details(withFactor.token)).toMatchObject({ sign_in_required: true });

    const without = await passwordUser(false);
    const flow = await authorize(config, { acr_values: ACR_MULTI_FACTOR });
    expect(await flow.details(without.token)).toMatchObject({ sign_in_required: false });
    const accepted = await flow.accept(without.token);
    const claims = (await flow.exchange(await flow.landed(accepted.body.redirect_url))).claims();
    expect(claims).toMatchObject({ sub: without.userId, acr: ACR_SINGLE_FACTOR, amr: ["pwd"] });
  });

  it("asks nothing more of a session that was multi-factor already, or of an app that accepts one factor", async () => {
    const config = await rp(p, await registerClient(suite, p));
    const user = await passwordUser(true);
    const strong = await signedIn(user.userId, "password+totp");
    const flow = await authorize(config, { claims: ESSENTIAL_MFA });
    expect(await flow.details(strong.token)).toMatchObject({ sign_in_required: false });
    const either = await authorize(config, { acr_values: `${ACR_MULTI_FACTOR} ${ACR_SINGLE_FACTOR}` });
    expect(await either.details(user.token)).toMatchObject({ sign_in_required: false });
  });
});

describe("other claims named in the claims parameter", () => {
  it("releases those the consented scopes cover, and no others", async () => {
    const config = await rp(p, await registerClient(suite, p));
    const user = await passwordUser(false);
    const claims = JSON.stringify({ id_token: { email: null, name: { essential: true } } });

    const covered = await authorize(config, { scope: "openid email profile", claims });
    const accepted = await covered.accept(user.token);
    const released = (await covered.exchange(await covered.landed(accepted.body.redirect_url))).claims();
    expect(released).toMatchObject({ sub: user.userId, email: expect.stringContaining("@") });

    // Only openid consented: the app named email and name, and gets neither (nor a consent loop).
    const bare = await authorize(config, { scope: "openid", claims });
    const answered = await bare.accept(user.token);
    const callback = await bare.landed(answered.body.redirect_url);
    expect(callback.searchParams.get("error")).toBeNull();
    const withheld = (await bare.exchange(callback)).claims();
    expect(withheld?.sub).toBe(user.userId);
    expect(withheld?.email).toBeUndefined();
    expect(withheld?.name).toBeUndefined();
  });
});
