// Refresh-token rotation (WIRE.md §3.4) through the token endpoint, on the test clock: each refresh hands out a
// new token, the replaced one still works for 30 seconds (giving the same new token), and any other replay ends
// the session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  keys = (
    await server.createProject(
      { config: { refresh_token_rotation: true } },
      { expiresAt: new Date("2099-01-01") },
    )
  ).keys;
});
afterAll(() => server.close());

const refresh = (refreshToken: string) =>
  server.request("/api/v1/auth/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      client_id: keys.projectId,
      client_secret: keys.pck,
      refresh_token: refreshToken,
    }).toString(),
  });

async function refreshed(refreshToken: string) {
  const res = await refresh(refreshToken);
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

const me = (accessToken: string) =>
  server.request("/api/v1/users/me", {
    headers: { ...accessHeaders("client", keys), "x-stack-access-token": accessToken },
  });

describe("refresh-token rotation", () => {
  it("hands out a new token each refresh; the replaced one works 30 s and gives the same new token", async () => {
    const { refreshToken } = await server.signIn(keys.projectId);
    const first = await refreshed(refreshToken);
    expect(first.refresh_token).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    expect(first.refresh_token).not.toBe(refreshToken);
    expect((await me(first.access_token)).status).toBe(200);

    server.clock.advance(29_000);
    const retry = await refreshed(refreshToken);
    expect(retry.refresh_token).toBe(first.refresh_token);

    const second = await refreshed(first.refresh_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await me(second.access_token)).status).toBe(200);
  });

  it("ends the session when a replaced token comes back after its grace window", async () => {
    const { refreshToken } = await server.signIn(keys.projectId);
    const next = await refreshed(refreshToken);
    server.clock.advance(31_000);
    await expectKnownError(await refresh(refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    // The session is over for whoever held the newer token too.
    await expectKnownError(await refresh(next.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    await expectKnownError(await me(next.access_token), "ACCESS_TOKEN_EXPIRED");
  });

  it("ends the session when a token two rotations old comes back, even at once", async () => {
    const { refreshToken } = await server.signIn(keys.projectId);
    const one = await refreshed(refreshToken);
    const two = await refreshed(one.refresh_token);
    await expectKnownError(await refresh(refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    await expectKnownError(await refresh(two.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("rotates through POST /auth/sessions/current/refresh too", async () => {
    const { refreshToken } = await server.signIn(keys.projectId);
    const res = await server.request("/api/v1/auth/sessions/current/refresh", {
      method: "POST",
      headers: { ...accessHeaders("client", keys), "x-stack-refresh-token": refreshToken },
    });
    const body = (await res.json()) as { access_token: string; refresh_token?: string };
    expect(res.status).toBe(200);
    expect(body.refresh_token).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    expect((await refreshed(body.refresh_token ?? "")).access_token).toBeTruthy();
  });
});
