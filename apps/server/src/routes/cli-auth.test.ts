// CLI login over HTTP (Stack's `/auth/cli`): start, poll states and status codes (200 waiting/expired/used, 201 one
// success), confirmation by a signed-in browser's refresh token, the anonymous-session modes, codes stored hashed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../crypto/hash.ts";
import { cliAuthAttempts } from "../db/schema.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  createTestServer,
  jsonPost,
  type ProjectKeys,
  type TestServer,
  withToken,
} from "../testing/test-server.ts";

let server: TestServer;
let keys: ProjectKeys;
const post = jsonPost(() => ({ server, keys }));

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject());
});
afterAll(() => server.close());

type Started = { polling_code: string; login_code: string; expires_at: string };
const start = async (body: unknown = {}) => expectJson<Started>(await post("/api/v1/auth/cli", body));
const poll = (code: string) => post("/api/v1/auth/cli/poll", { polling_code: code });

describe("POST /auth/cli", () => {
  it("answers two distinct codes and a 2-hour expiry by default, stored only as hashes", async () => {
    const started = await start();
    expect(started.polling_code).not.toBe(started.login_code);
    expect(started.polling_code.length).toBeGreaterThanOrEqual(40);
    expect(new Date(started.expires_at).getTime() - server.clock.now().getTime()).toBe(2 * 3600 * 1000);
    const rows = await server.deps.db.select().from(cliAuthAttempts);
    const row = rows.find((r) => r.pollingCodeHash === sha256Hex(started.polling_code));
    expect(row?.loginCodeHash).toBe(sha256Hex(started.login_code));
    expect(JSON.stringify(rows)).not.toContain(started.polling_code);
  });

  it("takes expires_in_millis up to 24 hours", async () => {
    const started = await start({ expires_in_millis: 60_000 });
    expect(new Date(started.expires_at).getTime() - server.clock.now().getTime()).toBe(60_000);
    expect((await post("/api/v1/auth/cli", { expires_in_millis: 25 * 3600 * 1000 })).status).toBe(400);
  });

  it("refuses an anon refresh token that is unknown or of a real user", async () => {
    await expectTextError(
      await post("/api/v1/auth/cli", { anon_refresh_token: "nope" }),
      400,
      "Invalid anon refresh token",
    );
    const user = await server.signIn(keys.projectId);
    await expectTextError(
      await post("/api/v1/auth/cli", { anon_refresh_token: user.refreshToken }),
      400,
      "The provided refresh token does not belong to an anonymous user",
    );
  });
});

describe("the login", () => {
  it("waits, then succeeds once with 201 and a working refresh token of a new session, then is used", async () => {
    const started = await start();
    expect(await expectJson(await poll(started.polling_code))).toEqual({ status: "waiting" });
    const browser = await server.signIn(keys.projectId);
    const completed = await post("/api/v1/auth/cli/complete", {
      login_code: started.login_code,
      refresh_token: browser.refreshToken,
    });
    expect(await expectJson(completed)).toEqual({ success: true });

    const success = await expectJson<{ status: string; refresh_token: string }>(
      await poll(started.polling_code),
      201,
    );
    expect(success.status).toBe("success");
    expect(success.refresh_token).not.toBe(browser.refreshToken);
    const refreshed = await post(
      "/api/v1/auth/sessions/current/refresh",
      {},
      {
        "x-stack-refresh-token": success.refresh_token,
      },
    );
    const { access_token } = await expectJson<{ access_token: string }>(refreshed);
    const me = await server.request("/api/v1/users/me", {
      headers: {
        ...withToken(access_token),
        "x-stack-access-type": "client",
        "x-stack-project-id": keys.projectId,
        "x-stack-publishable-client-key": keys.pck,
      },
    });
    expect((await expectJson<{ id: string }>(me)).id).toBe(browser.userId);

    expect(await expectJson(await poll(started.polling_code))).toEqual({ status: "used" });
    // The login code is spent too.
    await expectTextError(
      await post("/api/v1/auth/cli/complete", {
        login_code: started.login_code,
        refresh_token: browser.refreshToken,
      }),
      400,
      "Invalid login code or the code has expired",
    );
  });

  it("expires", async () => {
    const started = await start({ expires_in_millis: 1000 });
    server.clock.advance(1001);
    expect(await expectJson(await poll(started.polling_code))).toEqual({ status: "expired" });
    const browser = await server.signIn(keys.projectId);
    await expectTextError(
      await post("/api/v1/auth/cli/complete", {
        login_code: started.login_code,
        refresh_token: browser.refreshToken,
      }),
      400,
      "Invalid login code or the code has expired",
    );
  });

  it("answers INVALID_POLLING_CODE for an unknown code and for another project's code", async () => {
    await expectKnownError(await poll("unknown"), "INVALID_POLLING_CODE");
    const started = await start();
    const other = await server.createProject();
    const res = await post(
      "/api/v1/auth/cli/poll",
      { polling_code: started.polling_code },
      {},
      "client",
      other.keys,
    );
    await expectKnownError(res, "INVALID_POLLING_CODE");
  });

  it("needs a valid refresh token of this project to complete", async () => {
    const started = await start();
    await expectTextError(
      await post("/api/v1/auth/cli/complete", { login_code: started.login_code }),
      400,
      "refresh_token is required when mode is 'complete'",
    );
    await expectTextError(
      await post("/api/v1/auth/cli/complete", { login_code: started.login_code, refresh_token: "bogus" }),
      400,
      "Invalid refresh token",
    );
    const other = await server.createProject();
    const stranger = await server.signIn(other.keys.projectId);
    await expectTextError(
      await post("/api/v1/auth/cli/complete", {
        login_code: started.login_code,
        refresh_token: stranger.refreshToken,
      }),
      400,
      "Invalid refresh token",
    );
    expect(await expectJson(await poll(started.polling_code))).toEqual({ status: "waiting" });
  });
});

describe("rate limits", () => {
  it("counts starts and confirmations against the caller's IP like other code endpoints", async () => {
    const ip = { "x-forwarded-for": "203.0.113.77" };
    let last: Response | undefined;
    for (let i = 0; i <= 60; i++)
      last = await post("/api/v1/auth/cli/complete", { login_code: `guess-${i}` }, ip);
    expect(last?.status).toBe(429);
    expect((await post("/api/v1/auth/cli", {}, ip)).status).toBe(429);
  });
});

describe("the CLI's anonymous session", () => {
  it("is reported by check and claimed once", async () => {
    const anon = await server.signIn(keys.projectId, { audience: "anonymous" });
    const started = await start({ anon_refresh_token: anon.refreshToken });
    const check = () => post("/api/v1/auth/cli/complete", { login_code: started.login_code, mode: "check" });
    expect(await expectJson(await check())).toEqual({ cli_session_state: "anonymous" });
    const claim = () =>
      post("/api/v1/auth/cli/complete", { login_code: started.login_code, mode: "claim-anon-session" });
    const claimed = await expectJson<{ access_token: string; refresh_token: string }>(await claim());
    expect(claimed.refresh_token).not.toBe(anon.refreshToken);
    const session = await server.deps.sessions.findByRefreshToken(keys.projectId, claimed.refresh_token);
    expect(session?.userId).toBe(anon.userId);
    await expectTextError(await claim(), 400, "No anonymous session associated with this code");
    expect(await expectJson(await check())).toEqual({ cli_session_state: "none" });
  });

  it("is none without one", async () => {
    const started = await start();
    const res = await post("/api/v1/auth/cli/complete", { login_code: started.login_code, mode: "check" });
    expect(await expectJson(res)).toEqual({ cli_session_state: "none" });
  });
});
