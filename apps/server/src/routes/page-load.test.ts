// What Stack's SDK fetches on a page load: backend URLs (this server's base URL, no headers needed), the handler
// page versions at both paths its dev tool and backend use (with CORS for the browser), and the version check.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkClientVersion } from "../services/client-version.ts";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import { createTestServer, TEST_BASE_URL, type TestServer } from "../testing/test-server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

describe("GET /internal/backend-urls", () => {
  it("answers this server's base URL, without any project headers", async () => {
    expect(await expectJson(await server.request("/api/v1/internal/backend-urls"))).toEqual({
      urls: [TEST_BASE_URL],
    });
  });
});

describe("GET /internal/component-versions", () => {
  it("answers version 1 of every handler page, at /api/v1 and at /api/latest with CORS", async () => {
    for (const path of ["/api/v1/internal/component-versions", "/api/latest/internal/component-versions"]) {
      const res = await server.request(path, { headers: { origin: "https://app.example.com" } });
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const body = await expectJson<{ versions: Record<string, unknown> }>(res);
      expect(Object.keys(body.versions)).toHaveLength(14);
      expect(body.versions.signIn).toEqual({ version: 1, changelogs: { "1": "Initial version." } });
      expect(body.versions.onboarding).toEqual({ version: 1, changelogs: { "1": "Initial version." } });
    }
    const preflight = await server.request("/api/latest/internal/component-versions", { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
  });
});

describe("POST /check-version", () => {
  const check = async (clientVersion: unknown) =>
    server.request("/api/v1/check-version", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientVersion }),
    });

  it("says 2.8.108 and later are current, and warns older ones as Stack does", async () => {
    expect(await expectJson(await check("2.8.108"))).toEqual({ upToDate: true });
    expect(await expectJson(await check("2.8.110"))).toEqual({ upToDate: true });
    expect(await expectJson(await check("2.8.102"))).toMatchObject({ upToDate: false, severe: false });
    await expectKnownError(await check(2), "SCHEMA_ERROR");
  });

  it("is severe below 2.8.57, across minor versions and for versions that are not semver", () => {
    expect(checkClientVersion("2.8.56")).toMatchObject({ upToDate: false, severe: true });
    expect(JSON.stringify(checkClientVersion("2.8.56"))).toContain("cve-2025-55182");
    expect(checkClientVersion("2.9.0")).toMatchObject({ upToDate: false, severe: true });
    expect(checkClientVersion("latest")).toMatchObject({ upToDate: false, severe: true });
    expect(checkClientVersion("2.8.108-beta.1")).toMatchObject({ upToDate: false, severe: false });
  });
});
