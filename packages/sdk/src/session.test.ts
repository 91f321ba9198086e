// The session over a memory store, with an injected clock and a scripted refresh grant: reuse while more than 20 s
// remain, one refresh however many callers wait, refused and failing refreshes, rotation, sign-in and sign-out.

import { describe, expect, it } from "vitest";
import { createSession, decodeJwtPayload, type RefreshResult } from "./session.ts";
import { memoryTokenStore, type Tokens } from "./token-store.ts";

const T0 = 1_700_000_000_000;

const base64url = (value: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
    .replace(/=+$/, "")
    .replace(/\+/g, "-")
    .replace(/\//g, "_");

/** An unsigned JWT expiring `expiresInS` seconds after T0 (the session never checks signatures). */
const jwt = (name: string, expiresInS: number) =>
  `${base64url({ alg: "ES256", typ: "JWT" })}.${base64url({ sub: name, exp: T0 / 1000 + expiresInS })}.signature`;

/** A refresh grant whose answers the test gives one by one; it records the refresh tokens it was called with. */
function scriptedRefresh() {
  const calls: string[] = [];
  const waiting: { resolve: (result: RefreshResult) => void; reject: (error: Error) => void }[] = [];
  return {
    calls,
    refresh: (refreshToken: string) => {
      calls.push(refreshToken);
      return new Promise<RefreshResult>((resolve, reject) => waiting.push({ resolve, reject }));
    },
    answer: (result: RefreshResult) => waiting.shift()!.resolve(result),
    fail: (error: Error) => waiting.shift()!.reject(error),
  };
}

function setup(initial: Partial<Tokens>) {
  let now = T0;
  const store = memoryTokenStore(initial);
  const grant = scriptedRefresh();
  const session = createSession({ store, refresh: grant.refresh, now: () => now });
  let notifications = 0;
  session.subscribe(() => notifications++);
  return {
    store,
    grant,
    session,
    notifications: () => notifications,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createSession", () => {
  it("reuses the access token while more than 20 s remain, then refreshes", async () => {
    const fresh = jwt("old", 21);
    const { session, grant, advance, store } = setup({ refreshToken: "r1", accessToken: fresh });
    expect(await session.getAccessToken()).toBe(fresh);
    advance(999);
    expect(await session.getAccessToken()).toBe(fresh);
    expect(grant.calls).toEqual([]);

    advance(1); // exactly 20 s left: no longer reused
    const next = jwt("new", 600);
    const pending = session.getAccessToken();
    expect(grant.calls).toEqual(["r1"]);
    grant.answer({ accessToken: next });
    expect(await pending).toBe(next);
    expect(store.get()).toEqual({ refreshToken: "r1", accessToken: next });
  });

  it("refreshes when there is no access token or it cannot be decoded", async () => {
    for (const accessToken of [null, "not-a-jwt", `${base64url({})}.${base64url({ sub: "no exp" })}.s`]) {
      const { session, grant } = setup({ refreshToken: "r1", accessToken });
      const pending = session.getAccessToken();
      grant.answer({ accessToken: jwt("new", 600) });
      expect(await pending).toBe(jwt("new", 600));
      expect(grant.calls).toEqual(["r1"]);
    }
  });

  it("runs one refresh for ten concurrent callers with an expired token, and all get the new token", async () => {
    const { session, grant, advance, notifications } = setup({
      refreshToken: "r1",
      accessToken: jwt("old", 60),
    });
    advance(61_000);
    const callers = Array.from({ length: 10 }, () => session.getAccessToken());
    await flush();
    expect(grant.calls).toEqual(["r1"]);
    const next = jwt("new", 600);
    grant.answer({ accessToken: next });
    expect(await Promise.all(callers)).toEqual(Array(10).fill(next));
    expect(grant.calls).toHaveLength(1);
    expect(notifications()).toBe(1);
  });

  it("refreshes again once the next token nears its expiry", async () => {
    const { session, grant, advance } = setup({ refreshToken: "r1", accessToken: null });
    const first = session.getAccessToken();
    grant.answer({ accessToken: jwt("t1", 600) });
    await first;
    advance(590_000);
    const second = session.getAccessToken();
    grant.answer({ accessToken: jwt("t2", 1200) });
    expect(await second).toBe(jwt("t2", 1200));
    expect(grant.calls).toEqual(["r1", "r1"]);
  });

  it("markAccessTokenExpired forces a refresh, but only for the current token", async () => {
    const current = jwt("current", 600);
    const { session, grant, store } = setup({ refreshToken: "r1", accessToken: current });
    session.markAccessTokenExpired(jwt("older", 600));
    expect(store.get().accessToken).toBe(current);
    expect(await session.getAccessToken()).toBe(current);
    expect(grant.calls).toEqual([]);

    session.markAccessTokenExpired(current);
    expect(store.get()).toEqual({ refreshToken: "r1", accessToken: null });
    const pending = session.getAccessToken();
    grant.answer({ accessToken: jwt("next", 600) });
    expect(await pending).toBe(jwt("next", 600));
    expect(grant.calls).toEqual(["r1"]);
  });

  it("a refused refresh clears both tokens and notifies", async () => {
    const { session, grant, store, notifications } = setup({ refreshToken: "r1", accessToken: null });
    const pending = session.getAccessToken();
    grant.answer("refused");
    expect(await pending).toBeNull();
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
    expect(session.isSignedIn()).toBe(false);
    expect(notifications()).toBe(1);
    expect(await session.getAccessToken()).toBeNull();
    expect(grant.calls).toEqual(["r1"]);
  });

  it("a refresh failing on the network throws, keeps the tokens, and the next call tries again", async () => {
    const { session, grant, store, notifications } = setup({ refreshToken: "r1", accessToken: null });
    const callers = [session.getAccessToken(), session.getAccessToken()];
    grant.fail(new TypeError("fetch failed"));
    for (const caller of callers) await expect(caller).rejects.toThrow("fetch failed");
    expect(store.get()).toEqual({ refreshToken: "r1", accessToken: null });
    expect(session.isSignedIn()).toBe(true);
    expect(notifications()).toBe(0);

    const retry = session.getAccessToken();
    grant.answer({ accessToken: jwt("new", 600) });
    expect(await retry).toBe(jwt("new", 600));
    expect(grant.calls).toEqual(["r1", "r1"]);
  });

  it("stores a rotated refresh token and refreshes with it next time", async () => {
    const { session, grant, store, advance } = setup({ refreshToken: "r1", accessToken: null });
    const first = session.getAccessToken();
    grant.answer({ accessToken: jwt("t1", 600), refreshToken: "r2" });
    await first;
    expect(store.get()).toEqual({ refreshToken: "r2", accessToken: jwt("t1", 600) });
    expect(session.getRefreshToken()).toBe("r2");
    advance(600_000);
    const second = session.getAccessToken();
    grant.answer({ accessToken: jwt("t2", 1200) });
    await second;
    expect(grant.calls).toEqual(["r1", "r2"]);
  });

  it("drops a refresh answer when the user signed out (or in again) meanwhile", async () => {
    const { session, grant, store } = setup({ refreshToken: "r1", accessToken: null });
    const pending = session.getAccessToken();
    session.signOut();
    grant.answer({ accessToken: jwt("stale", 600), refreshToken: "r1-rotated" });
    expect(await pending).toBeNull();
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });

    const again = setup({ refreshToken: "r1", accessToken: null });
    const refusedLate = again.session.getAccessToken();
    const other = jwt("other-user", 600);
    again.session.signIn({ refreshToken: "r9", accessToken: other });
    again.grant.answer("refused");
    expect(await refusedLate).toBe(other);
    expect(again.store.get()).toEqual({ refreshToken: "r9", accessToken: other });
  });

  it("without a refresh token: a fresh access token is used, an expiring one gives null", async () => {
    const { session, grant, advance } = setup({ refreshToken: null, accessToken: jwt("only", 60) });
    expect(session.isSignedIn()).toBe(false);
    expect(await session.getAccessToken()).toBe(jwt("only", 60));
    advance(40_000);
    expect(await session.getAccessToken()).toBeNull();
    expect(grant.calls).toEqual([]);
  });

  it("signIn stores both tokens (both required) and signOut clears them", async () => {
    const { session, store, notifications, grant } = setup({});
    expect(session.isSignedIn()).toBe(false);
    expect(await session.getAccessToken()).toBeNull();
    const token = jwt("me", 600);
    session.signIn({ accessToken: token, refreshToken: "r1" });
    expect(session.isSignedIn()).toBe(true);
    expect(session.getRefreshToken()).toBe("r1");
    expect(await session.getAccessToken()).toBe(token);
    expect(notifications()).toBe(1);

    expect(() => session.signIn({ refreshToken: "r2" } as never)).toThrow(
      /both accessToken and refreshToken/,
    );
    expect(() => session.signIn({ accessToken: token, refreshToken: "undefined" })).toThrow(/'undefined'/);
    expect(store.get()).toEqual({ accessToken: token, refreshToken: "r1" });

    session.signOut();
    expect(store.get()).toEqual({ accessToken: null, refreshToken: null });
    expect(session.getRefreshToken()).toBeNull();
    expect(notifications()).toBe(2);
    expect(grant.calls).toEqual([]);
  });
});

describe("decodeJwtPayload", () => {
  it("decodes base64url payloads (with UTF-8) and answers null for anything else", () => {
    const payload = { name: "Zoë ✓", exp: 1, s: "?>?>" };
    expect(base64url(payload)).toMatch(/[-_]/);
    expect(decodeJwtPayload(`h.${base64url(payload)}.s`)).toEqual(payload);
    expect(decodeJwtPayload("nodots")).toBeNull();
    expect(decodeJwtPayload("a.%%%.c")).toBeNull();
    expect(decodeJwtPayload(`a.${base64url([1, 2])}.c`)).toBeNull();
  });
});
