// The verification-code mechanism (WIRE.md §5.1) on the test clock: single use, check without use, lookup scoped by
// project and purpose, expiry, the per-nonce attempt limit that survives failed checks, OTP normalisation, links,
// hash-only storage and concurrent uses.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../crypto/hash.ts";
import { randomCrockford } from "../crypto/random.ts";
import { inTransaction } from "../db/client.ts";
import { verificationCodes } from "../db/schema.ts";
import { createVerificationCodesRepo } from "../db/verification-codes-repo.ts";
import { createTestServer, type TestServer } from "../testing/test-server.ts";
import {
  createVerificationCodeService,
  otpOf,
  VERIFICATION_CODE_PURPOSES,
  type VerificationCodePurpose,
  type VerificationCodeService,
} from "./verification-codes.ts";

let server: TestServer;
let codes: VerificationCodeService;
let projectId: string;

beforeAll(async () => {
  server = await createTestServer();
  codes = createVerificationCodeService({ db: server.deps.db, clock: server.clock });
  projectId = (await server.createProject()).project.id;
});
afterAll(() => server.close());

const create = (purpose: VerificationCodePurpose, extra: { callbackUrl?: string; projectId?: string } = {}) =>
  inTransaction(server.deps.db, (tx) =>
    codes.create(tx, { projectId, purpose, data: { email: "a@example.com", userId: "u1" }, ...extra }),
  );

/** Uses the code and hands back its record. */
const use = (purpose: VerificationCodePurpose, code: string, project = projectId) =>
  codes.use({ projectId: project, purpose, code }, async (_tx, record) => record);

const check = (purpose: VerificationCodePurpose, code: string) => codes.check({ projectId, purpose, code });

async function rowOf(id: string) {
  const [row] = await server.deps.db.select().from(verificationCodes).where(eq(verificationCodes.id, id));
  if (!row) throw new Error("code row missing");
  return row;
}

/** The same nonce with different OTP characters: a wrong guess that still counts against the code. */
const wrongOtp = (code: string) => (code.startsWith("zzzzzz") ? "yyyyyy" : "zzzzzz") + code.slice(6);

describe("use and check", () => {
  it("uses a code once and returns its data", async () => {
    const { id, code } = await create("password_reset");
    const record = await use("password_reset", code);
    expect(record).toMatchObject({ id, data: { email: "a@example.com", userId: "u1" }, redirectUrl: null });
    expect(record.usedAt).toEqual(server.clock.now());
    await expect(use("password_reset", code)).rejects.toMatchObject({
      code: "VERIFICATION_CODE_ALREADY_USED",
    });
    await expect(check("password_reset", code)).rejects.toMatchObject({
      code: "VERIFICATION_CODE_ALREADY_USED",
    });
  });

  it("checks without using", async () => {
    const { id, code } = await create("email_verification");
    expect((await check("email_verification", code)).id).toBe(id);
    expect((await check("email_verification", code)).id).toBe(id);
    expect((await rowOf(id)).usedAt).toBeNull();
    expect((await use("email_verification", code)).id).toBe(id);
  });

  it("accepts upper-case input", async () => {
    const { code } = await create("team_invitation");
    await expect(use("team_invitation", code.toUpperCase())).resolves.toMatchObject({
      purpose: "team_invitation",
    });
  });

  it("leaves the code unused when the action fails", async () => {
    const { id, code } = await create("password_reset");
    const failing = codes.use({ projectId, purpose: "password_reset", code }, async () => {
      throw new Error("action failed");
    });
    await expect(failing).rejects.toThrow("action failed");
    expect(await rowOf(id)).toMatchObject({ usedAt: null, attempts: 1 });
    await expect(use("password_reset", code)).resolves.toMatchObject({ id });
  });
});

