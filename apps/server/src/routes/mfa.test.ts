// TOTP second factor over HTTP (WIRE.md §4.3, §5.1 MFA attempt row): password and one-time-code sign-ins of a TOTP
// user pause with MULTI_FACTOR_AUTHENTICATION_REQUIRED and no session; POST /auth/mfa/sign-in completes them with a
// TOTP value (current and previous step, each value once) or [GO] a recovery code; the attempt code's limits.

import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { decodeJwt } from "jose";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstLink } from "../email/worker.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
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

const SIGN_UP = "/api/v1/auth/password/sign-up";
const SIGN_IN = "/api/v1/auth/password/sign-in";
const ANONYMOUS = "/api/v1/auth/anonymous/sign-up";
const SEND_OTP = "/api/v1/auth/otp/send-sign-in-code";
const OTP_SIGN_IN = "/api/v1/auth/otp/sign-in";
const MFA_SIGN_IN = "/api/v1/auth/mfa/sign-in";
const RECOVERY_CODES = "/api/v1/auth/mfa/recovery-codes";
const REFRESH = "/api/v1/auth/sessions/current/refresh";
const ME = "/api/v1/users/me";
const EMAILS = "/api/v1/internal/emails";

const DOMAIN = "https://app.example.com";
const MAGIC_CALLBACK = `${DOMAIN}/handler/magic-link-callback`;
const PASSWORD = "correct horse battery";
const STEP_MS = 30_000;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const CODE = /^[0-9abcdefghjkmnpqrstvwxyz]{45}$/;
const RECOVERY_CODE = /^[0-9abcdefghjkmnpqrstvwxyz]{5}-[0-9abcdefghjkmnpqrstvwxyz]{5}$/;
const ANON = { "x-stack-allow-anonymous-user": "true" };

type SignInAnswer = { access_token: string; refresh_token: string; user_id: string };
type MfaAnswer = SignInAnswer & { is_new_user: boolean };

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  const created = await server.createProject(
    {
      displayName: "MFA project",
      config: { magic_link_enabled: true, domains: [{ domain: DOMAIN, handler_path: "/handler" }] },
    },
    { expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) },
  );
  keys = created.keys;
});
afterAll(async () => {
  await server.deps.emailWorker.stop();
  await server.close();
});

/** JSON POSTs as this suite's project, each from a new address unless the test names one. */
const post = jsonPost(() => ({ server, keys }));

const readMe = async (token: string, headers: Record<string, string> = {}) =>
  expectJson<{ id: string; requires_totp_mfa: boolean; is_anonymous: boolean }>(
    await server.request(ME, {
      headers: { ...accessHeaders("client", keys), ...withToken(token), ...headers },
    }),
  );

