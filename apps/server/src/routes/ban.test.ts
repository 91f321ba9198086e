// Banning a user ([GF] `restricted_by_admin`, WIRE.md §4.8): setting it ends every session of the user in the same
// request, and every sign-in path (password, one-time code, OAuth code exchange, passkey, both MFA steps, refresh,
// server-made sessions) refuses with RESTRICTED_USER_NOT_ALLOWED for reason `restricted_by_administrator`, only once
// the person proved who they are. Lifting the ban restores sign-in.
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "../db/schema.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import { cookiesOf, local, oauthClient, pkcePair } from "../testing/oauth-client.ts";
import { createSoftAuthenticator } from "../testing/soft-authenticator.ts";
import {
  accessHeaders,
  createTestServer,
  jsonPost,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
  withToken,
} from "../testing/test-server.ts";

const APP = "https://app.example.com";
const PASSWORD = "correct horse battery";
const BANNED = { restricted_reason: { type: "restricted_by_administrator" } };
const DAY = 24 * 3600 * 1000;

type SignInAnswer = { access_token: string; refresh_token: string; user_id: string };

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer({ developmentOAuth: ["*"] });
  keys = (
    await server.createProject(
      {
        displayName: "Bans",
        config: {
          magic_link_enabled: true,
          passkey_enabled: true,
          oauth_providers: [{ id: "github", type: "shared", enabled: true }],
          domains: [{ domain: APP, handler_path: "/handler" }],
        },
      },
      { expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) },
    )
  ).keys;
});
afterAll(async () => {
  await server.deps.emailWorker.stop();
  await server.close();
});

const post = jsonPost(() => ({ server, keys }));
const expectBanned = (res: Response) => expectKnownError(res, "RESTRICTED_USER_NOT_ALLOWED", BANNED);
const sessionRows = (userId: string) =>
  server.deps.db.select().from(sessions).where(eq(sessions.userId, userId));

/** A user with a verified sign-in e-mail and a password (and a TOTP secret when given), made by the server API. */
async function newUser(totpSecret?: string) {
  const email = uniqueEmail("ban");
  const fields = { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true };
  const body = { ...fields, password: PASSWORD, ...(totpSecret ? { totp_secret_base64: totpSecret } : {}) };
  const { id } = await expectJson<{ id: string }>(await post("/api/v1/users", body, {}, "server"), 201);
  return { email, id };
}

const signIn = (email: string, password = PASSWORD) =>
  post("/api/v1/auth/password/sign-in", { email, password });

