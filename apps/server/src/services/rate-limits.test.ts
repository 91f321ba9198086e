// Abuse limits (WIRE.md §1.10) through the HTTP API with limits on: each bucket fires at its limit with 429 and
// retry-after, counts unknown addresses like known ones, holds under parallel requests, slides rather than resets,
// and opens again as its window passes; the per-address ceiling slows guessing without locking out the owner.
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
  keys = (await server.createProject({ config: { magic_link_enabled: true } })).keys;
});
afterAll(() => server.close());

const post = (path: string, body: unknown, ip: string) =>
  server.request(`/api/v1${path}`, {
    method: "POST",
    headers: { ...accessHeaders("client", keys), "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });

async function expectLimited(res: Response) {
  expect(res.status).toBe(429);
  expect(await res.text()).toBe("Too many requests. Please try again later.");
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
}

describe("rate limits", () => {
  it("stops failed password sign-ins per e-mail and IP after 10, and lets them in again after the window", async () => {
    const email = "target@example.com";
    await post("/auth/password/sign-up", { email, password: "right password" }, "10.0.0.1");
    for (let i = 0; i < 10; i++) {
      const res = await post("/auth/password/sign-in", { email, password: "wrong password" }, "10.0.0.2");
      expect(res.status, `attempt ${i + 1}`).toBe(400);
    }
    // Even the right password is refused while the bucket is full: the limit must not act as an oracle.
    await expectLimited(
      await post("/auth/password/sign-in", { email, password: "right password" }, "10.0.0.2"),
    );
    expect(
      (await post("/auth/password/sign-in", { email, password: "right password" }, "10.0.0.3")).status,
    ).toBe(200);
    server.clock.advance(15 * 60_000);
    expect(
      (await post("/auth/password/sign-in", { email, password: "right password" }, "10.0.0.2")).status,
    ).toBe(200);
  });

  it("takes each slot before the hash: of 100 parallel wrong passwords from one IP, at most 10 are checked", async () => {
    const email = "parallel@example.com";
    await post("/auth/password/sign-up", { email, password: "right password" }, "10.0.5.1");
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        post("/auth/password/sign-in", { email, password: "wrong password" }, "10.0.5.2"),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(90);
  });

  it("slides: a full bucket stays full across what used to be a window edge", async () => {
    const email = "edge@example.com";
    const windowMs = 15 * 60_000;
    // One second before a multiple of 15 minutes, where the old fixed windows reset.
    server.clock.advance(windowMs - (server.clock.now().getTime() % windowMs) - 1000);
    for (let i = 0; i < 10; i++)
      await post("/auth/password/sign-in", { email, password: "wrong password" }, "10.0.6.1");
    server.clock.advance(2000);
    const limited = await post("/auth/password/sign-in", { email, password: "wrong password" }, "10.0.6.1");
    await expectLimited(limited);
    expect(Number(limited.headers.get("retry-after"))).toBe(15 * 60 - 2);
    server.clock.advance(windowMs - 2000);
    expect(
      (await post("/auth/password/sign-in", { email, password: "wrong password" }, "10.0.6.1")).status,
    ).toBe(400);
  });

  it("does not count right passwords: the owner signs in between failures without using up the bucket", async () => {
    const email = "owner@example.com";
    await post("/auth/password/sign-up", { email, password: "right password" }, "10.0.7.1");
    for (let i = 0; i < 9; i++)
      await post("/auth/password/sign-in", { email, password: "wrong password" }, "10.0.7.2");
    for (let i = 0; i < 5; i++)
      expect(
        (await post("/auth/password/sign-in", { email, password: "right password" }, "10.0.7.2")).status,
      ).toBe(200);
    expect(
      (await post("/auth/password/sign-in", { email, password: "wrong password" }, "10.0.7.2")).status,
    ).toBe(400);
    await expectLimited(
      await post("/auth/password/sign-in", { email, password: "right password" }, "10.0.7.2"),
    );
  });

  it("limits an unknown address exactly like a known one", async () => {
    for (let i = 0; i < 10; i++) {
      await post(
        "/auth/password/sign-in",
        { email: "nobody@example.com", password: "whatever1" },
        "10.0.1.1",
      );
    }
    await expectLimited(
      await post("/auth/password/sign-in", { email: "nobody@example.com", password: "x2345678" }, "10.0.1.1"),
    );
  });

  it("sends at most 5 e-mails to one address in 15 minutes, known or not", async () => {
    const body = { email: "flood@example.com", callback_url: "http://localhost:3000/reset" };
    for (let i = 0; i < 5; i++)
      expect((await post("/auth/password/send-reset-code", body, `10.0.2.${i}`)).status).toBe(200);
    await expectLimited(await post("/auth/password/send-reset-code", body, "10.0.2.9"));
    // The bucket is per address and shared by every code-sending endpoint.
    await expectLimited(await post("/auth/otp/send-sign-in-code", body, "10.0.2.9"));
    expect(
      (await post("/auth/otp/send-sign-in-code", { ...body, email: "other@example.com" }, "10.0.2.9")).status,
    ).toBe(200);
  });

  it("allows 60 code submissions a minute per IP", async () => {
    const code = { code: "0".repeat(45) };
    for (let i = 0; i < 60; i++) {
      const res = await post("/auth/password/reset/check-code", code, "10.0.3.1");
      expect(res.status, `submission ${i + 1}`).toBe(404);
    }
    await expectLimited(await post("/contact-channels/verify", code, "10.0.3.1"));
    expect((await post("/contact-channels/verify", code, "10.0.3.2")).status).toBe(404);
  });

  it("allows 600 API requests a minute per IP, masked to 200 when the SDK asks", async () => {
    const get = () =>
      server.request("/api/v1/projects/current", {
        headers: {
          ...accessHeaders("client", keys),
          "x-forwarded-for": "10.0.4.1",
          "x-stack-override-error-status": "true",
        },
      });
    for (let i = 0; i < 600; i++) expect((await get()).headers.get("x-stack-actual-status")).toBeNull();
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get("x-stack-actual-status")).toBe("429");
    expect(res.headers.get("retry-after")).not.toBeNull();
  });
});

describe("the ceiling per address across IPs", () => {
  it("slows a spread-out attack to one guess per IP, and never locks out the owner's right password", async () => {
    const limited = await createTestServer({ rateLimits: { enabled: true, limits: { sign_in_email: 20 } } });
    try {
      const { keys: k } = await limited.createProject();
      const attempt = (password: string, ip: string) =>
        limited.request("/api/v1/auth/password/sign-in", {
          method: "POST",
          headers: {
            ...accessHeaders("client", k),
            "content-type": "application/json",
            "x-forwarded-for": ip,
          },
          body: JSON.stringify({ email: "ceo@example.com", password }),
        });
      await limited.request("/api/v1/auth/password/sign-up", {
        method: "POST",
        headers: { ...accessHeaders("client", k), "content-type": "application/json" },
        body: JSON.stringify({ email: "ceo@example.com", password: "right password" }),
      });
      // Two IPs fill the ceiling of 20 with 10 failures each.
      for (const ip of ["10.1.0.1", "10.1.0.2"])
        for (let i = 0; i < 10; i++) expect((await attempt("wrong password", ip)).status).toBe(400);
      // Over the ceiling, a fresh IP gets one guess, then waits.
      expect((await attempt("wrong password", "10.1.0.3")).status).toBe(400);
      await expectLimited(await attempt("wrong password", "10.1.0.3"));
      // The owner, from a fresh IP, with the right password, is in (the old ceiling answered 429 here).
      expect((await attempt("right password", "10.1.0.4")).status).toBe(200);
      expect((await attempt("right password", "10.1.0.4")).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("e-mail sends per address", () => {
  it("are not used up by sign-ups of an address that already has an account", async () => {
    const limited = await createTestServer({ rateLimits: { enabled: true, limits: { email_send: 2 } } });
    try {
      const { keys: k } = await limited.createProject({
        config: { domains: [{ domain: "http://localhost:3000", handler_path: "/handler" }] },
      });
      const call = (path: string, body: Record<string, unknown>) =>
        limited.request(`/api/v1/auth/password/${path}`, {
          method: "POST",
          headers: { ...accessHeaders("client", k), "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const callback = "http://localhost:3000/handler/email-verification";
      const signUp = {
        email: "owner@example.com",
        password: "a long password 123",
        verification_callback_url: callback,
      };
      expect((await call("sign-up", signUp)).status).toBe(200);
      // Someone else signs up with the owner's address again and again: refused each time, nothing sent.
      for (let i = 0; i < 3; i++)
        await expectKnownError(await call("sign-up", signUp), "USER_EMAIL_ALREADY_EXISTS");
      // The owner's one send left (two, one used by the verification e-mail) still works.
      const reset = {
        email: "owner@example.com",
        callback_url: "http://localhost:3000/handler/password-reset",
      };
      expect((await call("send-reset-code", reset)).status).toBe(200);
      await expectLimited(await call("send-reset-code", reset));
    } finally {
      await limited.close();
    }
  });
});

describe("rate limits turned off", () => {
  it("never answers 429", async () => {
    const open = await createTestServer({ rateLimits: { enabled: false } });
    try {
      const { keys: k } = await open.createProject();
      const body = JSON.stringify({ email: "a@example.com", callback_url: "http://localhost:3000/r" });
      for (let i = 0; i < 8; i++) {
        const res = await open.request("/api/v1/auth/password/send-reset-code", {
          method: "POST",
          headers: { ...accessHeaders("client", k), "content-type": "application/json" },
          body,
        });
        expect(res.status).toBe(200);
      }
    } finally {
      await open.close();
    }
  });
});