const patchMe = async (token: string, body: unknown, headers: Record<string, string> = {}) =>
  expectJson(
    await server.request(ME, {
      method: "PATCH",
      headers: {
        ...accessHeaders("client", keys),
        "content-type": "application/json",
        ...withToken(token),
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  );

const newSecret = () => randomBytes(20).toString("base64");

/**
 * A user with a verified sign-in e-mail, a password and, unless `secret` is null, a TOTP secret, made by the server
 * API; its access token comes from a server-created session (not a sign-in, so no MFA).
 */
async function totpUser(secret: string | null = newSecret()) {
  const email = uniqueEmail("mfa");
  const created = await expectJson<{ id: string }>(
    await post(
      "/api/v1/users",
      {
        primary_email: email,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
        password: PASSWORD,
        ...(secret ? { totp_secret_base64: secret } : {}),
      },
      {},
      "server",
    ),
    201,
  );
  const session = await expectJson<{ access_token: string }>(
    await post("/api/v1/auth/sessions", { user_id: created.id }, {}, "server"),
  );
  return { email, secret: secret as string, userId: created.id, token: session.access_token };
}

/** The authenticator app's value `offsetSteps` steps from the server's clock (otpauth, independent of the server). */
const totp = (secret: string, offsetSteps = 0) =>
  TOTP.generate({
    secret: Secret.fromHex(Buffer.from(secret, "base64").toString("hex")),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
    timestamp: server.clock.now().getTime() + offsetSteps * STEP_MS,
  });

/** The attempt code of a paused sign-in. */
async function attemptCodeOf(res: Response): Promise<string> {
  const body = await expectKnownError(res, "MULTI_FACTOR_AUTHENTICATION_REQUIRED");
  expect(body.message).toBe("Multi-factor authentication is required for this user.");
  expect(Object.keys(body.details as object)).toEqual(["attempt_code"]);
  const code = (body.details as { attempt_code: string }).attempt_code;
  expect(code).toMatch(CODE);
  return code;
}

const passwordAttempt = async (email: string) =>
  attemptCodeOf(await post(SIGN_IN, { email, password: PASSWORD }));

const mfaTotp = (code: string, value: string, headers: Record<string, string> = {}) =>
  post(MFA_SIGN_IN, { code, type: "totp", totp: value }, headers);
const mfaRecovery = (code: string, recovery_code: string) =>
  post(MFA_SIGN_IN, { code, type: "recovery_code", recovery_code });

const sessionCount = async (userId: string) =>
  (await server.deps.sessions.list(keys.projectId, userId)).length;

async function expectWorkingTokens(answer: SignInAnswer, userId: string) {
  expect(answer.user_id).toBe(userId);
  expect((await readMe(answer.access_token)).id).toBe(userId);
  expect(decodeJwt(answer.access_token)).toMatchObject({ sub: userId, requires_totp_mfa: true });
  const refreshed = await expectJson<{ access_token: string }>(
    await server.request(REFRESH, {
      method: "POST",
      headers: { ...accessHeaders("client", keys), "x-stack-refresh-token": answer.refresh_token },
    }),
  );
  expect(decodeJwt(refreshed.access_token).sub).toBe(userId);
}

/** Sends a sign-in code and returns the magic link's code from the e-mail. */
async function otpCodeFor(email: string, headers: Record<string, string> = {}): Promise<string> {
  await expectJson(await post(SEND_OTP, { email, callback_url: MAGIC_CALLBACK }, headers));
  const res = await server.request(`${EMAILS}?to=${encodeURIComponent(email)}`, {
    headers: accessHeaders("admin", keys),
  });
  const { items } = await expectJson<{ items: { template_type: string; text: string | null }[] }>(res);
  const mail = items.find((item) => item.template_type === "magic_link");
  const code = new URL(firstLink(mail?.text ?? null) as string).searchParams.get("code");
  expect(code).toMatch(CODE);
  return code as string;
}

describe("sign-in paths of a TOTP user", () => {
  it("signs a user without a TOTP secret in as before, by password and by one-time code", async () => {
    const user = await totpUser(null);
    const byPassword = await expectJson<SignInAnswer>(
      await post(SIGN_IN, { email: user.email, password: PASSWORD }),
    );
    expect(byPassword.user_id).toBe(user.userId);
    const byOtp = await expectJson<MfaAnswer>(
      await post(OTP_SIGN_IN, { code: await otpCodeFor(user.email) }),
    );
    expect(byOtp).toMatchObject({ user_id: user.userId, is_new_user: false });
    expect(await sessionCount(user.userId)).toBe(3);
  });

  it("pauses a password sign-in with an attempt code and no session; the right TOTP completes it", async () => {
    const user = await totpUser();
    expect((await readMe(user.token)).requires_totp_mfa).toBe(true);
    const before = await sessionCount(user.userId);

    const code = await passwordAttempt(user.email);
    expect(await sessionCount(user.userId)).toBe(before);

    const answer = await expectJson<MfaAnswer>(await mfaTotp(code, totp(user.secret)));
    expect(Object.keys(answer).sort()).toEqual(["access_token", "is_new_user", "refresh_token", "user_id"]);
    expect(answer.is_new_user).toBe(false);
    await expectWorkingTokens(answer, user.userId);
    expect(await sessionCount(user.userId)).toBe(before + 1);
  });

  it("checks the password first: a wrong one is EMAIL_PASSWORD_MISMATCH, with no hint of MFA", async () => {
    const user = await totpUser();
    const body = await expectKnownError(
      await post(SIGN_IN, { email: user.email, password: "wrong password!" }),
      "EMAIL_PASSWORD_MISMATCH",
    );
    expect(body.details).toBeUndefined();
  });

  it("rehashes an imported password hash even when the sign-in pauses", async () => {
    const email = uniqueEmail("imported");
    const secret = newSecret();
    const created = await expectJson<{ id: string }>(
      await post(
        "/api/v1/users",
        {
          primary_email: email,
          primary_email_auth_enabled: true,
          password_hash: await bcrypt.hash(PASSWORD, 4),
          totp_secret_base64: secret,
        },
        {},
        "server",
      ),
      201,
    );
    const code = await passwordAttempt(email);
    const stored = await server.deps.usersRepo.find(keys.projectId, created.id);
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await sessionCount(created.id)).toBe(0);
    await expectWorkingTokens(await expectJson<MfaAnswer>(await mfaTotp(code, totp(secret))), created.id);
  });

  it("pauses a one-time-code sign-in: the code is used up and no session opens", async () => {
    const user = await totpUser();
    const before = await sessionCount(user.userId);
    const otpCode = await otpCodeFor(user.email);
    const code = await attemptCodeOf(await post(OTP_SIGN_IN, { code: otpCode }));
    expect(await sessionCount(user.userId)).toBe(before);
    await expectKnownError(await post(OTP_SIGN_IN, { code: otpCode }), "VERIFICATION_CODE_ALREADY_USED");

    const answer = await expectJson<MfaAnswer>(await mfaTotp(code, totp(user.secret)));
    expect(answer.is_new_user).toBe(false);
    await expectWorkingTokens(answer, user.userId);
  });

  it("carries is_new_user over: an anonymous user with a TOTP secret upgraded by one-time code", async () => {
    const anonymous = await expectJson<SignInAnswer>(await post(ANONYMOUS, {}));
    const secret = newSecret();
    await patchMe(anonymous.access_token, { totp_secret_base64: secret }, ANON);
    const email = uniqueEmail("anon-otp");
    const otpCode = await otpCodeFor(email);
    const code = await attemptCodeOf(
      await post(OTP_SIGN_IN, { code: otpCode }, withToken(anonymous.access_token, ANON)),
    );
    const answer = await expectJson<MfaAnswer>(await mfaTotp(code, totp(secret)));
    expect(answer).toMatchObject({ user_id: anonymous.user_id, is_new_user: true });
    expect(await readMe(answer.access_token)).toMatchObject({ id: anonymous.user_id, is_anonymous: false });
  });

  it("pauses a password sign-up that upgrades an anonymous user with a TOTP secret", async () => {
    const anonymous = await expectJson<SignInAnswer>(await post(ANONYMOUS, {}));
    const secret = newSecret();
    await patchMe(anonymous.access_token, { totp_secret_base64: secret }, ANON);
    const sessionsBefore = await sessionCount(anonymous.user_id);
    const code = await attemptCodeOf(
      await post(
        SIGN_UP,
        { email: uniqueEmail("anon-pw"), password: PASSWORD },
        withToken(anonymous.access_token, ANON),
      ),
    );
    expect(await sessionCount(anonymous.user_id)).toBe(sessionsBefore);
    const answer = await expectJson<MfaAnswer>(await mfaTotp(code, totp(secret)));
    expect(answer).toMatchObject({ user_id: anonymous.user_id, is_new_user: true });
  });

  it("no longer asks once the secret is removed", async () => {
    const user = await totpUser();
    await patchMe(user.token, { totp_secret_base64: null });
    const answer = await expectJson<SignInAnswer>(
      await post(SIGN_IN, { email: user.email, password: PASSWORD }),
    );
    expect(answer.user_id).toBe(user.userId);
    expect(decodeJwt(answer.access_token).requires_totp_mfa).toBe(false);
  });
});

describe("POST /auth/mfa/sign-in with a TOTP value", () => {
  it("accepts the previous step, and refuses two steps old and the next step", async () => {
    const user = await totpUser();
    const code = await passwordAttempt(user.email);
    await expectKnownError(await mfaTotp(code, totp(user.secret, -2)), "INVALID_TOTP_CODE");
    await expectKnownError(await mfaTotp(code, totp(user.secret, 1)), "INVALID_TOTP_CODE");
    await expectWorkingTokens(
      await expectJson<MfaAnswer>(await mfaTotp(code, totp(user.secret, -1))),
      user.userId,
    );
  });

  it("accepts each value once: the same value (or an earlier one) is refused after it signed in", async () => {
    const user = await totpUser();
    const value = totp(user.secret);
    await expectJson(await mfaTotp(await passwordAttempt(user.email), value));

    const code = await passwordAttempt(user.email);
    const refused = await expectKnownError(await mfaTotp(code, value), "INVALID_TOTP_CODE");
    expect(refused.message).toBe("The TOTP code is invalid. Please try again.");
    await expectKnownError(await mfaTotp(code, totp(user.secret, -1)), "INVALID_TOTP_CODE");
    // The attempt code is still good: the next step's value signs in once its step has come.
    server.clock.advance(STEP_MS);
    await expectWorkingTokens(
      await expectJson<MfaAnswer>(await mfaTotp(code, totp(user.secret))),
      user.userId,
    );
  });

  it("lets only one of two concurrent sign-ins with the same value through", async () => {
    const user = await totpUser();
    const codes = [await passwordAttempt(user.email), await passwordAttempt(user.email)];
    const value = totp(user.secret);
    const answers = await Promise.all(codes.map((code) => mfaTotp(code, value)));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400]);
    const loser = answers.find((res) => res.status === 400) as Response;
    await expectKnownError(loser, "INVALID_TOTP_CODE");
  });

  it("answers INVALID_TOTP_CODE for empty and malformed values", async () => {
    const user = await totpUser();
    const code = await passwordAttempt(user.email);
    const value = totp(user.secret);
    for (const wrong of ["", "abcdef", value.slice(0, 5), `${value}1`]) {
      await expectKnownError(await mfaTotp(code, wrong), "INVALID_TOTP_CODE");
    }
  });

  it("allows 5 submissions per attempt code: the sixth fails even with the right value", async () => {
    const user = await totpUser();
    const code = await passwordAttempt(user.email);
    const wrong = totp(user.secret, -3);
    for (let i = 0; i < 5; i++) await expectKnownError(await mfaTotp(code, wrong), "INVALID_TOTP_CODE");
    await expectKnownError(await mfaTotp(code, totp(user.secret)), "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
    expect(await sessionCount(user.userId)).toBe(1);
  });

  it("expires the attempt code after 5 minutes", async () => {
    const user = await totpUser();
    const early = await passwordAttempt(user.email);
    const late = await passwordAttempt(user.email);
    server.clock.advance(5 * MINUTE - 1);
    await expectJson(await mfaTotp(early, totp(user.secret)));
    server.clock.advance(STEP_MS + 1);
    await expectKnownError(await mfaTotp(late, totp(user.secret)), "VERIFICATION_CODE_EXPIRED");
  });

  it("refuses a used, unknown or foreign attempt code with the verification-code errors", async () => {
    const user = await totpUser();
    const code = await passwordAttempt(user.email);
    await expectJson(await mfaTotp(code, totp(user.secret)));
    server.clock.advance(STEP_MS);
    await expectKnownError(await mfaTotp(code, totp(user.secret)), "VERIFICATION_CODE_ALREADY_USED");

    await expectKnownError(await mfaTotp("0".repeat(45), totp(user.secret)), "VERIFICATION_CODE_NOT_FOUND");
    // A one-time sign-in code is a code of another purpose.
    const otpCode = await otpCodeFor(uniqueEmail("purpose"));
    await expectKnownError(await mfaTotp(otpCode, totp(user.secret)), "VERIFICATION_CODE_NOT_FOUND");
    // Another project's attempt code does not exist in this one.
    const other = (await server.createProject({ displayName: "Other" })).keys;
    const fresh = await passwordAttempt(user.email);
    await expectKnownError(
      await post(MFA_SIGN_IN, { code: fresh, type: "totp", totp: totp(user.secret) }, {}, "client", other),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    // Upper case is the same code (codes are lower-cased on input).
    server.clock.advance(STEP_MS);
    await expectJson(await mfaTotp(fresh.toUpperCase(), totp(user.secret)));
  });

  it("refuses the attempt code of a user deleted since the first step", async () => {
    const user = await totpUser();
    const code = await passwordAttempt(user.email);
    const deleted = await server.request(`/api/v1/users/${user.userId}`, {
      method: "DELETE",
      headers: { ...accessHeaders("server", keys), "content-type": "application/json" },
      body: "{}",
    });
    expect(deleted.status).toBe(200);
    await expectKnownError(await mfaTotp(code, totp(user.secret)), "VERIFICATION_CODE_NOT_FOUND");
  });

  it("works for every access type, needs one, and validates the body strictly", async () => {
    const user = await totpUser();
    for (const type of ["server", "admin"] as const) {
      const code = await passwordAttempt(user.email);
      server.clock.advance(STEP_MS);
      const answer = await expectJson<MfaAnswer>(
        await post(MFA_SIGN_IN, { code, type: "totp", totp: totp(user.secret) }, {}, type),
      );
      expect(answer.user_id).toBe(user.userId);
    }
    const code = await passwordAttempt(user.email);
    await expectKnownError(
      await server.request(MFA_SIGN_IN, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code, type: "totp", totp: totp(user.secret) }),
      }),
      "ACCESS_TYPE_REQUIRED",
    );
    server.clock.advance(STEP_MS);
    const value = totp(user.secret);
    for (const body of [
      { code, type: "totp" },
      { code, totp: value },
      { type: "totp", totp: value },
      { code, type: "sms", totp: value },
      { code, type: "totp", totp: 123456 },
      { code: code.slice(1), type: "totp", totp: value },
      { code, type: "totp", totp: value, extra: 1 },
      { code, type: "totp", recovery_code: "abcde-fghjk" },
      { code, type: "recovery_code", totp: value },
    ]) {
      await expectKnownError(await post(MFA_SIGN_IN, body), "SCHEMA_ERROR");
    }
    const unknown = await expectKnownError(
      await post(MFA_SIGN_IN, { code, type: "totp", totp: value, extra: 1 }),
      "SCHEMA_ERROR",
    );
    expect(unknown.message).toBe(
      "Request validation failed on POST /api/v1/auth/mfa/sign-in:\n  - body contains unknown properties: extra",
    );
    // None of these used the code up.
    await expectJson(await mfaTotp(code, value));
  });

  it("counts submissions against the caller's IP (60 per minute)", async () => {
    const user = await totpUser();
    const ip = { "x-forwarded-for": uniqueIp() };
    server.clock.advance(MINUTE - (server.clock.now().getTime() % MINUTE));
    for (let i = 0; i < 60; i++) {
      await expectKnownError(
        await mfaTotp("0".repeat(45), totp(user.secret), ip),
        "VERIFICATION_CODE_NOT_FOUND",
      );
    }
    const limited = await mfaTotp(await passwordAttempt(user.email), totp(user.secret), ip);
    await expectTextError(limited, 429, "Too many requests. Please try again later.");
  });
});

