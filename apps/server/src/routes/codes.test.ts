// E-mailed codes over HTTP (WIRE.md §4.1 reset, §4.2 OTP, §4.9 verification, §5.1, §5.2, §7): reset codes and their
// anti-enumeration answer, one-time sign-in codes (OTP + nonce, magic link, attempts, expiry, Crockford misreads,
// anonymous upgrade), e-mail verification incl. the deprecated endpoint, and the `GET /internal/emails` inbox.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { firstLink } from "../email/worker.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
} from "../testing/test-server.ts";

const SIGN_UP = "/api/v1/auth/password/sign-up";
const SIGN_IN = "/api/v1/auth/password/sign-in";
const ANONYMOUS = "/api/v1/auth/anonymous/sign-up";
const REFRESH = "/api/v1/auth/sessions/current/refresh";
const ME = "/api/v1/users/me";
const SEND_RESET = "/api/v1/auth/password/send-reset-code";
const RESET = "/api/v1/auth/password/reset";
const RESET_CHECK = "/api/v1/auth/password/reset/check-code";
const SEND_OTP = "/api/v1/auth/otp/send-sign-in-code";
const OTP_SIGN_IN = "/api/v1/auth/otp/sign-in";
const OTP_CHECK = "/api/v1/auth/otp/sign-in/check-code";
const VERIFY = "/api/v1/contact-channels/verify";
const VERIFY_CHECK = "/api/v1/contact-channels/verify/check-code";
const SEND_PRIMARY_VERIFICATION = "/api/v1/contact-channels/send-verification-code";
const EMAILS = "/api/v1/internal/emails";

const PROJECT_NAME = "Codes & Co";
const DOMAIN = "https://app.example.com";
const RESET_CALLBACK = `${DOMAIN}/handler/password-reset?x=1`;
const MAGIC_CALLBACK = `${DOMAIN}/handler/magic-link-callback`;
const VERIFY_CALLBACK = `${DOMAIN}/handler/email-verification`;
const PASSWORD = "correct horse battery";
const MAYBE = { success: "maybe, only if user with e-mail exists" };
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const CODE = /^[0-9abcdefghjkmnpqrstvwxyz]{45}$/;

type SignInAnswer = { access_token: string; refresh_token: string; user_id: string };
type OtpAnswer = SignInAnswer & { is_new_user: boolean };
type Email = {
  id: string;
  to: string;
  subject: string;
  text: string | null;
  html: string | null;
  template_type: string;
  status: string;
  attempts: number;
  created_at_millis: number;
  sent_at_millis: number | null;
  last_error: string | null;
};

let server: TestServer;
let keys: ProjectKeys;

/** Keys valid for a year: the tests move the clock by more than the default day. */
const longKeys = () => ({ expiresAt: new Date(server.clock.now().getTime() + 365 * DAY) });
const projectWith = async (config: Record<string, unknown>, displayName = PROJECT_NAME) =>
  (await server.createProject({ displayName, config }, longKeys())).keys;

beforeAll(async () => {
  server = await createTestServer();
  keys = await projectWith({
    magic_link_enabled: true,
    domains: [{ domain: DOMAIN, handler_path: "/handler" }],
  });
});
afterAll(async () => {
  await server.deps.emailWorker.stop();
  await server.close();
});
// Each test starts in a new minute, so per-minute limits on code submissions never carry over between tests.
beforeEach(() => {
  server.clock.advance(MINUTE + 1000);
});

const randomCode = () => Array.from(randomBytes(45), (byte) => CROCKFORD[byte % 32]).join("");

