// Passkeys over HTTP (WIRE.md §4.4, §5.1 passkey rows, §7 trusted URLs): the options of both ceremonies, a passkey
// registered and used to sign in (answered by a software authenticator, testing/soft-authenticator.ts), one passkey
// per user, the origin checked against the project's trusted URLs, challenge codes, the signature counter, the MFA
// gate, removal through PATCH /users/me, the project switch, input validation and the per-IP code limit.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passkeys } from "../db/schema.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import { createSoftAuthenticator, type SoftAuthenticator } from "../testing/soft-authenticator.ts";
import {
  type AccessType,
  accessHeaders,
  createTestServer,
  jsonPost,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
  withToken,
} from "../testing/test-server.ts";

const INITIATE_REGISTRATION = "/api/v1/auth/passkey/initiate-passkey-registration";
const REGISTER = "/api/v1/auth/passkey/register";
const INITIATE_AUTHENTICATION = "/api/v1/auth/passkey/initiate-passkey-authentication";
const SIGN_IN = "/api/v1/auth/passkey/sign-in";
const MFA_SIGN_IN = "/api/v1/auth/mfa/sign-in";
const ME = "/api/v1/users/me";
const REFRESH = "/api/v1/auth/sessions/current/refresh";

const APP = "https://app.example.com";
const UNTRUSTED = "https://evil.example.com";
const PLACEHOLDER = "THIS_VALUE_WILL_BE_REPLACED.example.com";
const CODE = /^[0-9abcdefghjkmnpqrstvwxyz]{45}$/;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const ANON = { "x-stack-allow-anonymous-user": "true" };

type RegistrationOptions = {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string; displayName: string };
  [key: string]: unknown;
};
type AuthenticationOptions = { challenge: string; rpId: string; [key: string]: unknown };
type Initiated<O> = { options_json: O; code: string };
type SignInAnswer = { access_token: string; refresh_token: string; user_id: string; is_new_user: boolean };

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  keys = (
    await server.createProject(
      {
        displayName: "Passkey project",
        config: { passkey_enabled: true, domains: [{ domain: APP, handler_path: "/handler" }] },
      },
      { expiresAt: new Date(server.clock.now().getTime() + 365 * 24 * 60 * MINUTE) },
    )
  ).keys;
});
afterAll(async () => {
  await server.deps.emailWorker.stop();
  await server.close();
});

/** JSON POSTs as this suite's project, each from a new address unless the test names one. */
const post = jsonPost(() => ({ server, keys }));

const readMe = async (token: string) =>
  expectJson<{ id: string; passkey_auth_enabled: boolean }>(
    await server.request(ME, { headers: { ...accessHeaders("client", keys), ...withToken(token) } }),
  );

const patchMe = async (token: string, body: unknown) =>
  expectJson<{ passkey_auth_enabled: boolean }>(
    await server.request(ME, {
      method: "PATCH",
      headers: { ...accessHeaders("client", keys), "content-type": "application/json", ...withToken(token) },
      body: JSON.stringify(body),
    }),
  );

/** A signed-in user with a sign-in e-mail, made through the services (a session, not a passkey sign-in). */
async function newUser(k: ProjectKeys = keys) {
  const email = uniqueEmail("passkey");
  const { accessToken, userId } = await server.signIn(k.projectId, { email });
  return { email, userId, token: accessToken };
}

const initiateRegistration = async (token: string, type: AccessType = "client", k: ProjectKeys = keys) =>
  expectJson<Initiated<RegistrationOptions>>(
    await post(INITIATE_REGISTRATION, {}, withToken(token), type, k),
  );

const initiateAuthentication = async (type: AccessType = "client", k: ProjectKeys = keys) =>
  expectJson<Initiated<AuthenticationOptions>>(await post(INITIATE_AUTHENTICATION, {}, {}, type, k));

/** A registration ceremony started for `token` and answered as a browser on `origin` would, not yet submitted. */
async function answeredRegistration(
  authenticator: SoftAuthenticator,
  token: string,
  opts: { origin?: string; rpId?: string; counter?: number; type?: AccessType; k?: ProjectKeys } = {},
) {
  const { options_json, code } = await initiateRegistration(token, opts.type, opts.k);
  const credential = authenticator.register({
    challenge: options_json.challenge,
    origin: opts.origin ?? APP,
    rpId: opts.rpId,
    userHandle: options_json.user.id,
    counter: opts.counter,
  });
  return { options_json, credential, code };
}

