// Bot protection (issue 21 item 2) against a local Turnstile siteverify server: a passing token, a failing one, a
// verifier that does not answer in time, a replayed token (refused by us even when the verifier would accept it), a
// missing token, the `suspicious` mode that asks only IPs with many failures, and the secret stored sealed.
import { TURNSTILE_SCRIPT_URL } from "@gatehouse/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../logger.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  jsonPost,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
} from "../testing/test-server.ts";
import { startTurnstilePeer, type TurnstilePeer } from "../testing/turnstile-peer.ts";
import { createBotChallenge } from "./bot-challenge.ts";

const SECRET = "0x4AAAAAAAtest-secret";
const PASSWORD = "correct horse battery";
const urlOf = (peer: TurnstilePeer) => peer.siteverifyUrl;

let server: TestServer;
let keys: ProjectKeys;
let verifier: TurnstilePeer;
let seen: TurnstilePeer["seen"];
const post = jsonPost(() => ({ server, keys }));

const configure = (config: Record<string, unknown>) =>
  server.request("/api/v1/projects/current", {
    method: "PATCH",
    headers: { ...accessHeaders("admin", keys), "content-type": "application/json" },
    body: JSON.stringify({ config }),
  });
const signUp = (extra: Record<string, unknown>, ip = uniqueIp()) =>
  post(
    "/api/v1/auth/password/sign-up",
    { email: uniqueEmail(), password: PASSWORD, ...extra },
    {
      "x-forwarded-for": ip,
    },
  );
const signIn = (email: string, password: string, ip: string, extra: Record<string, unknown> = {}) =>
  post("/api/v1/auth/password/sign-in", { email, password, ...extra }, { "x-forwarded-for": ip });

beforeAll(async () => {
  server = await createTestServer();
  keys = (
    await server.createProject({
      displayName: "Guarded",
      config: {
        magic_link_enabled: true,
        domains: [{ domain: "https://app.example.com", handler_path: "/handler" }],
      },
    })
  ).keys;
  verifier = await startTurnstilePeer({ secret: SECRET, remembers: true });
  seen = verifier.seen;
  // A shorter timeout than the default 5 s, so the slow verifier's case is quick; the verifier shares this process.
  server.deps.botChallenge = createBotChallenge({
    secrets: server.deps.projectSecrets,
    rateLimits: server.deps.rateLimits,
    logger: silentLogger,
    timeoutMs: 1500,
  });
});
afterAll(async () => {
  await verifier.close();
  await server.deps.emailWorker.stop();
  await server.close();
});

