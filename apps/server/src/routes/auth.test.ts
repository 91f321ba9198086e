// Password sign-up and sign-in (WIRE.md §4.1) and anonymous sign-up (§4.7): tokens and their 18 claims (§3.1),
// errors in the spec's check order, trusted callback URLs (§7), anonymous upgrade, anti-enumeration (one argon2
// computation per request, counted with spies) and the rehash of hashes with other parameters.
import { hash } from "@node-rs/argon2";
import { createLocalJWKSet, decodeJwt, type JSONWebKeySet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inTransaction } from "../db/client.ts";
import { tokenIssuerAndAudience } from "../services/sessions.ts";
import { expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  TEST_BASE_URL,
  type TestServer,
  uniqueEmail,
} from "../testing/test-server.ts";

const SIGN_UP = "/api/v1/auth/password/sign-up";
const SIGN_IN = "/api/v1/auth/password/sign-in";
const ANONYMOUS = "/api/v1/auth/anonymous/sign-up";
const ME = "/api/v1/users/me";
const PASSWORD = "correct horse battery";
const REFRESH_TOKEN = /^[0-9abcdefghjkmnpqrstvwxyz]{45}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  keys = (
    await server.createProject({
      displayName: "Auth",
      config: { domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] },
    })
  ).keys;
});
afterAll(() => server.close());

let counter = 0;

type SignInAnswer = { access_token: string; refresh_token: string; user_id: string };

