// Tests of the SDK transport with an injected fetch and sleep (sleeps are recorded, never waited), plus one request
// against a real closed loopback port.
import { createServer } from "node:net";
import { isKnownError, type KnownError, knownErrorIs } from "@gatehouse/contract/known-error";
import { KnownErrors } from "@gatehouse/contract/known-errors";
import { describe, expect, it } from "vitest";
import { StackAssertionError } from "./errors.ts";
import {
  type AccessTokenSource,
  type Credentials,
  createTransport,
  OFFLINE_MESSAGE,
  RETRY_DELAYS_MS,
  StatusError,
  type TransportOptions,
} from "./transport.ts";

type Call = { url: string; init: RequestInit; headers: Record<string, string> };
type Answer = Response | Error | ((init: RequestInit) => Promise<Response>);

/** A fetch that answers from a script (the last answer repeats) and records every call. */
function scriptedFetch(...answers: Answer[]) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    calls.push({ url: String(input), init, headers: init.headers as Record<string, string> });
    const answer = answers[Math.min(calls.length, answers.length) - 1];
    if (answer instanceof Error) throw answer;
    if (typeof answer === "function") return answer(init);
    return answer!.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

function setup(
  answers: Answer[],
  overrides: Partial<TransportOptions> & { creds?: Partial<Credentials> } = {},
) {
  const { fetch, calls } = scriptedFetch(...answers);
  const sleeps: number[] = [];
  const { creds, ...rest } = overrides;
  const transport = createTransport({
    baseUrl: "http://auth.test",
    credentials: { projectId: "proj-1", accessType: "client", publishableClientKey: "pck_1", ...creds },
    clientVersion: "js @gatehouse/sdk@0.1.0",
    fetch,
    now: () => 1_700_000_000_000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    isOffline: () => false,
    ...rest,
  });
  return { transport, calls, sleeps };
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { "content-type": "application/json; charset=utf-8", ...init.headers },
  });