describe("[GF] failed second factors per user", () => {
  it("counts them across IPs and attempt codes: 10 in 15 minutes, right values give their slot back", async () => {
    const user = await totpUser();
    const wrong = totp(user.secret, -3);
    // Each failure on a new attempt code from a new IP, as a botnet that knows the password would send them.
    const fail = async () =>
      expectKnownError(await mfaTotp(await passwordAttempt(user.email), wrong), "INVALID_TOTP_CODE");
    for (let i = 0; i < 9; i++) await fail();
    await expectJson(await mfaTotp(await passwordAttempt(user.email), totp(user.secret)));
    await fail();
    server.clock.advance(STEP_MS);
    const limited = await mfaTotp(await passwordAttempt(user.email), totp(user.secret));
    await expectTextError(limited, 429, "Too many requests. Please try again later.");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    // The window slides: the slots free as the failures age out of it.
    server.clock.advance(15 * MINUTE);
    await expectJson(await mfaTotp(await passwordAttempt(user.email), totp(user.secret)));
  });
});

describe("recovery codes [GO]", () => {
  const generate = (token: string, type: "client" | "server" = "client") =>
    post(RECOVERY_CODES, {}, withToken(token), type);

  async function recoveryCodes(token: string): Promise<string[]> {
    const { recovery_codes } = await expectJson<{ recovery_codes: string[] }>(await generate(token));
    expect(recovery_codes).toHaveLength(10);
    for (const code of recovery_codes) expect(code).toMatch(RECOVERY_CODE);
    expect(new Set(recovery_codes).size).toBe(10);
    return recovery_codes;
  }

  it("signs in once with each code; any case, with or without the hyphen", async () => {
    const user = await totpUser();
    const [first, second] = (await recoveryCodes(user.token)) as [string, string];
    const answer = await expectJson<MfaAnswer>(await mfaRecovery(await passwordAttempt(user.email), first));
    expect(answer.is_new_user).toBe(false);
    await expectWorkingTokens(answer, user.userId);

    const code = await passwordAttempt(user.email);
    await expectTextError(await mfaRecovery(code, first), 400, "Invalid recovery code.");
    await expectTextError(await mfaRecovery(code, "00000-00000"), 400, "Invalid recovery code.");
    await expectJson(await mfaRecovery(code, second.replace("-", "").toUpperCase()));
  });

  it("counts a wrong recovery code as a submission of the attempt code", async () => {
    const user = await totpUser();
    const [good] = (await recoveryCodes(user.token)) as [string];
    const code = await passwordAttempt(user.email);
    for (let i = 0; i < 5; i++) {
      await expectTextError(await mfaRecovery(code, "00000-00000"), 400, "Invalid recovery code.");
    }
    await expectKnownError(await mfaRecovery(code, good), "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
    // The code was not used: the next sign-in takes it.
    await expectJson(await mfaRecovery(await passwordAttempt(user.email), good));
  });

  it("voids the earlier codes when new ones are made", async () => {
    const user = await totpUser();
    const [old] = (await recoveryCodes(user.token)) as [string];
    const [fresh] = (await recoveryCodes(user.token)) as [string];
    const code = await passwordAttempt(user.email);
    await expectTextError(await mfaRecovery(code, old), 400, "Invalid recovery code.");
    await expectJson(await mfaRecovery(code, fresh));
  });

  it("voids the codes when the secret is removed or replaced", async () => {
    const user = await totpUser();
    const [a, b] = (await recoveryCodes(user.token)) as [string, string];
    await patchMe(user.token, { totp_secret_base64: null });
    await expectTextError(
      await generate(user.token),
      400,
      "Set a TOTP secret before generating recovery codes.",
    );
    const secret = newSecret();
    await patchMe(user.token, { totp_secret_base64: secret });
    const code = await passwordAttempt(user.email);
    await expectTextError(await mfaRecovery(code, a), 400, "Invalid recovery code.");
    await expectTextError(await mfaRecovery(code, b), 400, "Invalid recovery code.");
    await expectJson(await mfaTotp(code, totp(secret)));

    const [c] = (await recoveryCodes(user.token)) as [string];
    await patchMe(user.token, { totp_secret_base64: newSecret() });
    await expectTextError(
      await mfaRecovery(await passwordAttempt(user.email), c),
      400,
      "Invalid recovery code.",
    );
  });

  it("needs a user with a TOTP secret, an access type and an empty body", async () => {
    const plain = await totpUser(null);
    await expectTextError(
      await generate(plain.token),
      400,
      "Set a TOTP secret before generating recovery codes.",
    );
    await expectKnownError(await post(RECOVERY_CODES, {}), "USER_AUTHENTICATION_REQUIRED");
    const user = await totpUser();
    await expectKnownError(
      await server.request(RECOVERY_CODES, { method: "POST", headers: withToken(user.token) }),
      "ACCESS_TYPE_REQUIRED",
    );
    await expectKnownError(await post(RECOVERY_CODES, { count: 5 }, withToken(user.token)), "SCHEMA_ERROR");
    // A server caller acts for the user of the access token.
    const { recovery_codes } = await expectJson<{ recovery_codes: string[] }>(
      await generate(user.token, "server"),
    );
    await expectJson(await mfaRecovery(await passwordAttempt(user.email), recovery_codes[0] as string));
  });
});