const post = (path: string, body: unknown, headers: Record<string, string> = {}, k: ProjectKeys = keys) =>
  server.request(path, {
    method: "POST",
    headers: { ...accessHeaders("client", k), "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const withToken = (token: string) => ({ "x-stack-access-token": token });

async function signUp(email: string, extra: Record<string, unknown> = {}, k = keys): Promise<SignInAnswer> {
  return expectJson<SignInAnswer>(await post(SIGN_UP, { email, password: PASSWORD, ...extra }, {}, k));
}

async function readMe(token: string, headers: Record<string, string> = {}, k = keys) {
  const res = await server.request(ME, {
    headers: { ...accessHeaders("client", k), ...withToken(token), ...headers },
  });
  return expectJson<Record<string, unknown> & { id: string }>(res);
}

async function listEmails(query = "", k = keys, type: "client" | "server" | "admin" = "admin") {
  return server.request(`${EMAILS}${query}`, { headers: accessHeaders(type, k) });
}

async function inbox(to: string, k = keys): Promise<Email[]> {
  const body = await expectJson<{ is_paginated: false; items: Email[] }>(
    await listEmails(`?to=${encodeURIComponent(to)}`, k),
  );
  return body.items;
}

/** The newest e-mail of this type to this address. */
async function lastEmail(to: string, type: string, k = keys): Promise<Email> {
  const email = (await inbox(to, k)).find((item) => item.template_type === type);
  expect(email, `a ${type} e-mail to ${to}`).toBeDefined();
  return email as Email;
}

/** The link in the e-mail's plain-text part. */
function linkOf(email: Email): URL {
  const link = firstLink(email.text);
  expect(link).toBeDefined();
  return new URL(link as string);
}

function codeOf(email: Email): string {
  const code = linkOf(email).searchParams.get("code");
  expect(code).toMatch(CODE);
  return code as string;
}

/** The OTP from the magic_link subject `Sign in to {project}: Your code is {OTP}`. */
function otpOf(email: Email): string {
  const match = email.subject.match(/: Your code is (.*)$/);
  expect(match).not.toBeNull();
  return (match as RegExpMatchArray)[1] as string;
}

async function sendReset(email: string, k = keys, callback_url = RESET_CALLBACK) {
  return post(SEND_RESET, { email, callback_url }, {}, k);
}

async function resetCodeFor(email: string): Promise<string> {
  expect(await expectJson(await sendReset(email))).toEqual(MAYBE);
  return codeOf(await lastEmail(email, "password_reset"));
}

async function sendOtp(email: string, headers: Record<string, string> = {}, k = keys) {
  return post(SEND_OTP, { email, callback_url: MAGIC_CALLBACK }, headers, k);
}

/** Sends a sign-in code; returns the nonce of the answer and the e-mail's OTP and link code. */
async function otpFor(email: string) {
  const { nonce } = await expectJson<{ nonce: string }>(await sendOtp(email));
  const mail = await lastEmail(email, "magic_link");
  return { nonce, otp: otpOf(mail), linkCode: codeOf(mail), mail };
}

async function expectSessionEnded(tokens: SignInAnswer) {
  await expectKnownError(
    await server.request(REFRESH, {
      method: "POST",
      headers: { ...accessHeaders("client", keys), "x-stack-refresh-token": tokens.refresh_token },
    }),
    "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
  );
  await expectKnownError(
    await server.request(ME, {
      headers: { ...accessHeaders("client", keys), ...withToken(tokens.access_token) },
    }),
    "ACCESS_TOKEN_EXPIRED",
  );
}

describe("password reset", () => {
  it("answers the same body whoever the address belongs to, and e-mails only a user with a password", async () => {
    const owner = uniqueEmail("reset");
    await signUp(owner);
    const unknown = uniqueEmail("nobody");
    const passwordless = uniqueEmail("otp-only");
    const { nonce, otp } = await otpFor(passwordless);
    await expectJson(await post(OTP_SIGN_IN, { code: otp.toLowerCase() + nonce }));

    const answers: string[] = [];
    for (const email of [owner, unknown, passwordless]) {
      const res = await sendReset(email);
      expect(res.status).toBe(200);
      answers.push(await res.text());
    }
    expect(JSON.parse(answers[0] as string)).toEqual(MAYBE);
    expect(answers[1]).toBe(answers[0]);
    expect(answers[2]).toBe(answers[0]);

    const resets = async (to: string) =>
      (await inbox(to)).filter((item) => item.template_type === "password_reset");
    expect(await resets(owner)).toHaveLength(1);
    expect(await resets(unknown)).toHaveLength(0);
    expect(await resets(passwordless)).toHaveLength(0);

    const [mail] = await resets(owner);
    expect(mail?.subject).toBe(`Reset your password at ${PROJECT_NAME}`);
    const link = linkOf(mail as Email);
    expect(`${link.origin}${link.pathname}`).toBe(`${DOMAIN}/handler/password-reset`);
    expect(link.searchParams.get("x")).toBe("1");
    expect(link.searchParams.get("code")).toMatch(CODE);
    expect(mail?.html).toContain(link.searchParams.get("code"));
  });

  it("checks without using, rejects short passwords without using, resets, and ends every session", async () => {
    const email = uniqueEmail("reset");
    const first = await signUp(email);
    const second = await expectJson<SignInAnswer>(await post(SIGN_IN, { email, password: PASSWORD }));
    const code = await resetCodeFor(email);

    for (let i = 0; i < 2; i++) {
      expect(await expectJson(await post(RESET_CHECK, { code }))).toEqual({ is_code_valid: true });
    }
    await expectKnownError(await post(RESET, { code, password: "1234567" }), "PASSWORD_TOO_SHORT", {
      min_length: 8,
    });
    expect(await expectJson(await post(RESET_CHECK, { code }))).toEqual({ is_code_valid: true });

    expect(await expectJson(await post(RESET, { code, password: "new password 123" }))).toEqual({
      success: true,
    });
    await expectKnownError(await post(SIGN_IN, { email, password: PASSWORD }), "EMAIL_PASSWORD_MISMATCH");
    const fresh = await expectJson<SignInAnswer>(
      await post(SIGN_IN, { email, password: "new password 123" }),
    );
    expect(fresh.user_id).toBe(first.user_id);

    await expectSessionEnded(first);
    await expectSessionEnded(second);
    expect((await readMe(fresh.access_token)).id).toBe(first.user_id);

    await expectKnownError(
      await post(RESET, { code, password: "another one 456" }),
      "VERIFICATION_CODE_ALREADY_USED",
    );
    await expectKnownError(await post(RESET_CHECK, { code }), "VERIFICATION_CODE_ALREADY_USED");
  });

  it("accepts the code in upper case", async () => {
    const email = uniqueEmail("reset");
    await signUp(email);
    const code = (await resetCodeFor(email)).toUpperCase();
    expect(await expectJson(await post(RESET_CHECK, { code }))).toEqual({ is_code_valid: true });
    expect(await expectJson(await post(RESET, { code, password: "UPPER case code" }))).toEqual({
      success: true,
    });
    await expectJson(await post(SIGN_IN, { email, password: "UPPER case code" }));
  });

  it("expires codes after 7 days", async () => {
    const email = uniqueEmail("reset");
    await signUp(email);
    const code = await resetCodeFor(email);
    server.clock.advance(7 * DAY - 1000);
    expect(await expectJson(await post(RESET_CHECK, { code }))).toEqual({ is_code_valid: true });
    server.clock.advance(1000);
    await expectKnownError(await post(RESET_CHECK, { code }), "VERIFICATION_CODE_EXPIRED");
    await expectKnownError(
      await post(RESET, { code, password: "too late now" }),
      "VERIFICATION_CODE_EXPIRED",
    );
  });

  it("rejects untrusted callbacks, malformed codes and unknown codes", async () => {
    const email = uniqueEmail("reset");
    await signUp(email);
    await expectKnownError(
      await sendReset(email, keys, "https://evil.test/x"),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    await expectKnownError(
      await sendReset(uniqueEmail(), keys, "https://evil.test/x"),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    expect((await inbox(email)).filter((item) => item.template_type === "password_reset")).toHaveLength(0);

    const short = randomCode().slice(1);
    expect(short).toHaveLength(44);
    await expectKnownError(await post(RESET_CHECK, { code: short }), "SCHEMA_ERROR");
    await expectKnownError(await post(RESET, { code: short, password: "long enough" }), "SCHEMA_ERROR");
    await expectKnownError(await post(RESET_CHECK, { code: `${randomCode()}a` }), "SCHEMA_ERROR");
  });

  it("writes a code for an unknown address that cannot be found by guessing", async () => {
    const unknown = uniqueEmail("nobody");
    expect(await expectJson(await sendReset(unknown))).toEqual(MAYBE);
    await expectKnownError(await post(RESET_CHECK, { code: randomCode() }), "VERIFICATION_CODE_NOT_FOUND");
    await expectKnownError(
      await post(RESET, { code: randomCode(), password: "long enough" }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });

  it("answers PASSWORD_AUTHENTICATION_NOT_ENABLED on all three endpoints when credential_enabled is off", async () => {
    const off = await projectWith({
      credential_enabled: false,
      magic_link_enabled: true,
      domains: [{ domain: DOMAIN, handler_path: "/handler" }],
    });
    const email = uniqueEmail("nocred");
    await expectKnownError(await sendReset(email, off), "PASSWORD_AUTHENTICATION_NOT_ENABLED");
    await expectKnownError(
      await post(RESET_CHECK, { code: randomCode() }, {}, off),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    );
    await expectKnownError(
      await post(RESET, { code: randomCode(), password: "long enough" }, {}, off),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    );
    // Checked before the callback too (§7 names every endpoint of the table).
    await expectKnownError(
      await sendReset(email, off, "https://evil.test/x"),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    );
    expect(await inbox(email, off)).toHaveLength(0);
  });
});

describe("one-time sign-in codes", () => {
  it("signs a new address up with OTP + nonce, then signs the same user in with the link's code", async () => {
    const email = uniqueEmail("otp");
    const res = await sendOtp(email);
    const { nonce } = await expectJson<{ nonce: string }>(res);
    expect(nonce).toMatch(/^[0-9abcdefghjkmnpqrstvwxyz]{39}$/);

    const mail = await lastEmail(email, "magic_link");
    expect(mail.to).toBe(email);
    const otp = otpOf(mail);
    expect(otp).toMatch(/^[0-9A-HJKMNP-TV-Z]{6}$/);
    expect(mail.subject).toBe(`Sign in to ${PROJECT_NAME}: Your code is ${otp}`);
    const linkCode = codeOf(mail);
    expect(linkCode).toBe(otp.toLowerCase() + nonce);
    const link = linkOf(mail);
    expect(`${link.origin}${link.pathname}`).toBe(MAGIC_CALLBACK);
    expect(mail.html).toContain(otp);

    const code = otp.toLowerCase() + nonce;
    expect(await expectJson(await post(OTP_CHECK, { code }))).toEqual({ is_code_valid: true });
    const first = await expectJson<OtpAnswer>(await post(OTP_SIGN_IN, { code }));
    expect(first.is_new_user).toBe(true);
    const user = await readMe(first.access_token);
    expect(user).toMatchObject({
      id: first.user_id,
      primary_email: email,
      primary_email_verified: true,
      otp_auth_enabled: true,
      has_password: false,
    });
    await expectKnownError(await post(OTP_SIGN_IN, { code }), "VERIFICATION_CODE_ALREADY_USED");

    server.clock.advance(1000);
    const again = await otpFor(email);
    expect(again.nonce).not.toBe(nonce);
    const second = await expectJson<OtpAnswer>(await post(OTP_SIGN_IN, { code: again.linkCode }));
    expect(second).toMatchObject({ user_id: first.user_id, is_new_user: false });
  });

  it("refuses the right code after five wrong attempts on its nonce", async () => {
    const { nonce, otp } = await otpFor(uniqueEmail("otp"));
    const right = otp.toLowerCase();
    const wrong = (right[0] === "z" ? "y" : "z") + right.slice(1);
    for (let i = 0; i < 5; i++) {
      const path = i % 2 === 0 ? OTP_SIGN_IN : OTP_CHECK;
      await expectKnownError(await post(path, { code: wrong + nonce }), "VERIFICATION_CODE_NOT_FOUND");
    }
    await expectKnownError(
      await post(OTP_SIGN_IN, { code: right + nonce }),
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
    );
    await expectKnownError(
      await post(OTP_CHECK, { code: right + nonce }),
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
    );
  });

  it("allows exactly five submissions: four wrong ones and then the right code", async () => {
    const { nonce, otp } = await otpFor(uniqueEmail("otp"));
    const right = otp.toLowerCase();
    const wrong = (right[0] === "z" ? "y" : "z") + right.slice(1);
    for (let i = 0; i < 4; i++) {
      await expectKnownError(await post(OTP_SIGN_IN, { code: wrong + nonce }), "VERIFICATION_CODE_NOT_FOUND");
    }
    expect((await expectJson<OtpAnswer>(await post(OTP_SIGN_IN, { code: right + nonce }))).is_new_user).toBe(
      true,
    );
  });

  it("expires sign-in codes after 10 minutes", async () => {
    const a = await otpFor(uniqueEmail("otp"));
    const b = await otpFor(uniqueEmail("otp"));
    server.clock.advance(10 * MINUTE - 1000);
    expect(await expectJson(await post(OTP_CHECK, { code: a.linkCode }))).toEqual({ is_code_valid: true });
    server.clock.advance(1000);
    await expectKnownError(await post(OTP_SIGN_IN, { code: a.linkCode }), "VERIFICATION_CODE_EXPIRED");
    await expectKnownError(
      await post(OTP_CHECK, { code: b.otp.toLowerCase() + b.nonce }),
      "VERIFICATION_CODE_EXPIRED",
    );
  });

  it("reads O as 0 and I, L as 1 in the typed OTP", async () => {
    let found: { nonce: string; otp: string } | undefined;
    for (let i = 0; i < 40 && !found; i++) {
      const attempt = await otpFor(uniqueEmail("crockford"));
      if (/[01]/.test(attempt.otp)) found = attempt;
    }
    expect(found, "an OTP containing 0 or 1 within 40 tries").toBeDefined();
    const { nonce, otp } = found as { nonce: string; otp: string };
    let ones = 0;
    const misread = otp.replace(/[01]/g, (c) => (c === "0" ? "O" : ++ones % 2 === 0 ? "L" : "I"));
    expect(misread).not.toBe(otp);
    expect(await expectJson(await post(OTP_CHECK, { code: misread.toLowerCase() + nonce }))).toEqual({
      is_code_valid: true,
    });
    const signedIn = await expectJson<OtpAnswer>(await post(OTP_SIGN_IN, { code: misread + nonce }));
    expect(signedIn.is_new_user).toBe(true);
  });

  it("answers 403 text on all three endpoints when magic_link_enabled is off", async () => {
    const off = await projectWith({
      magic_link_enabled: false,
      domains: [{ domain: DOMAIN, handler_path: "/handler" }],
    });
    const text = "OTP sign-in is not enabled for this project";
    await expectTextError(await sendOtp(uniqueEmail(), {}, off), 403, text);
    await expectTextError(await post(OTP_SIGN_IN, { code: randomCode() }, {}, off), 403, text);
    await expectTextError(await post(OTP_CHECK, { code: randomCode() }, {}, off), 403, text);
  });

  it("refuses an existing unverified auth e-mail, and a new address when sign-up is off", async () => {
    const unverified = uniqueEmail("pw");
    await signUp(unverified);
    await expectKnownError(await sendOtp(unverified), "USER_EMAIL_ALREADY_EXISTS", {
      email: unverified,
      would_work_if_email_was_verified: true,
    });
    expect((await inbox(unverified)).filter((item) => item.template_type === "magic_link")).toHaveLength(0);

    await expectKnownError(
      await post(SEND_OTP, { email: uniqueEmail(), callback_url: "https://evil.test/x" }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );

    const closed = await projectWith({
      magic_link_enabled: true,
      sign_up_enabled: false,
      domains: [{ domain: DOMAIN, handler_path: "/handler" }],
    });
    const email = uniqueEmail("closed");
    await expectKnownError(await sendOtp(email, {}, closed), "SIGN_UP_NOT_ENABLED");
    expect(await inbox(email, closed)).toHaveLength(0);
  });

  it("upgrades an anonymous caller in place", async () => {
    const anon = await expectJson<SignInAnswer>(await post(ANONYMOUS, {}));
    const allow = { ...withToken(anon.access_token), "x-stack-allow-anonymous-user": "true" };
    expect(await readMe(anon.access_token, { "x-stack-allow-anonymous-user": "true" })).toMatchObject({
      is_anonymous: true,
    });
    const email = uniqueEmail("anon");
    const { nonce, otp } = await otpFor(email);
    const answer = await expectJson<OtpAnswer>(
      await post(OTP_SIGN_IN, { code: otp.toLowerCase() + nonce }, allow),
    );
    expect(answer).toMatchObject({ user_id: anon.user_id, is_new_user: true });
    expect(await readMe(answer.access_token)).toMatchObject({
      id: anon.user_id,
      is_anonymous: false,
      primary_email: email,
      primary_email_verified: true,
      otp_auth_enabled: true,
    });
  });
  it("enables OTP sign-in for a verified user and signs that user in", async () => {
    const email = uniqueEmail("verified");
    const tokens = await signUp(email, { verification_callback_url: VERIFY_CALLBACK });
    await expectJson(await post(VERIFY, { code: codeOf(await lastEmail(email, "email_verification")) }));
    expect(await readMe(tokens.access_token)).toMatchObject({ otp_auth_enabled: false });
    const { linkCode } = await otpFor(email);
    expect(await readMe(tokens.access_token)).toMatchObject({ otp_auth_enabled: true });
    const answer = await expectJson<OtpAnswer>(await post(OTP_SIGN_IN, { code: linkCode }));
    expect(answer).toMatchObject({ user_id: tokens.user_id, is_new_user: false });
  });
});

describe("codes are bound to their purpose and project", () => {
  it("does not accept a code at another flow's endpoint or in another project", async () => {
    const email = uniqueEmail("bound");
    await signUp(email, { verification_callback_url: VERIFY_CALLBACK });
    const verifyCode = codeOf(await lastEmail(email, "email_verification"));
    const resetCode = await resetCodeFor(email);
    const other = await projectWith({ magic_link_enabled: true });

    await expectKnownError(await post(RESET_CHECK, { code: verifyCode }), "VERIFICATION_CODE_NOT_FOUND");
    await expectKnownError(await post(OTP_CHECK, { code: resetCode }), "VERIFICATION_CODE_NOT_FOUND");
    await expectKnownError(await post(VERIFY_CHECK, { code: resetCode }), "VERIFICATION_CODE_NOT_FOUND");
    await expectKnownError(
      await post(RESET_CHECK, { code: resetCode }, {}, other),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    await expectKnownError(
      await post(VERIFY, { code: verifyCode }, {}, other),
      "VERIFICATION_CODE_NOT_FOUND",
    );

    expect(await expectJson(await post(RESET_CHECK, { code: resetCode }))).toEqual({ is_code_valid: true });
    expect(await expectJson(await post(VERIFY, { code: verifyCode }))).toEqual({ success: true });
  });
});

describe("e-mail verification", () => {
  it("verifies the address of a sign-up with a callback; check-code does not use the code", async () => {
    const email = uniqueEmail("verify");
    const tokens = await signUp(email, { verification_callback_url: VERIFY_CALLBACK });
    expect(await readMe(tokens.access_token)).toMatchObject({ primary_email_verified: false });
    const mail = await lastEmail(email, "email_verification");
    expect(mail.subject).toBe(`Verify your email at ${PROJECT_NAME}`);
    const code = codeOf(mail);
    expect(`${linkOf(mail).origin}${linkOf(mail).pathname}`).toBe(VERIFY_CALLBACK);

    expect(await expectJson(await post(VERIFY_CHECK, { code }))).toEqual({ is_code_valid: true });
    expect(await expectJson(await post(VERIFY_CHECK, { code }))).toEqual({ is_code_valid: true });
    // No user needed: the link may be opened anywhere.
    expect(await expectJson(await post(VERIFY, { code }))).toEqual({ success: true });
    expect(await readMe(tokens.access_token)).toMatchObject({ primary_email_verified: true });
    await expectKnownError(await post(VERIFY, { code }), "VERIFICATION_CODE_ALREADY_USED");
    await expectKnownError(await post(VERIFY_CHECK, { code }), "VERIFICATION_CODE_ALREADY_USED");
    await expectKnownError(await post(VERIFY, { code: randomCode() }), "VERIFICATION_CODE_NOT_FOUND");
  });

  it("does not send a verification e-mail for an untrusted callback", async () => {
    const email = uniqueEmail("verify");
    await expectKnownError(
      await post(SIGN_UP, { email, password: PASSWORD, verification_callback_url: "https://evil.test/x" }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    expect(await inbox(email)).toHaveLength(0);
  });

  it("deprecated send-verification-code: primary e-mail only, not twice once verified, needs a user", async () => {
    const email = uniqueEmail("deprecated");
    const tokens = await signUp(email);
    const other = uniqueEmail("other");
    const auth = withToken(tokens.access_token);

    await expectKnownError(
      await post(SEND_PRIMARY_VERIFICATION, { email: other, callback_url: VERIFY_CALLBACK }, auth),
      "EMAIL_IS_NOT_PRIMARY_EMAIL",
      { email: other, primary_email: email },
    );
    await expectKnownError(
      await post(SEND_PRIMARY_VERIFICATION, { email, callback_url: VERIFY_CALLBACK }),
      "USER_AUTHENTICATION_REQUIRED",
    );
    await expectKnownError(
      await post(SEND_PRIMARY_VERIFICATION, { email, callback_url: "https://evil.test/x" }, auth),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    expect(await inbox(email)).toHaveLength(0);

    expect(
      await expectJson(await post(SEND_PRIMARY_VERIFICATION, { email, callback_url: VERIFY_CALLBACK }, auth)),
    ).toEqual({
      success: true,
    });
    const code = codeOf(await lastEmail(email, "email_verification"));
    expect(await expectJson(await post(VERIFY, { code }))).toEqual({ success: true });
    expect(await readMe(tokens.access_token)).toMatchObject({ primary_email_verified: true });

    await expectKnownError(
      await post(SEND_PRIMARY_VERIFICATION, { email, callback_url: VERIFY_CALLBACK }, auth),
      "EMAIL_ALREADY_VERIFIED",
    );
  });
});

describe("GET /internal/emails", () => {
  it("is for admin callers only", async () => {
    for (const type of ["client", "server"] as const) {
      await expectKnownError(await listEmails("", keys, type), "INSUFFICIENT_ACCESS_TYPE", {
        actual_access_type: type,
        allowed_access_types: ["admin"],
      });
    }
  });

  it("lists newest first, filters by recipient, limits, and marks mail kept without SMTP", async () => {
    const k = await projectWith({
      magic_link_enabled: true,
      domains: [{ domain: DOMAIN, handler_path: "/handler" }],
    });
    const a = uniqueEmail("inbox");
    const b = uniqueEmail("inbox");
    const startedAt = server.clock.now().getTime();
    await expectJson(await sendOtp(a, {}, k));
    server.clock.advance(1000);
    await expectJson(await sendOtp(b, {}, k));
    server.clock.advance(1000);
    await expectJson(await sendOtp(a, {}, k));

    const all = await expectJson<{ is_paginated: false; items: Email[] }>(await listEmails("", k));
    expect(all.is_paginated).toBe(false);
    expect(all.items.map((item) => item.to)).toEqual([a, b, a]);
    expect(all.items.map((item) => item.created_at_millis)).toEqual([
      startedAt + 2000,
      startedAt + 1000,
      startedAt,
    ]);
    expect(all.items[0]).toMatchObject({
      template_type: "magic_link",
      status: "queued",
      attempts: 0,
      sent_at_millis: null,
      last_error: null,
    });

    const one = await expectJson<{ items: Email[] }>(await listEmails("?limit=1", k));
    expect(one.items.map((item) => item.id)).toEqual([all.items[0]?.id]);
    expect((await inbox(b, k)).map((item) => item.id)).toEqual([all.items[1]?.id]);
    expect(await inbox(a, keys)).toHaveLength(0);

    await expectKnownError(await listEmails("?limit=500", k), "SCHEMA_ERROR");
    await expectKnownError(await listEmails("?limit=0", k), "SCHEMA_ERROR");
    await expectKnownError(await listEmails("?unknown=1", k), "SCHEMA_ERROR");

    await server.deps.emailWorker.runOnce();
    const kept = await expectJson<{ items: Email[] }>(await listEmails("", k));
    for (const item of kept.items) {
      expect(item).toMatchObject({ status: "kept", attempts: 0, sent_at_millis: null, last_error: null });
      expect(item.text).toContain(MAGIC_CALLBACK);
    }
  });

  it("lists e-mails queued within one millisecond newest first too", async () => {
    const k = await projectWith({
      magic_link_enabled: true,
      domains: [{ domain: DOMAIN, handler_path: "/handler" }],
    });
    // One request after another on the unmoved test clock: equal created_at_millis, queued in this order.
    const burst = [0, 1, 2, 3, 4, 5].map(() => uniqueEmail("burst"));
    for (const to of burst) await expectJson(await sendOtp(to, {}, k));
    const listed = await expectJson<{ items: Email[] }>(await listEmails("", k));
    expect(new Set(listed.items.map((item) => item.created_at_millis)).size).toBe(1);
    expect(listed.items.map((item) => item.to)).toEqual([...burst].reverse());
  });
});
