// /metrics is never open by default: without GATEHOUSE_METRICS_TOKEN the API port answers 404, and the token is
// compared whole (a prefix, another scheme or a missing header never pass).
import { describe, expect, it } from "vitest";
import { createTestServer } from "../testing/test-server.ts";
import { bearerMatches } from "./exposition.ts";

describe("/metrics on the API port", () => {
  it("is not served without a configured token", async () => {
    const server = await createTestServer();
    try {
      const res = await server.app.request("/metrics", {
        headers: { authorization: "Bearer anything-at-all-123" },
      });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("gatehouse_");
    } finally {
      // Its database too: on PostgreSQL each test server is a database of its own, left behind unless closed.
      await server.close();
    }
  });
});

describe("bearerMatches", () => {
  const token = "metrics-token-0123456789";
  it("accepts the token alone, as a bearer token", () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
  });
  it("refuses a prefix, a longer value, another scheme, or nothing", () => {
    expect(bearerMatches(`Bearer ${token.slice(0, -1)}`, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token}0`, token)).toBe(false);
    expect(bearerMatches(`Basic ${token}`, token)).toBe(false);
    expect(bearerMatches(undefined, token)).toBe(false);
    expect(bearerMatches("", token)).toBe(false);
  });
});
