// Issue 15 items 2 and 3, black-box: password and TOTP guessing against real server processes (two on one
// PostgreSQL database in the postgres run). Parallel guesses from one IP are checked at most the limit, the ceiling
// per address does not lock out the owner's right password, and second-factor failures count per user.
import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, internalHeaders, startCluster } from "./cluster.ts";

let cluster: Cluster;
const PASSWORD = "the owner's password";

beforeAll(async () => {
  // Behind a trusted proxy, so the test can speak from many client IPs; a low ceiling keeps the test short.
  cluster = await startCluster(2, {
    GATEHOUSE_TRUST_PROXY: "true",
    GATEHOUSE_RATE_LIMIT_SIGN_IN_EMAIL: "20",
  });
});
afterAll(() => cluster?.stop());

/** The i-th request goes to the i-th server, round robin, as a load balancer spreads them. */
async function post(
  i: number,
  path: string,
  body: unknown,
  ip: string,
  type: "client" | "server" = "client",
) {
  const server = cluster.servers[i % cluster.servers.length]!;
  const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: { ...internalHeaders(server, type), "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });
  return { status: res.status, code: res.headers.get("x-stack-known-error"), body: await res.text() };
}

async function createUser(email: string, extra: Record<string, unknown> = {}) {
  const created = await post(
    0,
    "/users",
    {
      primary_email: email,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      password: PASSWORD,
      ...extra,
    },
    "10.9.9.9",
    "server",
  );
  expect(created.status, created.body).toBe(201);
  return JSON.parse(created.body) as { id: string };
}

const signIn = (i: number, email: string, password: string, ip: string) =>
  post(i, "/auth/password/sign-in", { email, password }, ip);

describe("password guessing", () => {
  it("checks at most 10 of 200 parallel wrong passwords from one IP, across the processes", async () => {
    const email = "parallel-target@example.com";
    await createUser(email);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => signIn(i, email, "a wrong guess", "203.0.113.7")),
    );
    const checked = answers.filter((a) => a.code === "EMAIL_PASSWORD_MISMATCH").length;
    const refused = answers.filter((a) => a.status === 429).length;
    console.log(
      `200 parallel wrong passwords over ${cluster.servers.length} process(es): ${checked} checked`,
    );
    expect(checked).toBe(10);
    expect(refused).toBe(190);
    // The owner, from elsewhere, is not affected.
    expect((await signIn(1, email, PASSWORD, "198.51.100.1")).status).toBe(200);
  });

  it("lets the owner's right password in from a fresh IP after the ceiling is reached from many IPs", async () => {
    const email = "ceiling-target@example.com";
    await createUser(email);
    for (let ip = 1; ip <= 2; ip++)
      for (let i = 0; i < 10; i++)
        expect((await signIn(i, email, "a wrong guess", `192.0.2.${ip}`)).code).toBe(
          "EMAIL_PASSWORD_MISMATCH",
        );
    // Over the ceiling, a new attacker IP gets one guess and then waits.
    expect((await signIn(0, email, "a wrong guess", "192.0.2.3")).code).toBe("EMAIL_PASSWORD_MISMATCH");
    expect((await signIn(1, email, "a wrong guess", "192.0.2.3")).status).toBe(429);
    const owner = await signIn(1, email, PASSWORD, "198.51.100.2");
    expect(owner.status, owner.body).toBe(200);
  });
});

describe("TOTP guessing", () => {
  it("stops second-factor guesses per user after 10, across IPs, attempt codes and processes", async () => {
    const email = "totp-target@example.com";
    const secret = randomBytes(20);
    await createUser(email, { totp_secret_base64: secret.toString("base64") });
    const attemptCode = async (i: number) => {
      const paused = await signIn(i, email, PASSWORD, `198.18.${i}.1`);
      expect(paused.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
      return (JSON.parse(paused.body) as { details: { attempt_code: string } }).details.attempt_code;
    };
    const guess = async (i: number, totp: string) =>
      post(i, "/auth/mfa/sign-in", { type: "totp", code: await attemptCode(i), totp }, `198.18.${i}.2`);
    const right = TOTP.generate({ secret: Secret.fromHex(secret.toString("hex")) });
    const wrong = right === "000000" ? "000001" : "000000";
    for (let i = 0; i < 10; i++) expect((await guess(i, wrong)).code).toBe("INVALID_TOTP_CODE");
    expect((await guess(10, right)).status).toBe(429);
  });

  it("signs in exactly once when the same right code arrives 20 times at once", async () => {
    const email = "totp-race@example.com";
    const secret = randomBytes(20);
    await createUser(email, { totp_secret_base64: secret.toString("base64") });
    const codes: string[] = [];
    for (let i = 0; i < 20; i++) {
      const paused = await signIn(i, email, PASSWORD, `198.19.${i}.1`);
      codes.push((JSON.parse(paused.body) as { details: { attempt_code: string } }).details.attempt_code);
    }
    const right = TOTP.generate({ secret: Secret.fromHex(secret.toString("hex")) });
    const answers = await Promise.all(
      codes.map((code, i) =>
        post(i, "/auth/mfa/sign-in", { type: "totp", code, totp: right }, `198.19.${i}.2`),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    // The others were refused as a used value, or by the user's bucket once 10 of them had failed.
    expect(answers.filter((a) => a.code === "INVALID_TOTP_CODE" || a.status === 429)).toHaveLength(19);
  });
});