describe("not found", () => {
  it("rejects a wrong code of the right shape", async () => {
    await expect(use("sign_in", randomCrockford(45))).rejects.toMatchObject({
      code: "VERIFICATION_CODE_NOT_FOUND",
    });
  });

  it("rejects the right code for another purpose", async () => {
    const { id, code } = await create("password_reset");
    await expect(use("email_verification", code)).rejects.toMatchObject({
      code: "VERIFICATION_CODE_NOT_FOUND",
    });
    await expect(check("team_invitation", code)).rejects.toMatchObject({
      code: "VERIFICATION_CODE_NOT_FOUND",
    });
    // The failed submissions still counted: the nonce is shared whatever the purpose.
    expect((await rowOf(id)).attempts).toBe(2);
  });

  it("rejects a code of another project", async () => {
    const other = (await server.createProject({ displayName: "Other" })).project.id;
    const { id, code } = await create("password_reset", { projectId: other });
    await expect(use("password_reset", code)).rejects.toMatchObject({ code: "VERIFICATION_CODE_NOT_FOUND" });
    // Submissions to one project do not count against another's codes.
    expect((await rowOf(id)).attempts).toBe(0);
    await expect(use("password_reset", code, other)).resolves.toMatchObject({ id });
  });
});

describe("expiry", () => {
  it.each(["sign_in", "password_reset"] as const)("%s is valid until its lifetime ends", async (purpose) => {
    const lifetime = VERIFICATION_CODE_PURPOSES[purpose].lifetimeMs;
    const { code } = await create(purpose);
    server.clock.advance(lifetime - 1);
    await expect(check(purpose, code)).resolves.toMatchObject({ purpose });
    server.clock.advance(1);
    await expect(check(purpose, code)).rejects.toMatchObject({ code: "VERIFICATION_CODE_EXPIRED" });
    server.clock.advance(1000);
    await expect(use(purpose, code)).rejects.toMatchObject({ code: "VERIFICATION_CODE_EXPIRED" });
  });

  it("has the lifetimes and limits of WIRE.md §5.1", () => {
    expect(VERIFICATION_CODE_PURPOSES).toEqual({
      sign_in: { lifetimeMs: 600_000, maxAttempts: 5 },
      mfa_attempt: { lifetimeMs: 300_000, maxAttempts: 5 },
      password_reset: { lifetimeMs: 604_800_000, maxAttempts: 20 },
      email_verification: { lifetimeMs: 604_800_000, maxAttempts: 20 },
      team_invitation: { lifetimeMs: 604_800_000, maxAttempts: 20 },
      passkey_registration: { lifetimeMs: 65_000, maxAttempts: 20 },
      passkey_authentication: { lifetimeMs: 65_000, maxAttempts: 20 },
      // WIRE.md §4.5 and §3.5: a pending OAuth flow lives 10 minutes, an authorization code 5.
      oauth_flow: { lifetimeMs: 600_000, maxAttempts: 20 },
      oauth_authorization_code: { lifetimeMs: 300_000, maxAttempts: 20 },
      // A pending SSO sign-in lives as long as a pending OAuth flow.
      sso_flow: { lifetimeMs: 600_000, maxAttempts: 20 },
    });
  });
});

describe("attempt limit", () => {
  it("rejects the right sign-in code after 5 wrong ones with its nonce", async () => {
    const { id, code } = await create("sign_in");
    for (let i = 0; i < 5; i++) {
      await expect(use("sign_in", wrongOtp(code))).rejects.toMatchObject({
        code: "VERIFICATION_CODE_NOT_FOUND",
      });
    }
    // The failed submissions persisted even though each one threw.
    expect((await rowOf(id)).attempts).toBe(5);
    await expect(use("sign_in", code)).rejects.toMatchObject({
      code: "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
    });
    expect(await rowOf(id)).toMatchObject({ attempts: 6, usedAt: null });
  });

  it("accepts the right sign-in code after 4 wrong ones", async () => {
    const { id, code } = await create("sign_in");
    for (let i = 0; i < 4; i++) {
      await expect(use("sign_in", wrongOtp(code))).rejects.toMatchObject({
        code: "VERIFICATION_CODE_NOT_FOUND",
      });
    }
    await expect(use("sign_in", code)).resolves.toMatchObject({ id, attempts: 5 });
  });

  it("counts checks as submissions", async () => {
    const { code } = await create("sign_in");
    for (let i = 0; i < 5; i++) await check("sign_in", code);
    await expect(use("sign_in", code)).rejects.toMatchObject({
      code: "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
    });
  });
});