describe("bot protection: always", () => {
  it("stores the secret sealed and shows pages only the site key", async () => {
    const saved = await configure({
      bot_protection: "always",
      bot_protection_site_key: "0x4AAAAAAAsite",
      bot_protection_secret: SECRET,
      bot_protection_verify_url: urlOf(verifier),
    });
    expect(saved.status).toBe(200);
    const row = await server.deps.projectsRepo.find(keys.projectId);
    expect(row?.config.bot_protection_secret).not.toContain(SECRET);
    const view = await expectJson<{ config: Record<string, unknown> }>(
      await server.request("/api/v1/projects/current", { headers: accessHeaders("client", keys) }),
    );
    expect(view.config.bot_challenge_site_key).toBe("0x4AAAAAAAsite");
    expect(view.config.bot_challenge_script_url).toBe(TURNSTILE_SCRIPT_URL);
    expect(JSON.stringify(view)).not.toContain(SECRET);
    // Another widget script (a self-hosted copy, a test's) when the project names one.
    expect((await configure({ bot_protection_script_url: verifier.scriptUrl })).status).toBe(200);
    const named = await expectJson<{ config: Record<string, unknown> }>(
      await server.request("/api/v1/projects/current", { headers: accessHeaders("client", keys) }),
    );
    expect(named.config.bot_challenge_script_url).toBe(verifier.scriptUrl);
  });

  it("lets a passing token through and sends the verifier the secret, token and client IP", async () => {
    seen.length = 0;
    const ip = uniqueIp();
    await expectJson(await signUp({ bot_challenge_token: "pass-1", bot_challenge_phase: "invisible" }, ip));
    expect(seen).toEqual([{ secret: SECRET, response: "pass-1", remoteip: ip }]);
  });

  it("refuses a missing token, `unavailable`, a failing token and a verifier that does not answer in time", async () => {
    await expectKnownError(await signUp({}), "BOT_CHALLENGE_REQUIRED");
    await expectKnownError(await signUp({ bot_challenge_unavailable: "true" }), "BOT_CHALLENGE_REQUIRED");
    await expectKnownError(await signUp({ bot_challenge_token: "bogus" }), "BOT_CHALLENGE_FAILED");
    await expectKnownError(await signUp({ bot_challenge_token: "slow-1" }), "BOT_CHALLENGE_FAILED");
  });

  it("guards sign-in and code sending too", async () => {
    await expectKnownError(await signIn(uniqueEmail(), PASSWORD, uniqueIp()), "BOT_CHALLENGE_REQUIRED");
    await expectKnownError(
      await post("/api/v1/auth/otp/send-sign-in-code", {
        email: uniqueEmail(),
        callback_url: "https://app.example.com/handler/magic-link-callback",
      }),
      "BOT_CHALLENGE_REQUIRED",
    );
    await expectJson(
      await post("/api/v1/auth/otp/send-sign-in-code", {
        email: uniqueEmail(),
        callback_url: "https://app.example.com/handler/magic-link-callback",
        bot_challenge_token: "pass-otp",
      }),
    );
  });

  it("refuses a replayed token, even when the verifier would accept it again, without asking it", async () => {
    await expectJson(await signUp({ bot_challenge_token: "pass-2" }));
    await expectKnownError(await signUp({ bot_challenge_token: "pass-2" }), "BOT_CHALLENGE_FAILED");

    const forgetful = await startTurnstilePeer({ secret: SECRET, remembers: false });
    const forgetfulSeen = forgetful.seen;
    expect((await configure({ bot_protection_verify_url: urlOf(forgetful) })).status).toBe(200);
    await expectJson(await signUp({ bot_challenge_token: "pass-3" }));
    await expectKnownError(await signUp({ bot_challenge_token: "pass-3" }), "BOT_CHALLENGE_FAILED");
    expect(forgetfulSeen).toHaveLength(1);
    await forgetful.close();
    expect((await configure({ bot_protection_verify_url: urlOf(verifier) })).status).toBe(200);
  });
});

describe("bot protection: only after suspicious signals", () => {
  it("asks an IP for a challenge only after its failed sign-ins", async () => {
    expect((await configure({ bot_protection: "suspicious" })).status).toBe(200);
    const email = uniqueEmail("owner");
    await expectJson(await signUp({}));
    await expectJson(
      await post(
        "/api/v1/auth/password/sign-up",
        { email, password: PASSWORD },
        { "x-forwarded-for": uniqueIp() },
      ),
    );
    const attacker = uniqueIp();
    for (let i = 0; i < 5; i++) {
      await expectKnownError(await signIn(email, `wrong guess ${i}`, attacker), "EMAIL_PASSWORD_MISMATCH");
    }
    await expectKnownError(await signIn(email, PASSWORD, attacker), "BOT_CHALLENGE_REQUIRED");
    await expectJson(await signIn(email, PASSWORD, attacker, { bot_challenge_token: "pass-4" }));
    // Another IP is not suspicious: no challenge.
    await expectJson(await signIn(email, PASSWORD, uniqueIp()));
  });

  it("validates the settings on save", async () => {
    expect((await configure({ bot_protection: "sometimes" })).status).toBe(400);
    expect((await configure({ bot_protection_verify_url: "ftp://example.com/verify" })).status).toBe(400);
  });
});