const text = (body: string, status: number, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
/** A known error as the server sends it to a client that asks for masking: 200, both spellings. */
const known = (error: KnownError) =>
  json(error.toBody(), {
    status: 200,
    headers: {
      "x-stack-known-error": error.code,
      "x-hexclave-known-error": error.code,
      "x-stack-actual-status": String(error.status),
      "x-hexclave-actual-status": String(error.status),
    },
  });

/** A session double: hands out `tokens` in turn, moving on each time a token is marked expired. */
function fakeSession(tokens: string[], refreshToken: string | null = "refresh-1") {
  const expired: string[] = [];
  const session: AccessTokenSource = {
    getAccessToken: async () => tokens[Math.min(expired.length, tokens.length - 1)] ?? null,
    getRefreshToken: () => refreshToken,
    markAccessTokenExpired: (token) => {
      expired.push(token);
    },
  };
  return { session, expired };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the request to fail");
}

describe("headers", () => {
  it("sends the common x-stack-* headers and the publishable key on client requests", async () => {
    const { transport, calls } = setup([json({ ok: true })], {
      creds: { secretServerKey: "ssk_1", superSecretAdminKey: "sak_1" },
    });
    await transport.request("/users/me");
    const h = calls[0]!.headers;
    expect(h).toMatchObject({
      "x-stack-project-id": "proj-1",
      "x-stack-access-type": "client",
      "x-stack-client-version": "js @gatehouse/sdk@0.1.0",
      "x-stack-override-error-status": "true",
      "x-stack-allow-anonymous-user": "true",
      "x-stack-publishable-client-key": "pck_1",
    });
    expect(h["x-stack-random-nonce"]).toMatch(/^[0-9a-f]{32}$/);
    // Keys of stronger access types never go out on a client request.
    expect(h["x-stack-secret-server-key"]).toBeUndefined();
    expect(h["x-stack-super-secret-admin-key"]).toBeUndefined();
    expect(h["x-stack-access-token"]).toBeUndefined();
    expect(calls[0]!.init).toMatchObject({ method: "GET", credentials: "omit", cache: "no-store" });
  });

  it("sends the secret server key on server requests", async () => {
    const { transport, calls } = setup([json({})], {
      creds: { accessType: "server", secretServerKey: "ssk_1", superSecretAdminKey: "sak_1" },
    });
    await transport.request("/users");
    expect(calls[0]!.headers).toMatchObject({
      "x-stack-access-type": "server",
      "x-stack-secret-server-key": "ssk_1",
      "x-stack-publishable-client-key": "pck_1",
    });
    expect(calls[0]!.headers["x-stack-super-secret-admin-key"]).toBeUndefined();
  });

  it("sends the admin key and the admin access token on admin requests", async () => {
    const { transport, calls } = setup([json({})], {
      creds: {
        accessType: "admin",
        publishableClientKey: undefined,
        superSecretAdminKey: "sak_1",
        adminAccessToken: async () => "admin-jwt",
      },
    });
    await transport.request("/projects/current");
    expect(calls[0]!.headers).toMatchObject({
      "x-stack-access-type": "admin",
      "x-stack-super-secret-admin-key": "sak_1",
      "x-stack-admin-access-token": "admin-jwt",
    });
    expect(calls[0]!.headers["x-stack-publishable-client-key"]).toBeUndefined();
  });

  it("exposes its credentials for the calls that carry them in a body", () => {
    const { transport } = setup([json({})]);
    expect(transport.credentials).toMatchObject({ projectId: "proj-1", publishableClientKey: "pck_1" });
  });

  it("leaves out an admin access token the source does not have", async () => {
    const { transport, calls } = setup([json({})], {
      creds: { accessType: "admin", superSecretAdminKey: "sak_1", adminAccessToken: async () => null },
    });
    await transport.request("/projects/current");
    expect(calls[0]!.headers["x-stack-admin-access-token"]).toBeUndefined();
  });

  it("draws a fresh random nonce for every attempt", async () => {
    const { transport, calls } = setup([new TypeError("fetch failed"), json({}), json({})]);
    await transport.request("/users/me"); // two attempts
    await transport.request("/users/me");
    const nonces = calls.map((c) => c.headers["x-stack-random-nonce"]);
    expect(nonces).toHaveLength(3);
    expect(new Set(nonces).size).toBe(3);
  });

  it("lets extra headers and per-request headers add to and override the defaults", async () => {
    const { transport, calls } = setup([json({})], {
      extraHeaders: { "x-app": "a", "x-stack-client-version": "v2" },
    });
    await transport.request("/users/me", { headers: { "x-app": "b", "x-request": "r" } });
    expect(calls[0]!.headers).toMatchObject({
      "x-app": "b",
      "x-request": "r",
      "x-stack-client-version": "v2",
    });
  });

  it("sends the access token of the session, and the refresh token only when asked", async () => {
    const { transport, calls } = setup([json({})]);
    const { session } = fakeSession(["access-1"]);
    await transport.request("/users/me", { session });
    await transport.request("/auth/sessions/current", { method: "DELETE", session, sendRefreshToken: true });
    expect(calls[0]!.headers["x-stack-access-token"]).toBe("access-1");
    expect(calls[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
    expect(calls[1]!.headers["x-stack-access-token"]).toBe("access-1");
    expect(calls[1]!.headers["x-stack-refresh-token"]).toBe("refresh-1");
  });

  it("sends no token headers for a signed-out session", async () => {
    const { transport, calls } = setup([json({})]);
    const { session } = fakeSession([], null);
    await transport.request("/users/me", { session, sendRefreshToken: true });
    expect(calls[0]!.headers["x-stack-access-token"]).toBeUndefined();
    expect(calls[0]!.headers["x-stack-refresh-token"]).toBeUndefined();
  });
});

describe("url and body", () => {
  it("puts the path under /api/v1 and encodes the query, skipping undefined values", async () => {
    const { transport, calls } = setup([json([])], { baseUrl: "http://auth.test:8102/" });
    await transport.request("/users", {
      query: { query: "a b&c=d/é", limit: 10, desc: true, cursor: undefined },
    });
    const url = new URL(calls[0]!.url);
    expect(url.origin + url.pathname).toBe("http://auth.test:8102/api/v1/users");
    expect(url.search).toBe("?query=a+b%26c%3Dd%2F%C3%A9&limit=10&desc=true");
    expect(url.searchParams.get("query")).toBe("a b&c=d/é");
  });

  it("sends a JSON body with its content type", async () => {
    const { transport, calls } = setup([json({})]);
    await transport.request("/auth/password/sign-in", {
      method: "POST",
      body: { email: "a@b.c", password: "x" },
    });
    expect(calls[0]!.init.method).toBe("POST");
    expect(calls[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ email: "a@b.c", password: "x" });
  });

  it("sends a form as application/x-www-form-urlencoded", async () => {
    const { transport, calls } = setup([json({})]);
    await transport.request("/auth/oauth/token", {
      method: "POST",
      form: { grant_type: "refresh_token", refresh_token: "a+b c&d" },
    });
    expect(calls[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(calls[0]!.init.body).toBe("grant_type=refresh_token&refresh_token=a%2Bb+c%26d");
    expect(new URLSearchParams(calls[0]!.init.body as string).get("refresh_token")).toBe("a+b c&d");
  });

  it("sends no body and no content type when there is none", async () => {
    const { transport, calls } = setup([json({})]);
    await transport.request("/users/me");
    expect(calls[0]!.init.body).toBeUndefined();
    expect(calls[0]!.headers["content-type"]).toBeUndefined();
  });

  it("refuses a request with both a JSON body and a form, before any fetch", async () => {
    const { transport, calls } = setup([json({})]);
    const error = await rejection(transport.request("/x", { method: "POST", body: {}, form: { a: "b" } }));
    expect(error).toBeInstanceOf(StackAssertionError);
    expect(calls).toHaveLength(0);
  });
});

describe("answers", () => {
  it("resolves the parsed JSON of a 2xx", async () => {
    const { transport } = setup([json({ id: "u1", n: [1, 2] }, { status: 201 })]);
    await expect(transport.request("/users", { method: "POST", body: {} })).resolves.toEqual({
      id: "u1",
      n: [1, 2],
    });
  });

  it("resolves the text of a 2xx text answer", async () => {
    const { transport } = setup([text("Welcome to Gatehouse", 200)]);
    await expect(transport.request("")).resolves.toBe("Welcome to Gatehouse");
  });

  it("resolves an empty text for a 204", async () => {
    const { transport } = setup([new Response(null, { status: 204 })]);
    await expect(transport.request("/x", { method: "DELETE" })).resolves.toBe("");
  });

  it.each(["x-stack-actual-status", "x-hexclave-actual-status"])(
    "restores a masked status from %s",
    async (name) => {
      const { transport, sleeps } = setup([
        text("Client can only list teams for their own user.", 200, { [name]: "403" }),
      ]);
      const error = await rejection(transport.request("/teams"));
      expect(error).toBeInstanceOf(StatusError);
      expect(error).toMatchObject({ status: 403, body: "Client can only list teams for their own user." });
      expect((error as Error).message).toContain("403 Client can only list teams");
      expect(sleeps).toEqual([]);
    },
  );

  it("throws a StatusError for unmasked non-known errors, 5xx included, without retrying", async () => {
    const { transport, calls } = setup([text("Something went wrong.", 500)]);
    const error = await rejection(transport.request("/users/me"));
    expect(error).toBeInstanceOf(StatusError);
    expect(error).toMatchObject({ status: 500, body: "Something went wrong." });
    expect(calls).toHaveLength(1);
  });

  it("rebuilds a known error with its code, real status, message and details", async () => {
    const { transport, calls } = setup([known(KnownErrors.PASSWORD_TOO_SHORT({ min_length: 8 }))]);
    const error = await rejection(transport.request("/auth/password/sign-up", { method: "POST", body: {} }));
    expect(isKnownError(error)).toBe(true);
    expect(error).toMatchObject({
      code: "PASSWORD_TOO_SHORT",
      status: 400,
      message: "Password too short. Minimum length is 8.",
      details: { min_length: 8 },
    });
    expect(knownErrorIs(error, "PASSWORD_REQUIREMENTS_NOT_MET")).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("reads the known-error code from either header spelling and matches parents", async () => {
    const error = KnownErrors.ACCESS_TOKEN_EXPIRED({ expired_at_millis: 1000 });
    const response = json(error.toBody(), {
      headers: { "x-hexclave-known-error": error.code, "x-hexclave-actual-status": "401" },
    });
    const { transport, calls } = setup([response]);
    const thrown = await rejection(transport.request("/users/me")); // no session: nothing to refresh
    expect(thrown).toMatchObject({
      code: "ACCESS_TOKEN_EXPIRED",
      status: 401,
      details: { expired_at_millis: 1000 },
    });
    expect(knownErrorIs(thrown, "INVALID_ACCESS_TOKEN")).toBe(true);
    expect(knownErrorIs(thrown, "SESSION_AUTHENTICATION_ERROR")).toBe(true);
    expect(knownErrorIs(thrown, "REFRESH_TOKEN_ERROR")).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it("treats a known-error header that does not match the body as an assertion error", async () => {
    const body = KnownErrors.USER_NOT_FOUND().toBody();
    const { transport } = setup([
      json(body, { status: 404, headers: { "x-stack-known-error": "TEAM_NOT_FOUND" } }),
    ]);
    const error = await rejection(transport.request("/users/u1"));
    expect(error).toBeInstanceOf(StackAssertionError);
    expect(isKnownError(error)).toBe(false);
  });
});

describe("invalid access token", () => {
  it("marks the token expired, asks the session again and retries once", async () => {
    const { session, expired } = fakeSession(["old-token", "new-token"]);
    const { transport, calls } = setup([known(KnownErrors.ACCESS_TOKEN_EXPIRED()), json({ id: "u1" })]);
    await expect(transport.request("/users/me", { session })).resolves.toEqual({ id: "u1" });
    expect(expired).toEqual(["old-token"]);
    expect(calls.map((c) => c.headers["x-stack-access-token"])).toEqual(["old-token", "new-token"]);
  });

  it("retries a POST too, for any error of the INVALID_ACCESS_TOKEN family", async () => {
    const { session, expired } = fakeSession(["garbled", "fresh"]);
    const { transport, calls } = setup([known(KnownErrors.UNPARSABLE_ACCESS_TOKEN()), json({})]);
    await transport.request("/teams", { method: "POST", body: { display_name: "T" }, session });
    expect(expired).toEqual(["garbled"]);
    expect(calls).toHaveLength(2);
  });

  it("surfaces the second failure", async () => {
    const { session, expired } = fakeSession(["t1", "t2", "t3"]);
    const { transport, calls, sleeps } = setup([known(KnownErrors.ACCESS_TOKEN_EXPIRED())]);
    const error = await rejection(transport.request("/users/me", { session }));
    expect(knownErrorIs(error, "INVALID_ACCESS_TOKEN")).toBe(true);
    expect(expired).toEqual(["t1"]);
    expect(calls).toHaveLength(2);
    expect(sleeps).toEqual([]);
  });

  it("does not retry other session errors", async () => {
    const { session, expired } = fakeSession(["t1"]);
    const { transport, calls } = setup([known(KnownErrors.USER_AUTHENTICATION_REQUIRED())]);
    const error = await rejection(transport.request("/users/me", { session }));
    expect(error).toMatchObject({ code: "USER_AUTHENTICATION_REQUIRED" });
    expect(expired).toEqual([]);
    expect(calls).toHaveLength(1);
  });
});

describe("retries", () => {
  const tooMany = (headers: Record<string, string>) =>
    text("Too many requests. Please try again later.", 200, { "x-stack-actual-status": "429", ...headers });

  it("waits exactly Retry-After seconds on a 429 and retries", async () => {
    const { transport, calls, sleeps } = setup([tooMany({ "retry-after": "3" }), json({ ok: 1 })]);
    await expect(transport.request("/auth/password/sign-in", { method: "POST", body: {} })).resolves.toEqual({
      ok: 1,
    });
    expect(sleeps).toEqual([3000]);
    expect(calls).toHaveLength(2);
  });

  it("falls back to the backoff delay when a 429 has no Retry-After, and gives up after five retries", async () => {
    const { transport, calls, sleeps } = setup([tooMany({})]);
    const error = await rejection(transport.request("/users/me"));
    expect(error).toBeInstanceOf(StatusError);
    expect(error).toMatchObject({ status: 429 });
    expect(sleeps).toEqual([...RETRY_DELAYS_MS]);
    expect(calls).toHaveLength(6);
  });

  it("retries network failures of idempotent methods with delays 1000…16000 ms, then surfaces", async () => {
    const failure = new TypeError("fetch failed");
    const { transport, calls, sleeps } = setup([failure]);
    const error = await rejection(transport.request("/users/me"));
    expect(sleeps).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(calls).toHaveLength(6);
    expect((error as Error).message).toContain("fetch failed");
    expect((error as Error).cause).toBe(failure);
  });

  it.each(["PUT", "DELETE"] as const)("retries %s on a network failure until it succeeds", async (method) => {
    const { transport, calls, sleeps } = setup([
      new TypeError("reset"),
      new TypeError("reset"),
      json({ ok: 1 }),
    ]);
    await expect(transport.request("/x", { method, body: {} })).resolves.toEqual({ ok: 1 });
    expect(sleeps).toEqual([1000, 2000]);
    expect(calls).toHaveLength(3);
  });

  it.each(["POST", "PATCH"] as const)("does not retry %s on a network failure", async (method) => {
    const { transport, calls, sleeps } = setup([new TypeError("fetch failed"), json({})]);
    const error = await rejection(transport.request("/x", { method, body: {} }));
    expect((error as Error).message).toContain("fetch failed");
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("retries 508 INFINITE_LOOP_DETECTED, even for a POST", async () => {
    const loop = text("INFINITE_LOOP_DETECTED: the request looped", 508);
    const { transport, calls, sleeps } = setup([loop, json({ ok: 1 })]);
    await expect(transport.request("/x", { method: "POST", body: {} })).resolves.toEqual({ ok: 1 });
    expect(sleeps).toEqual([1000]);
    expect(calls).toHaveLength(2);
  });

  it("does not retry other 508 answers", async () => {
    const { transport, calls } = setup([text("Loop detected", 508)]);
    const error = await rejection(transport.request("/x"));
    expect(error).toMatchObject({ status: 508 });
    expect(calls).toHaveLength(1);
  });

  it("throws the offline message without a fetch when the browser is offline", async () => {
    const { transport, calls } = setup([json({})], { isOffline: () => true });
    const error = await rejection(transport.request("/users/me"));
    expect((error as Error).message).toBe(OFFLINE_MESSAGE);
    expect((error as Error).message).toMatch(/offline/);
    expect(calls).toHaveLength(0);
  });

  it("stops retrying when the browser goes offline between attempts", async () => {
    let online = true;
    const { transport, calls } = setup([new TypeError("fetch failed")], {
      isOffline: () => !online,
      sleep: async () => {
        online = false;
      },
    });
    const error = await rejection(transport.request("/users/me"));
    expect((error as Error).message).toBe(OFFLINE_MESSAGE);
    expect(calls).toHaveLength(1);
  });
});

describe("timeouts and a dead server", () => {
  /** A fetch that never answers until its signal aborts, like a server that accepted the connection and hung. */
  const hanging = (init: RequestInit) =>
    new Promise<Response>((_, reject) => {
      init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
    });

  it("aborts a hanging attempt after timeoutMs", async () => {
    const { transport, calls } = setup([hanging], { timeoutMs: 30 });
    const started = Date.now();
    const error = await rejection(transport.request("/x", { method: "POST", body: {} }));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(calls).toHaveLength(1);
    expect(((error as Error).cause as Error).name).toBe("TimeoutError");
  });

  it("times out each attempt of an idempotent request and retries it", async () => {
    const { transport, calls, sleeps } = setup([hanging, hanging, json({ ok: 1 })], { timeoutMs: 20 });
    await expect(transport.request("/users/me")).resolves.toEqual({ ok: 1 });
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it("fails within seconds against a real closed loopback port", async () => {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.on("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    expect(port).toBeGreaterThan(0);
    const sleeps: number[] = [];
    const transport = createTransport({
      baseUrl: `http://127.0.0.1:${port}`,
      credentials: { projectId: "proj-1", accessType: "client" },
      clientVersion: "js @gatehouse/sdk@0.1.0",
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      timeoutMs: 2000,
    });
    const started = Date.now();
    const error = await rejection(transport.request("/users/me"));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(sleeps).toEqual([...RETRY_DELAYS_MS]);
    expect((error as Error).message).toContain(`http://127.0.0.1:${port}/api/v1/users/me`);
    expect((error as Error).message).toMatch(/ECONNREFUSED|fetch failed/);
  });
});