/** Runs a registration ceremony as a browser on `origin` would; the answer of POST /register. */
async function register(
  authenticator: SoftAuthenticator,
  token: string,
  opts: { origin?: string; rpId?: string; type?: AccessType; k?: ProjectKeys } = {},
) {
  const { credential, code } = await answeredRegistration(authenticator, token, opts);
  return post(REGISTER, { credential, code }, withToken(token), opts.type, opts.k);
}

/** Runs a discoverable sign-in ceremony as a browser on `origin` would; the answer of POST /sign-in. */
async function signIn(
  authenticator: SoftAuthenticator,
  opts: { origin?: string; rpId?: string; counter?: number; type?: AccessType; k?: ProjectKeys } = {},
) {
  const { options_json, code } = await initiateAuthentication(opts.type, opts.k);
  const authentication_response = authenticator.authenticate({
    challenge: options_json.challenge,
    origin: opts.origin ?? APP,
    rpId: opts.rpId,
    counter: opts.counter,
  });
  return post(SIGN_IN, { authentication_response, code }, {}, opts.type, opts.k);
}

/** A user with a registered passkey. */
async function userWithPasskey() {
  const user = await newUser();
  const authenticator = createSoftAuthenticator();
  expect(await expectJson(await register(authenticator, user.token))).toEqual({
    user_handle: authenticator.id,
  });
  return { ...user, authenticator };
}

const storedPasskeys = (userId: string) =>
  server.deps.db.select().from(passkeys).where(eq(passkeys.userId, userId));

async function expectFailure(
  res: Response,
  code: "PASSKEY_REGISTRATION_FAILED" | "PASSKEY_AUTHENTICATION_FAILED",
) {
  const body = await expectKnownError(res, code);
  const { message } = body.details as { message: string };
  expect(body.message).toBe(message);
  return message;
}