const post = (path: string, body: unknown, headers: Record<string, string> = {}, k: ProjectKeys = keys) =>
  server.request(path, {
    method: "POST",
    headers: { ...accessHeaders("client", k), "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

const signUp = (body: unknown, headers: Record<string, string> = {}, k: ProjectKeys = keys) =>
  post(SIGN_UP, body, headers, k);
const signIn = (body: unknown, k: ProjectKeys = keys) => post(SIGN_IN, body, {}, k);

async function expectSignedIn(res: Response): Promise<SignInAnswer> {
  expect(res.status).toBe(200);
  const body = (await res.json()) as SignInAnswer;
  expect(Object.keys(body).sort()).toEqual(["access_token", "refresh_token", "user_id"]);
  expect(body.user_id).toMatch(UUID);
  expect(body.refresh_token).toMatch(REFRESH_TOKEN);
  return body;
}

const me = (token: string, headers: Record<string, string> = {}) =>
  server.request(ME, {
    headers: { ...accessHeaders("client", keys), "x-stack-access-token": token, ...headers },
  });

type User = Record<string, unknown> & { id: string };

async function readMe(token: string, headers: Record<string, string> = {}): Promise<User> {
  const res = await me(token, headers);
  expect(res.status).toBe(200);
  return (await res.json()) as User;
}

const projectWith = async (config: Parameters<TestServer["createProject"]>[0]) =>
  (await server.createProject(config)).keys;

describe("POST /auth/password/sign-up", () => {
  it("creates a user and answers tokens whose claims are exactly those of §3.1", async () => {
    const email = `Mixed.Case-${++counter}@Example.com`;
    const before = server.clock.now();
    const answer = await expectSignedIn(await signUp({ email, password: PASSWORD }));

    const jwksRes = await server.request(`/api/v1/projects/${keys.projectId}/.well-known/jwks.json`);
    expect(jwksRes.status).toBe(200);
    const jwks = createLocalJWKSet((await jwksRes.json()) as JSONWebKeySet);
    const { iss, aud } = tokenIssuerAndAudience(TEST_BASE_URL, keys.projectId, "default");
    const { payload, protectedHeader } = await jwtVerify(answer.access_token, jwks, {
      issuer: iss,
      audience: aud,
      currentDate: server.clock.now(),
    });
    expect(protectedHeader).toEqual({ alg: "ES256", typ: "JWT", kid: expect.any(String) });

    const seconds = Math.floor(before.getTime() / 1000);
    expect(Object.keys(payload).sort()).toEqual(
      [
        "iss",
        "aud",
        "iat",
        "exp",
        "sub",
        "project_id",
        "branch_id",
        "refresh_token_id",
        "role",
        "name",
        "email",
        "email_verified",
        "selected_team_id",
        "signed_up_at",
        "is_anonymous",
        "is_restricted",
        "restricted_reason",
        "requires_totp_mfa",
      ].sort(),
    );
    expect(payload).toEqual({
      iss: `${TEST_BASE_URL}/api/v1/projects/${keys.projectId}`,
      aud: keys.projectId,
      iat: seconds,
      exp: seconds + 600,
      sub: answer.user_id,
      project_id: keys.projectId,
      branch_id: "main",
      refresh_token_id: expect.stringMatching(UUID),
      role: "authenticated",
      name: null,
      email,
      email_verified: false,
      selected_team_id: null,
      signed_up_at: seconds,
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
      requires_totp_mfa: false,
    });

    // The token works at the API and names a user with an unverified, auth-enabled e-mail and a password.
    const user = await readMe(answer.access_token);
    expect(user).toMatchObject({
      id: answer.user_id,
      primary_email: email,
      primary_email_verified: false,
      has_password: true,
      auth_with_email: true,
      is_anonymous: false,
      signed_up_at_millis: before.getTime(),
    });
  });

  it("answers PASSWORD_AUTHENTICATION_NOT_ENABLED first, whatever else is wrong", async () => {
    const off = await projectWith({ config: { credential_enabled: false, sign_up_enabled: false } });
    await expectKnownError(
      await signUp(
        { email: uniqueEmail(), password: "short", verification_callback_url: "https://evil.test/cb" },
        {},
        off,
      ),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    );
    const onlyOff = await projectWith({ config: { credential_enabled: false } });
    await expectKnownError(
      await signUp({ email: uniqueEmail(), password: PASSWORD }, {}, onlyOff),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    );
  });

  it("checks the callback URL before sign_up_enabled, and sign_up_enabled before the password", async () => {
    const closed = await projectWith({ config: { sign_up_enabled: false } });
    await expectKnownError(
      await signUp(
        { email: uniqueEmail(), password: "short", verification_callback_url: "https://evil.test/cb" },
        {},
        closed,
      ),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    const body = await expectKnownError(
      await signUp({ email: uniqueEmail(), password: "short" }, {}, closed),
      "SIGN_UP_NOT_ENABLED",
    );
    expect(body.message).toBe(
      "Creation of new accounts is not enabled for this project. Please ask the project owner to enable it.",
    );
  });

  it("checks the password length before the e-mail's availability", async () => {
    const email = uniqueEmail();
    await expectSignedIn(await signUp({ email, password: PASSWORD }));
    await expectKnownError(await signUp({ email, password: "1234567" }), "PASSWORD_TOO_SHORT", {
      min_length: 8,
    });
  });

  it("trusts localhost (when allowed) and the exact origins of configured domains only", async () => {
    const trusted = [
      "http://localhost:3000/handler/email-verification",
      "http://app.localhost/cb",
      "http://127.0.0.1:8080/cb",
      "https://app.example.com/handler/email-verification?after=1",
    ];
    for (const url of trusted) {
      const res = await signUp({ email: uniqueEmail(), password: PASSWORD, verification_callback_url: url });
      expect(res.status, url).toBe(200);
    }
    const untrusted = [
      "https://evil.test/handler",
      "https://app.example.com.evil.test/handler",
      "https://app.example.com@evil.test/handler",
      "https://user:pass@app.example.com/handler",
      "http://app.example.com/handler",
      "https://app.example.com:8443/handler",
      "https://sub.app.example.com/handler",
    ];
    for (const url of untrusted) {
      const res = await signUp({ email: uniqueEmail(), password: PASSWORD, verification_callback_url: url });
      const body = await expectKnownError(res, "REDIRECT_URL_NOT_WHITELISTED");
      expect(body.message, url).toBe(
        "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?",
      );
    }
    const noLocalhost = await projectWith({ config: { allow_localhost: false } });
    await expectKnownError(
      await signUp(
        { email: uniqueEmail(), password: PASSWORD, verification_callback_url: "http://localhost:3000/cb" },
        {},
        noLocalhost,
      ),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
  });

  it("counts the password's length in code points: 8 to 256", async () => {
    await expectKnownError(
      await signUp({ email: uniqueEmail(), password: "1234567" }),
      "PASSWORD_TOO_SHORT",
      { min_length: 8 },
    );
    await expectSignedIn(await signUp({ email: uniqueEmail(), password: "x2345678" }));
    const body = await expectKnownError(
      await signUp({ email: uniqueEmail(), password: "😀".repeat(257) }),
      "PASSWORD_TOO_LONG",
      { maxLength: 256 },
    );
    expect(body.message).toBe("Password too long. Maximum length is 256.");
    await expectKnownError(
      await signUp({ email: uniqueEmail(), password: "a".repeat(257) }),
      "PASSWORD_TOO_LONG",
      { maxLength: 256 },
    );
    // 256 emoji are 512 UTF-16 units and 1024 UTF-8 bytes, but 256 code points: accepted, and usable to sign in.
    const email = uniqueEmail();
    const emoji = "😀".repeat(256);
    await expectSignedIn(await signUp({ email, password: emoji }));
    await expectSignedIn(await signIn({ email, password: emoji }));
  });

  it("refuses an e-mail that is taken, in any case", async () => {
    const email = uniqueEmail("taken");
    await expectSignedIn(await signUp({ email, password: PASSWORD }));
    const other = email.toUpperCase();
    const body = await expectKnownError(
      await signUp({ email: other, password: PASSWORD }),
      "USER_EMAIL_ALREADY_EXISTS",
      { email: other, would_work_if_email_was_verified: false },
    );
    expect(body.message).toBe(`A user with email "${other}" already exists.`);
    // A verified, auth-enabled address of a user without a password is taken too.
    const verified = uniqueEmail("verified");
    await server.signIn(keys.projectId, { email: verified });
    await expectKnownError(
      await signUp({ email: verified, password: PASSWORD }),
      "USER_EMAIL_ALREADY_EXISTS",
      { email: verified, would_work_if_email_was_verified: false },
    );
  });

  it("answers SCHEMA_ERROR for an invalid e-mail, a missing password and unknown fields", async () => {
    const invalid = await expectKnownError(
      await signUp({ email: "not-an-email", password: PASSWORD }),
      "SCHEMA_ERROR",
    );
    expect(invalid.message).toMatch(
      /^Request validation failed on POST \/api\/v1\/auth\/password\/sign-up:\n/,
    );
    expect(invalid.message).toContain("body.email");
    const missing = await expectKnownError(await signUp({ email: uniqueEmail() }), "SCHEMA_ERROR");
    expect(missing.message).toContain("  - body.password must be defined");
    const unknown = await expectKnownError(
      await signUp({ email: uniqueEmail(), password: PASSWORD, nickname: "x" }),
      "SCHEMA_ERROR",
    );
    expect(unknown.message).toContain("  - body contains unknown properties: nickname");
    expect(unknown.details).toEqual({ message: unknown.message });
    // Bot-challenge fields are accepted and ignored.
    await expectSignedIn(
      await signUp({
        email: uniqueEmail(),
        password: PASSWORD,
        bot_challenge_token: "t",
        bot_challenge_phase: "invisible",
      }),
    );
  });
});

describe("anonymous users (§4.7)", () => {
  it("signs up an anonymous user whose token has the anonymous audience", async () => {
    const answer = await expectSignedIn(await post(ANONYMOUS, {}));
    const claims = decodeJwt(answer.access_token);
    expect(claims).toMatchObject({
      aud: `${keys.projectId}:anon`,
      iss: `${TEST_BASE_URL}/api/v1/projects-anonymous-users/${keys.projectId}`,
      sub: answer.user_id,
      email: null,
      is_anonymous: true,
      is_restricted: true,
      restricted_reason: { type: "anonymous" },
    });

    const refused = await expectKnownError(
      await me(answer.access_token),
      "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
    );
    expect(refused.message).toBe(
      "X-Stack-Access-Token is for an anonymous user, but anonymous users are not enabled. Set the X-Stack-Allow-Anonymous-User header of this request to 'true' to allow anonymous users.",
    );
    const user = await readMe(answer.access_token, { "x-stack-allow-anonymous-user": "true" });
    expect(user).toMatchObject({
      id: answer.user_id,
      primary_email: null,
      has_password: false,
      is_anonymous: true,
      is_restricted: true,
      restricted_reason: { type: "anonymous" },
    });
  });

  it("accepts an empty body, and needs sign_up_enabled", async () => {
    const res = await server.request(ANONYMOUS, { method: "POST", headers: accessHeaders("client", keys) });
    await expectSignedIn(res);
    const closed = await projectWith({ config: { sign_up_enabled: false } });
    await expectKnownError(await post(ANONYMOUS, {}, {}, closed), "SIGN_UP_NOT_ENABLED");
  });

  it("upgrades the anonymous caller in place on password sign-up", async () => {
    const anonymous = await expectSignedIn(await post(ANONYMOUS, {}));
    const email = uniqueEmail("upgrade");
    const upgraded = await expectSignedIn(
      await signUp(
        { email, password: PASSWORD },
        { "x-stack-access-token": anonymous.access_token, "x-stack-allow-anonymous-user": "true" },
      ),
    );
    expect(upgraded.user_id).toBe(anonymous.user_id);
    expect(decodeJwt(upgraded.access_token)).toMatchObject({
      aud: keys.projectId,
      sub: anonymous.user_id,
      email,
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
    });
    const user = await readMe(upgraded.access_token);
    expect(user).toMatchObject({
      id: anonymous.user_id,
      primary_email: email,
      has_password: true,
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
    });
    // The upgraded user signs in with the password.
    expect((await expectSignedIn(await signIn({ email, password: PASSWORD }))).user_id).toBe(
      anonymous.user_id,
    );
  });

  it("upgrades nobody when the anonymous token lacks the allow header, the e-mail is taken or sign-up is off", async () => {
    const anonymous = await expectSignedIn(await post(ANONYMOUS, {}));
    const allow = { "x-stack-access-token": anonymous.access_token, "x-stack-allow-anonymous-user": "true" };
    await expectKnownError(
      await signUp(
        { email: uniqueEmail(), password: PASSWORD },
        { "x-stack-access-token": anonymous.access_token },
      ),
      "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
    );
    const taken = uniqueEmail("taken-upgrade");
    await expectSignedIn(await signUp({ email: taken, password: PASSWORD }));
    await expectKnownError(
      await signUp({ email: taken, password: PASSWORD }, allow),
      "USER_EMAIL_ALREADY_EXISTS",
    );
    await expectKnownError(
      await signUp({ email: uniqueEmail(), password: "short" }, allow),
      "PASSWORD_TOO_SHORT",
    );
    expect(await readMe(anonymous.access_token, { "x-stack-allow-anonymous-user": "true" })).toMatchObject({
      is_anonymous: true,
      primary_email: null,
      has_password: false,
    });

    const closed = await projectWith({ config: { sign_up_enabled: false } });
    const stranded = await server.signIn(closed.projectId, { audience: "anonymous" });
    await expectKnownError(
      await signUp(
        { email: uniqueEmail(), password: PASSWORD },
        { "x-stack-access-token": stranded.accessToken, "x-stack-allow-anonymous-user": "true" },
        closed,
      ),
      "SIGN_UP_NOT_ENABLED",
    );
  });

  it("ignores the token of a signed-in, non-anonymous caller: a new user is created", async () => {
    const existing = await server.signIn(keys.projectId, { email: uniqueEmail("existing") });
    const email = uniqueEmail("fresh");
    const created = await expectSignedIn(
      await signUp(
        { email, password: PASSWORD },
        { "x-stack-access-token": existing.accessToken, "x-stack-allow-anonymous-user": "true" },
      ),
    );
    expect(created.user_id).not.toBe(existing.userId);
    expect((await readMe(created.access_token)).primary_email).toBe(email);
    expect((await readMe(existing.accessToken)).id).toBe(existing.userId);
  });
});

describe("POST /auth/password/sign-in", () => {
  let email: string;
  let userId: string;

  beforeAll(async () => {
    email = uniqueEmail("signin");
    userId = (await expectSignedIn(await signUp({ email, password: PASSWORD }))).user_id;
  });

  it("signs in with the right password; the token works", async () => {
    const answer = await expectSignedIn(await signIn({ email, password: PASSWORD }));
    expect(answer.user_id).toBe(userId);
    const user = await readMe(answer.access_token);
    expect(user).toMatchObject({ id: userId, primary_email: email });
    expect(decodeJwt(answer.access_token)).toMatchObject({ sub: userId, aud: keys.projectId });
  });

  it("matches the e-mail case-insensitively", async () => {
    expect(
      (await expectSignedIn(await signIn({ email: email.toUpperCase(), password: PASSWORD }))).user_id,
    ).toBe(userId);
  });

  it("answers a wrong password and an unknown e-mail with byte-identical bodies", async () => {
    const wrong = await signIn({ email, password: "wrong password" });
    const unknown = await signIn({ email: uniqueEmail("nobody"), password: PASSWORD });
    const wrongText = await wrong.clone().text();
    const unknownText = await unknown.clone().text();
    const body = await expectKnownError(wrong, "EMAIL_PASSWORD_MISMATCH");
    await expectKnownError(unknown, "EMAIL_PASSWORD_MISMATCH");
    expect(body.message).toBe("Wrong e-mail or password.");
    expect(unknownText).toBe(wrongText);
  });

  it("answers EMAIL_PASSWORD_MISMATCH for a user without a password", async () => {
    const passwordless = uniqueEmail("passwordless");
    await server.signIn(keys.projectId, { email: passwordless });
    await expectKnownError(
      await signIn({ email: passwordless, password: PASSWORD }),
      "EMAIL_PASSWORD_MISMATCH",
    );
  });

  it("matches only auth-enabled e-mails", async () => {
    const address = uniqueEmail("contact-only");
    const passwordHash = await server.deps.hasher.hash(PASSWORD);
    const project = await server.deps.projects.find(keys.projectId);
    await inTransaction(server.deps.db, (tx) =>
      server.deps.users.create(tx, {
        project: project!,
        email: { value: address, verified: true, usedForAuth: false },
        passwordHash,
      }),
    );
    await expectKnownError(await signIn({ email: address, password: PASSWORD }), "EMAIL_PASSWORD_MISMATCH");
    // Not auth-enabled, so not taken: another user may sign up with it.
    const created = await expectSignedIn(await signUp({ email: address, password: PASSWORD }));
    expect((await expectSignedIn(await signIn({ email: address, password: PASSWORD }))).user_id).toBe(
      created.user_id,
    );
  });

  it("answers a too-short password as a wrong one", async () => {
    await expectKnownError(await signIn({ email, password: "short" }), "EMAIL_PASSWORD_MISMATCH");
  });

  it("answers PASSWORD_AUTHENTICATION_NOT_ENABLED when credentials are off", async () => {
    const off = await projectWith({ config: { credential_enabled: false } });
    await expectKnownError(
      await signIn({ email, password: PASSWORD }, off),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    );
  });

  it("validates the body strictly", async () => {
    await expectKnownError(await signIn({ email }), "SCHEMA_ERROR");
    await expectKnownError(await signIn({ email, password: PASSWORD, remember: true }), "SCHEMA_ERROR");
  });
});

describe("no e-mail enumeration: one argon2 computation per request (§4.1 [GF])", () => {
  function spyOnHasher() {
    const { hasher } = server.deps;
    const spies = {
      hash: vi.spyOn(hasher, "hash"),
      verify: vi.spyOn(hasher, "verify"),
      burn: vi.spyOn(hasher, "burn"),
    };
    const counts = () => ({
      hash: spies.hash.mock.calls.length,
      verifications: spies.verify.mock.calls.length + spies.burn.mock.calls.length,
    });
    const clear = () => {
      for (const spy of Object.values(spies)) spy.mockClear();
    };
    const restore = () => {
      for (const spy of Object.values(spies)) spy.mockRestore();
    };
    return { counts, clear, restore };
  }

  it("sign-in spends exactly one verification and no hash, known e-mail or not", async () => {
    const email = uniqueEmail("enum");
    await expectSignedIn(await signUp({ email, password: PASSWORD }));
    const passwordless = uniqueEmail("enum-nopassword");
    await server.signIn(keys.projectId, { email: passwordless });
    const spy = spyOnHasher();
    try {
      const cases = [
        { email: uniqueEmail("enum-unknown"), password: PASSWORD },
        { email, password: "wrong password" },
        { email: passwordless, password: PASSWORD },
      ];
      for (const body of cases) {
        spy.clear();
        await expectKnownError(await signIn(body), "EMAIL_PASSWORD_MISMATCH");
        expect(spy.counts(), body.email).toEqual({ hash: 0, verifications: 1 });
      }
      spy.clear();
      await expectSignedIn(await signIn({ email, password: PASSWORD }));
      expect(spy.counts()).toEqual({ hash: 0, verifications: 1 });
    } finally {
      spy.restore();
    }
  });

  it("sign-up hashes exactly once whether or not the e-mail is taken", async () => {
    const email = uniqueEmail("enum-signup");
    const spy = spyOnHasher();
    try {
      await expectSignedIn(await signUp({ email, password: PASSWORD }));
      expect(spy.counts()).toEqual({ hash: 1, verifications: 0 });
      spy.clear();
      await expectKnownError(await signUp({ email, password: PASSWORD }), "USER_EMAIL_ALREADY_EXISTS");
      expect(spy.counts()).toEqual({ hash: 1, verifications: 0 });
    } finally {
      spy.restore();
    }
  });
});

describe("rehash at sign-in (§4.8 [GF])", () => {
  it("replaces an argon2id hash with other parameters after a successful sign-in", async () => {
    const email = uniqueEmail("rehash");
    const { user_id: userId } = await expectSignedIn(await signUp({ email, password: PASSWORD }));
    const weak = await hash(PASSWORD, { memoryCost: 4096, timeCost: 1, parallelism: 1 });
    expect(weak.startsWith("$argon2id$v=19$m=4096,t=1,p=1$")).toBe(true);
    await inTransaction(server.deps.db, (tx) =>
      server.deps.usersRepo.update(tx, userId, { passwordHash: weak }),
    );
    const stored = async () => (await server.deps.usersRepo.find(keys.projectId, userId))?.passwordHash;

    // A failed sign-in leaves the hash alone.
    await expectKnownError(await signIn({ email, password: "wrong password" }), "EMAIL_PASSWORD_MISMATCH");
    expect(await stored()).toBe(weak);

    await expectSignedIn(await signIn({ email, password: PASSWORD }));
    const replaced = await stored();
    expect(replaced).not.toBe(weak);
    expect(replaced?.startsWith("$argon2id$v=19$m=19456,t=2,p=1$")).toBe(true);
    // The new hash still holds the same password.
    await expectSignedIn(await signIn({ email, password: PASSWORD }));
    expect(await stored()).toBe(replaced);
  });
});