describe("one-time code", () => {
  /** A code with 0 and 1 in its OTP, stored as create() would (a random one rarely has both). */
  async function insertKnown(purpose: VerificationCodePurpose) {
    const code = `0a1b10${randomCrockford(39)}`;
    const now = server.clock.now();
    const { id } = await createVerificationCodesRepo().insert(server.deps.db, {
      id: randomUUID(),
      projectId,
      purpose,
      codeHash: sha256Hex(code),
      nonceHash: sha256Hex(code.slice(-39)),
      data: {},
      expiresAt: new Date(now.getTime() + VERIFICATION_CODE_PURPOSES[purpose].lifetimeMs),
    });
    return { id, code };
  }

  it("shows the first 6 characters in upper case", () => {
    expect(otpOf("0a1b10abcdefghjkmnpqrstvwxyz0123456789abcdefg")).toBe("0A1B10");
  });

  it("reads O as 0 and I, L as 1 in a sign-in OTP", async () => {
    const { id, code } = await insertKnown("sign_in");
    await expect(check("sign_in", `OAIBLO${code.slice(6).toUpperCase()}`)).resolves.toMatchObject({ id });
    await expect(use("sign_in", `oalbio${code.slice(6)}`)).resolves.toMatchObject({ id });
  });

  it("does not substitute for other purposes", async () => {
    const { code } = await insertKnown("password_reset");
    await expect(check("password_reset", `OAIBLO${code.slice(6)}`)).rejects.toMatchObject({
      code: "VERIFICATION_CODE_NOT_FOUND",
    });
  });
});

describe("links and storage", () => {
  it("sets code on the callback, keeping other parameters and replacing an old code", async () => {
    const { code, link } = await create("email_verification", {
      callbackUrl: "https://app.example.com/verify?after=%2Fhome&code=old&x=1",
    });
    const url = new URL(link ?? "");
    expect(url.origin + url.pathname).toBe("https://app.example.com/verify");
    expect(url.searchParams.getAll("code")).toEqual([code]);
    expect(url.searchParams.get("after")).toBe("/home");
    expect(url.searchParams.get("x")).toBe("1");
    expect((await use("email_verification", code)).redirectUrl).toBe(
      "https://app.example.com/verify?after=%2Fhome&code=old&x=1",
    );
  });

  it("has no link without a callback", async () => {
    expect((await create("password_reset")).link).toBeUndefined();
  });

  it("stores only hashes of the code and nonce", async () => {
    const { id, code, nonce } = await create("sign_in");
    expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    expect(nonce).toBe(code.slice(-39));
    const row = await rowOf(id);
    expect(row).toMatchObject({ codeHash: sha256Hex(code), nonceHash: sha256Hex(nonce) });
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(nonce);
  });
});

describe("concurrency", () => {
  it("lets exactly one of two concurrent uses succeed", async () => {
    const { code } = await create("password_reset");
    const results = await Promise.allSettled([use("password_reset", code), use("password_reset", code)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const [rejected] = results.filter((r) => r.status === "rejected");
    expect(rejected).toMatchObject({ reason: { code: "VERIFICATION_CODE_ALREADY_USED" } });
  });

  // Deterministic where the race above depends on timing: the conditional UPDATE hands the row to one caller only.
  it("consumes a row only once at the repository level", async () => {
    const { id } = await create("password_reset");
    const repo = createVerificationCodesRepo();
    const consume = () => inTransaction(server.deps.db, (tx) => repo.markUsed(tx, id, server.clock.now()));
    const results = await Promise.all([consume(), consume()]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
  });
});