/** Bans (or lets back in) through PATCH /users/{id}, as the dashboard does; answers the user as stored. */
async function setBanned(userId: string, banned: boolean, reason?: string) {
  const body = { restricted_by_admin: banned, ...(reason ? { restricted_by_admin_reason: reason } : {}) };
  const res = await server.request(`/api/v1/users/${userId}`, {
    method: "PATCH",
    headers: { ...accessHeaders("server", keys), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return expectJson<{ restricted_by_admin: boolean; restricted_by_admin_reason: string | null }>(res);
}

const refresh = (refreshToken: string) =>
  post("/api/v1/auth/sessions/current/refresh", {}, { "x-stack-refresh-token": refreshToken });
const readMe = (accessToken: string) =>
  server.request("/api/v1/users/me", {
    headers: { ...accessHeaders("client", keys), ...withToken(accessToken) },
  });

describe("a ban", () => {
  it("signs the user out everywhere in the same request: refresh and access tokens stop at once", async () => {
    const user = await newUser();
    const first = await expectJson<SignInAnswer>(await signIn(user.email));
    const second = await expectJson<SignInAnswer>(await signIn(user.email));
    expect(await sessionRows(user.id)).toHaveLength(2);
    const stored = await setBanned(user.id, true, "Spam");
    expect(stored).toMatchObject({ restricted_by_admin: true, restricted_by_admin_reason: "Spam" });
    expect(await sessionRows(user.id)).toHaveLength(0);
    for (const tokens of [first, second]) {
      await expectKnownError(await refresh(tokens.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
      await expectKnownError(await readMe(tokens.access_token), "ACCESS_TOKEN_EXPIRED");
    }
  });

  it("refuses the password sign-in only after the right password, and opens no session", async () => {
    const user = await newUser();
    await setBanned(user.id, true);
    await expectKnownError(await signIn(user.email, "wrong password!"), "EMAIL_PASSWORD_MISMATCH");
    const refused = await expectBanned(await signIn(user.email));
    expect(refused.message).toContain("Reason: restricted_by_administrator.");
    expect(await sessionRows(user.id)).toHaveLength(0);
  });

  it("refuses the one-time code (and so the magic link) that arrived by e-mail", async () => {
    const user = await newUser();
    await setBanned(user.id, true);
    const callback_url = `${APP}/handler/magic-link-callback`;
    const { nonce } = await expectJson<{ nonce: string }>(
      await post("/api/v1/auth/otp/send-sign-in-code", { email: user.email, callback_url }),
    );
    const inbox = await server.request(`/api/v1/internal/emails?to=${encodeURIComponent(user.email)}`, {
      headers: accessHeaders("admin", keys),
    });
    const [mail] = (await expectJson<{ items: { subject: string }[] }>(inbox)).items;
    const otp = mail?.subject.match(/: Your code is (.*)$/)?.[1] ?? "";
    await expectBanned(await post("/api/v1/auth/otp/sign-in", { code: `${otp}${nonce}` }));
    expect(await sessionRows(user.id)).toHaveLength(0);
  });

  it("refuses the OAuth code exchange of a known provider account", async () => {
    const { authorize, followCallback, get, postForm, exchange } = oauthClient(
      () => server,
      `${APP}/handler/oauth-callback`,
    );
    /** Through the development provider as `email`, back on the app with a code; answers the exchange. */
    const trip = async (email: string) => {
      const pkce = pkcePair();
      const authorized = await authorize("github", keys, pkce);
      const page = new URL(authorized.headers.get("location") ?? "");
      expect((await get(local(page))).status).toBe(200);
      const chosen = await postForm(page.pathname, {
        state: page.searchParams.get("state") ?? "",
        code_challenge: page.searchParams.get("code_challenge") ?? "",
        redirect_uri: page.searchParams.get("redirect_uri") ?? "",
        action: "allow",
        email,
      });
      const landing = await followCallback(chosen.headers.get("location") ?? "", cookiesOf(authorized));
      return exchange(keys, landing.searchParams.get("code") ?? "", pkce.verifier);
    };
    const email = uniqueEmail("oauth-ban");
    const first = await expectJson<SignInAnswer>(await trip(email));
    const userId = (await expectJson<{ id: string }>(await readMe(first.access_token))).id;
    await setBanned(userId, true);
    await expectBanned(await trip(email));
    expect(await sessionRows(userId)).toHaveLength(0);
  });

  it("refuses the passkey sign-in", async () => {
    const user = await newUser();
    const token = (await expectJson<SignInAnswer>(await signIn(user.email))).access_token;
    const authenticator = createSoftAuthenticator();
    const registration = await expectJson<{
      options_json: { challenge: string; user: { id: string } };
      code: string;
    }>(await post("/api/v1/auth/passkey/initiate-passkey-registration", {}, withToken(token)));
    const credential = authenticator.register({
      challenge: registration.options_json.challenge,
      origin: APP,
      userHandle: registration.options_json.user.id,
    });
    await expectJson(
      await post("/api/v1/auth/passkey/register", { credential, code: registration.code }, withToken(token)),
    );
    await setBanned(user.id, true);
    const started = await expectJson<{ options_json: { challenge: string }; code: string }>(
      await post("/api/v1/auth/passkey/initiate-passkey-authentication", {}),
    );
    const authentication_response = authenticator.authenticate({
      challenge: started.options_json.challenge,
      origin: APP,
    });
    await expectBanned(
      await post("/api/v1/auth/passkey/sign-in", { authentication_response, code: started.code }),
    );
  });

  it("refuses at the first MFA step (no attempt code), and at the second when the ban came between", async () => {
    const secret = Buffer.from("0123456789abcdefghij").toString("base64");
    const user = await newUser(secret);
    await setBanned(user.id, true);
    await expectBanned(await signIn(user.email));
    await setBanned(user.id, false);
    const paused = await expectKnownError(await signIn(user.email), "MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    const code = (paused.details as { attempt_code: string }).attempt_code;
    await setBanned(user.id, true);
    const totp = TOTP.generate({
      secret: Secret.fromHex(Buffer.from(secret, "base64").toString("hex")),
      timestamp: server.clock.now().getTime(),
    });
    await expectBanned(await post("/api/v1/auth/mfa/sign-in", { code, type: "totp", totp }));
    expect(await sessionRows(user.id)).toHaveLength(0);
  });

  it("ends a session that slipped past the ban at its next refresh (header and token endpoint)", async () => {
    const user = await newUser();
    const viaHeader = await expectJson<SignInAnswer>(await signIn(user.email));
    const viaGrant = await expectJson<SignInAnswer>(await signIn(user.email));
    // As a sign-in racing the ban would leave it: the flag set, the sessions still there.
    await server.deps.usersRepo.update(server.deps.db, user.id, { restrictedByAdmin: true });
    await expectKnownError(await refresh(viaHeader.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    const grant = await server.request("/api/v1/auth/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": uniqueIp() },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: keys.projectId,
        client_secret: keys.pck,
        refresh_token: viaGrant.refresh_token,
      }),
    });
    await expectKnownError(grant, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    expect(await sessionRows(user.id)).toHaveLength(0);
  });

  it("refuses sessions a server or admin would open for the user, impersonation included", async () => {
    const user = await newUser();
    await setBanned(user.id, true);
    await expectBanned(await post("/api/v1/auth/sessions", { user_id: user.id }, {}, "server"));
    await expectBanned(
      await post("/api/v1/auth/sessions", { user_id: user.id, is_impersonation: true }, {}, "admin"),
    );
    expect(await sessionRows(user.id)).toHaveLength(0);
  });
});

describe("lifting a ban", () => {
  it("restores sign-in and clears the reason", async () => {
    const user = await newUser();
    await setBanned(user.id, true, "Chargebacks");
    await expectBanned(await signIn(user.email));
    const stored = await setBanned(user.id, false);
    expect(stored).toMatchObject({ restricted_by_admin: false, restricted_by_admin_reason: null });
    const tokens = await expectJson<SignInAnswer>(await signIn(user.email));
    expect(
      (await expectJson<{ is_restricted: boolean }>(await readMe(tokens.access_token))).is_restricted,
    ).toBe(false);
    expect(
      (await expectJson<{ access_token: string }>(await refresh(tokens.refresh_token))).access_token,
    ).toBeTruthy();
  });
});
