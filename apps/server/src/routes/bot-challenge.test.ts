// Stack's SDK sends bot-challenge fields on credential sign-up, magic-link e-mails and OAuth authorize: a token and
// its phase, or `bot_challenge_unavailable: "true"` as a string. With no bot check configured they are accepted and
// handed to the seam (services/bot-challenge.ts), which lets every request through; Stack's phases are checked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import { authorizePath, pkcePair } from "../testing/oauth-client.ts";
import {
  createTestServer,
  jsonPost,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
} from "../testing/test-server.ts";
import type { BotChallengeAction } from "../trust/bot-challenge.ts";

const APP = "https://app.example.com";
let server: TestServer;
let keys: ProjectKeys;
const post = jsonPost(() => ({ server, keys }));
const seen: { action: BotChallengeAction; fields: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = await createTestServer({ developmentOAuth: ["*"] });
  keys = (
    await server.createProject({
      displayName: "Guarded",
      config: {
        magic_link_enabled: true,
        oauth_providers: [{ id: "github", type: "shared", enabled: true }],
        domains: [{ domain: APP, handler_path: "/handler" }],
      },
    })
  ).keys;
  // The seam is where a bot check will go: here it records what reaches it.
  const check = server.deps.botChallenge.check;
  server.deps.botChallenge.check = async (project, action, fields, ip) => {
    seen.push({ action, fields: { ...fields } });
    return check(project, action, fields, ip);
  };
});
afterAll(async () => {
  await server.deps.emailWorker.stop();
  await server.close();
});

const signUp = (extra: Record<string, unknown>) =>
  post("/api/v1/auth/password/sign-up", {
    email: uniqueEmail(),
    password: "correct horse battery",
    ...extra,
  });
const sendCode = (extra: Record<string, unknown>) =>
  post("/api/v1/auth/otp/send-sign-in-code", {
    email: uniqueEmail(),
    callback_url: `${APP}/handler/magic-link-callback`,
    ...extra,
  });
const authorize = (extra: Record<string, string>) =>
  server.request(
    authorizePath("github", {
      projectId: keys.projectId,
      clientSecret: keys.pck,
      redirectUri: `${APP}/handler/oauth-callback`,
      pkce: pkcePair(),
      responseMode: "json",
      override: extra,
    }),
    { headers: { "x-forwarded-for": uniqueIp() } },
  );

describe("bot-challenge fields as Stack's SDK sends them", () => {
  it('accepts `bot_challenge_unavailable: "true"` and tokens of either phase on the three guarded flows', async () => {
    seen.length = 0;
    await expectJson(await signUp({ bot_challenge_unavailable: "true" }));
    await expectJson(await signUp({ bot_challenge_token: "tok-1", bot_challenge_phase: "visible" }));
    await expectJson(await sendCode({ bot_challenge_token: "tok-2" }));
    await expectJson(await sendCode({ bot_challenge_unavailable: "true" }));
    await expectJson(await authorize({ bot_challenge_token: "tok-3", bot_challenge_phase: "invisible" }));
    expect(seen).toEqual([
      {
        action: "sign_up_with_credential",
        fields: expect.objectContaining({ bot_challenge_unavailable: "true" }),
      },
      {
        action: "sign_up_with_credential",
        fields: expect.objectContaining({ bot_challenge_token: "tok-1", bot_challenge_phase: "visible" }),
      },
      { action: "send_magic_link_email", fields: expect.objectContaining({ bot_challenge_token: "tok-2" }) },
      {
        action: "send_magic_link_email",
        fields: expect.objectContaining({ bot_challenge_unavailable: "true" }),
      },
      {
        action: "oauth_authenticate",
        fields: expect.objectContaining({ bot_challenge_token: "tok-3", bot_challenge_phase: "invisible" }),
      },
    ]);
  });

  it("refuses what Stack's schema refuses: an unknown phase, or `unavailable` other than true", async () => {
    await expectKnownError(
      await signUp({ bot_challenge_token: "t", bot_challenge_phase: "sideways" }),
      "SCHEMA_ERROR",
    );
    await expectKnownError(await sendCode({ bot_challenge_unavailable: "false" }), "SCHEMA_ERROR");
    await expectKnownError(await authorize({ bot_challenge_phase: "sideways" }), "SCHEMA_ERROR");
  });
});