describe("options", () => {
  it("registration: placeholder RP id, the user's id bytes and e-mail, resident key required, 60 s", async () => {
    const user = await newUser();
    const { options_json, code } = await initiateRegistration(user.token);
    expect(code).toMatch(CODE);
    expect(options_json.rp).toEqual({ id: PLACEHOLDER, name: "Passkey project" });
    expect(Buffer.from(options_json.user.id, "base64url").toString("utf8")).toBe(user.userId);
    expect(options_json.user).toMatchObject({ name: user.email, displayName: user.email });
    expect(options_json.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(options_json).toMatchObject({
      timeout: 60_000,
      attestation: "none",
      excludeCredentials: [],
      authenticatorSelection: {
        residentKey: "required",
        requireResidentKey: true,
        userVerification: "preferred",
      },
    });
    expect(options_json.pubKeyCredParams).toContainEqual({ alg: -7, type: "public-key" });
    expect(options_json).not.toHaveProperty("hints");
    // A new challenge and code each time.
    const again = await initiateRegistration(user.token);
    expect(again.code).not.toBe(code);
    expect(again.options_json.challenge).not.toBe(options_json.challenge);
  });

  it("registration: the display name when there is one, the user id when there is no e-mail", async () => {
    const named = await newUser();
    await patchMe(named.token, { display_name: "Ada" });
    expect((await initiateRegistration(named.token)).options_json.user).toMatchObject({
      name: named.email,
      displayName: "Ada",
    });
    const { accessToken, userId } = await server.signIn(keys.projectId);
    expect((await initiateRegistration(accessToken)).options_json.user).toMatchObject({
      name: userId,
      displayName: userId,
    });
  });

  it("authentication: placeholder RP id, no credentials named, 60 s", async () => {
    const { options_json, code } = await initiateAuthentication();
    expect(code).toMatch(CODE);
    expect(options_json).toEqual({
      rpId: PLACEHOLDER,
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      allowCredentials: [],
      timeout: 60_000,
      userVerification: "preferred",
    });
  });
});

describe("registering and signing in", () => {
  it("registers a passkey and signs its user in with it, without naming the user", async () => {
    const user = await userWithPasskey();
    expect((await readMe(user.token)).passkey_auth_enabled).toBe(true);
    const [row] = await storedPasskeys(user.userId);
    expect(row).toMatchObject({ credentialId: user.authenticator.id, counter: 1, transports: ["internal"] });
    expect(row?.lastUsedAt).toBeNull();

    const answer = await expectJson<SignInAnswer>(await signIn(user.authenticator));
    expect(Object.keys(answer).sort()).toEqual(["access_token", "is_new_user", "refresh_token", "user_id"]);
    expect(answer).toMatchObject({ user_id: user.userId, is_new_user: false });
    expect((await readMe(answer.access_token)).id).toBe(user.userId);
    expect(decodeJwt(answer.access_token).sub).toBe(user.userId);
    const refreshed = await expectJson<{ access_token: string }>(
      await server.request(REFRESH, {
        method: "POST",
        headers: { ...accessHeaders("client", keys), "x-stack-refresh-token": answer.refresh_token },
      }),
    );
    expect(decodeJwt(refreshed.access_token).sub).toBe(user.userId);
    const [used] = await storedPasskeys(user.userId);
    expect(used).toMatchObject({ counter: 2, lastUsedAt: server.clock.now() });
  });

  it("accepts a localhost page while allow_localhost is on (the default), with its hostname as RP id", async () => {
    const user = await newUser();
    const authenticator = createSoftAuthenticator();
    const origin = "http://localhost:5173";
    await expectJson(await register(authenticator, user.token, { origin }));
    expect((await expectJson<SignInAnswer>(await signIn(authenticator, { origin }))).user_id).toBe(
      user.userId,
    );
    // The RP id is the page's hostname: a response made for another one is refused.
    await expectFailure(
      await signIn(authenticator, { origin, rpId: "app.example.com" }),
      "PASSKEY_AUTHENTICATION_FAILED",
    );
  });

  it("keeps one passkey per user: registering again replaces it", async () => {
    const user = await userWithPasskey();
    const second = createSoftAuthenticator();
    expect(await expectJson(await register(second, user.token))).toEqual({ user_handle: second.id });
    const rows = await storedPasskeys(user.userId);
    expect(rows.map((r) => r.credentialId)).toEqual([second.id]);
    expect(rows[0]?.counter).toBe(1);
    expect(await expectFailure(await signIn(user.authenticator), "PASSKEY_AUTHENTICATION_FAILED")).toBe(
      "This passkey is not registered with this project.",
    );
    expect((await expectJson<SignInAnswer>(await signIn(second))).user_id).toBe(user.userId);
  });

  it("refuses a credential id another user of the project registered", async () => {
    const owner = await userWithPasskey();
    const other = await newUser();
    const copy = createSoftAuthenticator({ credentialId: Buffer.from(owner.authenticator.id, "base64url") });
    expect(await expectFailure(await register(copy, other.token), "PASSKEY_REGISTRATION_FAILED")).toBe(
      "This passkey is already registered to another user.",
    );
    expect(await storedPasskeys(other.userId)).toEqual([]);
    expect((await expectJson<SignInAnswer>(await signIn(owner.authenticator))).user_id).toBe(owner.userId);
  });

  it("keeps passkeys apart per project: another project does not know the credential", async () => {
    const user = await userWithPasskey();
    const other = (
      await server.createProject({ displayName: "Other", config: { passkey_enabled: true, domains: [] } })
    ).keys;
    await expectFailure(
      await signIn(user.authenticator, { origin: "http://localhost:3000", k: other }),
      "PASSKEY_AUTHENTICATION_FAILED",
    );
  });

  it("works for server and admin callers too", async () => {
    for (const type of ["server", "admin"] as const) {
      const user = await newUser();
      const authenticator = createSoftAuthenticator();
      expect(await expectJson(await register(authenticator, user.token, { type }))).toEqual({
        user_handle: authenticator.id,
      });
      expect((await expectJson<SignInAnswer>(await signIn(authenticator, { type }))).user_id).toBe(
        user.userId,
      );
    }
  });
});

describe("the origin", () => {
  it("refuses a registration from a page the project does not trust", async () => {
    const user = await newUser();
    const message = await expectFailure(
      await register(createSoftAuthenticator(), user.token, { origin: UNTRUSTED }),
      "PASSKEY_REGISTRATION_FAILED",
    );
    expect(message).toBe("The origin https://evil.example.com is not a trusted domain of this project.");
    expect((await readMe(user.token)).passkey_auth_enabled).toBe(false);
  });

  it("refuses a sign-in from a page the project does not trust", async () => {
    const user = await userWithPasskey();
    const message = await expectFailure(
      await signIn(user.authenticator, { origin: UNTRUSTED }),
      "PASSKEY_AUTHENTICATION_FAILED",
    );
    expect(message).toBe("The origin https://evil.example.com is not a trusted domain of this project.");
  });

  it("trusts exactly the listed origins: no other port, scheme or subdomain, no user info", async () => {
    const user = await userWithPasskey();
    for (const origin of [
      "https://app.example.com:8443",
      "http://app.example.com",
      "https://www.app.example.com",
      "https://user@app.example.com",
      "null",
    ]) {
      expect(
        await expectFailure(
          await signIn(user.authenticator, { origin, rpId: "app.example.com" }),
          "PASSKEY_AUTHENTICATION_FAILED",
        ),
      ).toBe(`The origin ${origin} is not a trusted domain of this project.`);
    }
  });

  it("refuses a response signed for another RP id than the page's hostname", async () => {
    const user = await newUser();
    const message = await expectFailure(
      await register(createSoftAuthenticator(), user.token, { rpId: "evil.example.com" }),
      "PASSKEY_REGISTRATION_FAILED",
    );
    expect(message).toMatch(/^The passkey could not be verified: /);
    const owner = await userWithPasskey();
    await expectFailure(
      await signIn(owner.authenticator, { rpId: "example.com" }),
      "PASSKEY_AUTHENTICATION_FAILED",
    );
  });
});

describe("challenge codes", () => {
  it("refuses a response to another challenge", async () => {
    const user = await newUser();
    const authenticator = createSoftAuthenticator();
    const first = await initiateRegistration(user.token);
    const second = await initiateRegistration(user.token);
    const credential = authenticator.register({
      challenge: first.options_json.challenge,
      origin: APP,
      userHandle: first.options_json.user.id,
    });
    expect(
      await expectFailure(
        await post(REGISTER, { credential, code: second.code }, withToken(user.token)),
        "PASSKEY_REGISTRATION_FAILED",
      ),
    ).toMatch(/^The passkey could not be verified: Unexpected registration response challenge/);
    // The failure left the matching code unused.
    await expectJson(await post(REGISTER, { credential, code: first.code }, withToken(user.token)));

    const a = await initiateAuthentication();
    const b = await initiateAuthentication();
    const assertion = authenticator.authenticate({ challenge: a.options_json.challenge, origin: APP });
    expect(
      await expectFailure(
        await post(SIGN_IN, { authentication_response: assertion, code: b.code }),
        "PASSKEY_AUTHENTICATION_FAILED",
      ),
    ).toMatch(/^The passkey could not be verified: Unexpected authentication response challenge/);
    await expectJson(await post(SIGN_IN, { authentication_response: assertion, code: a.code }));
  });

  it("uses a code once", async () => {
    const user = await newUser();
    const authenticator = createSoftAuthenticator();
    const { credential, code } = await answeredRegistration(authenticator, user.token);
    await expectJson(await post(REGISTER, { credential, code }, withToken(user.token)));
    await expectKnownError(
      await post(REGISTER, { credential, code }, withToken(user.token)),
      "VERIFICATION_CODE_ALREADY_USED",
    );

    const auth = await initiateAuthentication();
    const assertion = () =>
      authenticator.authenticate({ challenge: auth.options_json.challenge, origin: APP });
    await expectJson(await post(SIGN_IN, { authentication_response: assertion(), code: auth.code }));
    await expectKnownError(
      await post(SIGN_IN, { authentication_response: assertion(), code: auth.code }),
      "VERIFICATION_CODE_ALREADY_USED",
    );
  });

  it("keeps a code 65 seconds", async () => {
    const user = await newUser();
    const authenticator = createSoftAuthenticator();
    const registration = async (waitMs: number) => {
      const { options_json, code } = await initiateRegistration(user.token);
      server.clock.advance(waitMs);
      const credential = authenticator.register({
        challenge: options_json.challenge,
        origin: APP,
        userHandle: options_json.user.id,
      });
      return post(REGISTER, { credential, code }, withToken(user.token));
    };
    await expectKnownError(await registration(65 * SECOND), "VERIFICATION_CODE_EXPIRED");
    await expectJson(await registration(65 * SECOND - 1));

    const authentication = async (waitMs: number) => {
      const { options_json, code } = await initiateAuthentication();
      server.clock.advance(waitMs);
      const assertion = authenticator.authenticate({ challenge: options_json.challenge, origin: APP });
      return post(SIGN_IN, { authentication_response: assertion, code });
    };
    await expectKnownError(await authentication(65 * SECOND), "VERIFICATION_CODE_EXPIRED");
    await expectJson(await authentication(65 * SECOND - 1));
  });

  it("keeps the two ceremonies' codes apart, and codes of unknown or other projects", async () => {
    const user = await userWithPasskey();
    const registration = await initiateRegistration(user.token);
    const assertion = user.authenticator.authenticate({
      challenge: registration.options_json.challenge,
      origin: APP,
    });
    await expectKnownError(
      await post(SIGN_IN, { authentication_response: assertion, code: registration.code }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    const authentication = await initiateAuthentication();
    const credential = createSoftAuthenticator().register({
      challenge: authentication.options_json.challenge,
      origin: APP,
      userHandle: registration.options_json.user.id,
    });
    await expectKnownError(
      await post(REGISTER, { credential, code: authentication.code }, withToken(user.token)),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    await expectKnownError(
      await post(SIGN_IN, { authentication_response: assertion, code: "0".repeat(45) }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });

  it("ties a registration code to the user who started it", async () => {
    const starter = await newUser();
    const other = await newUser();
    const authenticator = createSoftAuthenticator();
    const { credential, code } = await answeredRegistration(authenticator, starter.token);
    expect(
      await expectFailure(
        await post(REGISTER, { credential, code }, withToken(other.token)),
        "PASSKEY_REGISTRATION_FAILED",
      ),
    ).toBe("This passkey registration was started by another user.");
    expect(await storedPasskeys(other.userId)).toEqual([]);
    // Still the starter's to use.
    await expectJson(await post(REGISTER, { credential, code }, withToken(starter.token)));
    expect((await readMe(starter.token)).passkey_auth_enabled).toBe(true);
  });
});

describe("verification", () => {
  it("requires the signature counter to grow (unless the authenticator keeps none)", async () => {
    const user = await userWithPasskey();
    await expectJson(await signIn(user.authenticator, { counter: 5 }));
    for (const counter of [5, 4, 0]) {
      expect(
        await expectFailure(await signIn(user.authenticator, { counter }), "PASSKEY_AUTHENTICATION_FAILED"),
      ).toBe(
        `The passkey could not be verified: Response counter value ${counter} was lower than expected 5`,
      );
    }
    expect((await storedPasskeys(user.userId))[0]?.counter).toBe(5);
    await expectJson(await signIn(user.authenticator, { counter: 6 }));
    expect((await storedPasskeys(user.userId))[0]?.counter).toBe(6);

    // An authenticator without a counter reports 0 every time.
    const counterless = await newUser();
    const authenticator = createSoftAuthenticator();
    const { credential, code } = await answeredRegistration(authenticator, counterless.token, { counter: 0 });
    await expectJson(await post(REGISTER, { credential, code }, withToken(counterless.token)));
    await expectJson(await signIn(authenticator, { counter: 0 }));
    await expectJson(await signIn(authenticator, { counter: 0 }));
  });

  it("refuses an unknown credential", async () => {
    expect(
      await expectFailure(await signIn(createSoftAuthenticator()), "PASSKEY_AUTHENTICATION_FAILED"),
    ).toBe("This passkey is not registered with this project.");
  });

  it("refuses a signature by another key for the registered credential id", async () => {
    const user = await userWithPasskey();
    const impostor = createSoftAuthenticator({
      credentialId: Buffer.from(user.authenticator.id, "base64url"),
    });
    expect(
      await expectFailure(await signIn(impostor, { counter: 100 }), "PASSKEY_AUTHENTICATION_FAILED"),
    ).toBe("The passkey's signature is not valid.");
  });

  it("refuses malformed responses with the passkey errors, never a server error", async () => {
    const user = await newUser();
    const authenticator = createSoftAuthenticator();
    const { options_json, credential: good, code } = await answeredRegistration(authenticator, user.token);
    const registrations = [
      { ...good, response: { ...good.response, clientDataJSON: "not base64url json!" } },
      { ...good, response: { ...good.response, clientDataJSON: Buffer.from("[1,2]").toString("base64url") } },
      { ...good, response: { ...good.response, attestationObject: "AAAA" } },
      { ...good, response: { ...good.response, attestationObject: "" } },
      { ...good, rawId: "something-else" },
      { ...good, type: "password" },
      { ...good, id: "" },
    ];
    for (const credential of registrations) {
      await expectFailure(
        await post(REGISTER, { credential, code }, withToken(user.token)),
        "PASSKEY_REGISTRATION_FAILED",
      );
    }
    // A response for the other ceremony.
    const wrongType = authenticator.register({
      challenge: options_json.challenge,
      origin: APP,
      userHandle: options_json.user.id,
      type: "webauthn.get",
    });
    await expectFailure(
      await post(REGISTER, { credential: wrongType, code }, withToken(user.token)),
      "PASSKEY_REGISTRATION_FAILED",
    );
    // None of them used the code.
    await expectJson(await post(REGISTER, { credential: good, code }, withToken(user.token)));

    const auth = await initiateAuthentication();
    const assertion = authenticator.authenticate({ challenge: auth.options_json.challenge, origin: APP });
    const assertions = [
      { ...assertion, response: { ...assertion.response, clientDataJSON: "%%%" } },
      { ...assertion, response: { ...assertion.response, authenticatorData: "" } },
      { ...assertion, response: { ...assertion.response, authenticatorData: "AAAA" } },
      { ...assertion, response: { ...assertion.response, signature: "AAAA" } },
      { ...assertion, response: { ...assertion.response, signature: "not base64url!" } },
      { ...assertion, rawId: "different" },
    ];
    for (const authentication_response of assertions) {
      await expectFailure(
        await post(SIGN_IN, { authentication_response, code: auth.code }),
        "PASSKEY_AUTHENTICATION_FAILED",
      );
    }
    await expectJson(await post(SIGN_IN, { authentication_response: assertion, code: auth.code }));
  });
});

describe("users", () => {
  it("requires a signed-in user to register, and not an anonymous one", async () => {
    await expectKnownError(await post(INITIATE_REGISTRATION, {}), "USER_AUTHENTICATION_REQUIRED");
    const authenticator = createSoftAuthenticator();
    const credential = authenticator.register({ challenge: "AAAA", origin: APP, userHandle: "AAAA" });
    await expectKnownError(
      await post(REGISTER, { credential, code: "0".repeat(45) }),
      "USER_AUTHENTICATION_REQUIRED",
    );

    const anonymous = await server.signIn(keys.projectId, { audience: "anonymous" });
    const refusal = "Anonymous users cannot register a passkey.";
    expect(
      await expectFailure(
        await post(INITIATE_REGISTRATION, {}, withToken(anonymous.accessToken, ANON)),
        "PASSKEY_REGISTRATION_FAILED",
      ),
    ).toBe(refusal);
    // Checked again at register.
    expect(
      await expectFailure(
        await post(REGISTER, { credential, code: "0".repeat(45) }, withToken(anonymous.accessToken, ANON)),
        "PASSKEY_REGISTRATION_FAILED",
      ),
    ).toBe(refusal);
  });

  it("signs a TOTP user in only through the second factor", async () => {
    const user = await userWithPasskey();
    const secret = randomBytes(20).toString("base64");
    await patchMe(user.token, { totp_secret_base64: secret });
    const body = await expectKnownError(
      await signIn(user.authenticator),
      "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
    );
    const attemptCode = (body.details as { attempt_code: string }).attempt_code;
    expect(attemptCode).toMatch(CODE);
    expect(await server.deps.sessions.list(keys.projectId, user.userId)).toHaveLength(1);
    // The passkey was used: its counter moved on.
    expect((await storedPasskeys(user.userId))[0]?.counter).toBe(2);

    const totp = TOTP.generate({
      secret: Secret.fromHex(Buffer.from(secret, "base64").toString("hex")),
      algorithm: "SHA1",
      digits: 6,
      period: 30,
      timestamp: server.clock.now().getTime(),
    });
    const answer = await expectJson<SignInAnswer>(
      await post(MFA_SIGN_IN, { code: attemptCode, type: "totp", totp }),
    );
    expect(answer).toMatchObject({ user_id: user.userId, is_new_user: false });
    expect((await readMe(answer.access_token)).id).toBe(user.userId);
  });

  it("removes the passkey with PATCH passkey_auth_enabled: false; true changes nothing", async () => {
    const user = await userWithPasskey();
    expect((await patchMe(user.token, { passkey_auth_enabled: true })).passkey_auth_enabled).toBe(true);
    expect(await storedPasskeys(user.userId)).toHaveLength(1);
    expect((await patchMe(user.token, { passkey_auth_enabled: false })).passkey_auth_enabled).toBe(false);
    expect(await storedPasskeys(user.userId)).toEqual([]);
    await expectFailure(await signIn(user.authenticator), "PASSKEY_AUTHENTICATION_FAILED");
    expect((await patchMe(user.token, { passkey_auth_enabled: true })).passkey_auth_enabled).toBe(false);

    // A server PATCH of the user does the same.
    const other = await userWithPasskey();
    const patched = await expectJson<{ passkey_auth_enabled: boolean }>(
      await server.request(`/api/v1/users/${other.userId}`, {
        method: "PATCH",
        headers: { ...accessHeaders("server", keys), "content-type": "application/json" },
        body: JSON.stringify({ passkey_auth_enabled: false }),
      }),
    );
    expect(patched.passkey_auth_enabled).toBe(false);
    await expectFailure(await signIn(other.authenticator), "PASSKEY_AUTHENTICATION_FAILED");
  });

  it("removes the passkey with its user", async () => {
    const user = await userWithPasskey();
    const res = await server.request(`/api/v1/users/${user.userId}`, {
      method: "DELETE",
      headers: { ...accessHeaders("server", keys), "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    expect(await storedPasskeys(user.userId)).toEqual([]);
    await expectFailure(await signIn(user.authenticator), "PASSKEY_AUTHENTICATION_FAILED");
  });
});

describe("the project switch, access and input", () => {
  it("answers PASSKEY_AUTHENTICATION_NOT_ENABLED on all four endpoints while passkey_enabled is off", async () => {
    const off = (await server.createProject({ displayName: "No passkeys" })).keys;
    const user = await newUser(off);
    const credential = createSoftAuthenticator().register({
      challenge: "AAAA",
      origin: APP,
      userHandle: "AAAA",
    });
    const assertion = createSoftAuthenticator().authenticate({ challenge: "AAAA", origin: APP });
    const code = "0".repeat(45);
    for (const [path, body] of [
      [INITIATE_REGISTRATION, {}],
      [REGISTER, { credential, code }],
      [INITIATE_AUTHENTICATION, {}],
      [SIGN_IN, { authentication_response: assertion, code }],
    ] as const) {
      const res = await post(path, body, withToken(user.token), "client", off);
      expect(res.headers.get("x-stack-known-error"), path).toBe("PASSKEY_AUTHENTICATION_NOT_ENABLED");
      await expectKnownError(res, "PASSKEY_AUTHENTICATION_NOT_ENABLED");
    }
  });

  it("needs an access type", async () => {
    for (const path of [INITIATE_REGISTRATION, REGISTER, INITIATE_AUTHENTICATION, SIGN_IN]) {
      await expectKnownError(
        await server.request(path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        }),
        "ACCESS_TYPE_REQUIRED",
      );
    }
  });

  it("validates bodies strictly at the top and loosely inside the browser's JSON", async () => {
    const user = await newUser();
    for (const path of [INITIATE_REGISTRATION, INITIATE_AUTHENTICATION]) {
      const body = await expectKnownError(
        await post(path, { extra: 1 }, withToken(user.token)),
        "SCHEMA_ERROR",
      );
      expect(body.message).toBe(
        `Request validation failed on POST ${path}:\n  - body contains unknown properties: extra`,
      );
      await expectKnownError(await post(path, [], withToken(user.token)), "SCHEMA_ERROR");
    }

    const authenticator = createSoftAuthenticator();
    const { credential, code } = await answeredRegistration(authenticator, user.token);
    const badRegistrations: unknown[] = [
      {},
      { credential },
      { code },
      { credential, code, extra: 1 },
      { credential: "x", code },
      { credential: null, code },
      { credential, code: code.slice(1) },
      { credential, code: 45 },
      { credential: { ...credential, id: 1 }, code },
      { credential: { ...credential, response: undefined }, code },
      { credential: { ...credential, response: { ...credential.response, clientDataJSON: 1 } }, code },
      {
        credential: { ...credential, response: { ...credential.response, attestationObject: undefined } },
        code,
      },
      { credential: { ...credential, response: { ...credential.response, transports: "usb" } }, code },
      { credential: { ...credential, clientExtensionResults: [] }, code },
    ];
    for (const body of badRegistrations) {
      await expectKnownError(await post(REGISTER, body, withToken(user.token)), "SCHEMA_ERROR");
    }
    const unknown = await expectKnownError(
      await post(REGISTER, { credential, code, extra: 1 }, withToken(user.token)),
      "SCHEMA_ERROR",
    );
    expect(unknown.message).toBe(
      "Request validation failed on POST /api/v1/auth/passkey/register:\n  - body contains unknown properties: extra",
    );
    // Browsers add fields of their own inside the credential; upper-case codes are the same code.
    const extended = {
      ...credential,
      browserExtra: true,
      response: { ...credential.response, publicKeyAlgorithm: -7 },
    };
    await expectJson(
      await post(REGISTER, { credential: extended, code: code.toUpperCase() }, withToken(user.token)),
    );

    const auth = await initiateAuthentication();
    const assertion = authenticator.authenticate({ challenge: auth.options_json.challenge, origin: APP });
    const badSignIns: unknown[] = [
      {},
      { authentication_response: assertion },
      { code: auth.code },
      { authentication_response: assertion, code: auth.code, extra: 1 },
      { authentication_response: [], code: auth.code },
      { credential: assertion, code: auth.code },
      { authentication_response: { ...assertion, rawId: undefined }, code: auth.code },
      {
        authentication_response: { ...assertion, response: { ...assertion.response, signature: 5 } },
        code: auth.code,
      },
      {
        authentication_response: { ...assertion, response: { ...assertion.response, userHandle: 5 } },
        code: auth.code,
      },
      { authentication_response: assertion, code: `${auth.code}x` },
    ];
    for (const body of badSignIns) await expectKnownError(await post(SIGN_IN, body), "SCHEMA_ERROR");
    // None of these used the code.
    await expectJson(
      await post(SIGN_IN, { authentication_response: { ...assertion, extra: {} }, code: auth.code }),
    );
  });

  it("counts register and sign-in submissions against the caller's IP (60 per minute)", async () => {
    const user = await userWithPasskey();
    for (const path of [REGISTER, SIGN_IN]) {
      const ip = { "x-forwarded-for": uniqueIp() };
      server.clock.advance(MINUTE - (server.clock.now().getTime() % MINUTE));
      const token = (await server.signIn(keys.projectId, { email: uniqueEmail("limit") })).accessToken;
      const body =
        path === REGISTER
          ? {
              credential: user.authenticator.register({ challenge: "AAAA", origin: APP, userHandle: "AAAA" }),
            }
          : { authentication_response: user.authenticator.authenticate({ challenge: "AAAA", origin: APP }) };
      for (let i = 0; i < 60; i++) {
        await expectKnownError(
          await post(path, { ...body, code: "0".repeat(45) }, withToken(token, ip)),
          "VERIFICATION_CODE_NOT_FOUND",
        );
      }
      await expectTextError(
        await post(path, { ...body, code: "0".repeat(45) }, withToken(token, ip)),
        429,
        "Too many requests. Please try again later.",
      );
    }
  });
});
