// Issue 16's inventory: every method + path that Stack's published SDKs (2.8.108 and 2.8.102) can call must be a
// route of our contract, so that no call an app makes through them meets a bare 404 or 405.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the scanner's fixtures are compiled JavaScript source.
import { fileURLToPath } from "node:url";
import { allRoutes } from "@gatehouse/contract";
import { describe, expect, it } from "vitest";
import { callsInSource, routeMatches, stackCalls } from "./stack-calls.ts";

const modules = fileURLToPath(new URL("../../node_modules/@stackframe/", import.meta.url));
const SDKS = [
  { name: "@stackframe/js 2.8.108", js: `${modules}js`, shared: `${modules}stack-shared` },
  {
    name: "@stackframe/js 2.8.102",
    js: `${modules}js-2.8.102`,
    shared: `${modules}js-2.8.102/node_modules/@stackframe/stack-shared`,
  },
];

/** Calls another helper's group is answering right now (issue 16); this list must be empty when they are done. */
const PENDING_OTHER_GROUPS: string[] = [];

const answered = (call: { method: string; path: string }) =>
  allRoutes.some((route) => route.method === call.method && routeMatches(route.path, call.path));

describe("the calls Stack's SDKs make", () => {
  for (const sdk of SDKS) {
    it(`${sdk.name}: every call is a route of the contract`, () => {
      const calls = stackCalls(sdk.js, sdk.shared);
      // A sanity floor, so that a scanner that silently finds nothing cannot pass.
      expect(calls.length).toBeGreaterThan(150);
      const missing = calls
        .map((call) => `${call.method} ${call.path}`)
        .filter((key) => !PENDING_OTHER_GROUPS.includes(key))
        .filter((key) => {
          const [method = "", path = ""] = key.split(" ");
          return !answered({ method, path });
        });
      expect(missing).toEqual([]);
    });
  }

  it("lists no pending call that is already answered", () => {
    const done = PENDING_OTHER_GROUPS.filter((key) => {
      const [method = "", path = ""] = key.split(" ");
      return answered({ method, path });
    });
    expect(done).toEqual([]);
  });
});

describe("the call scanner", () => {
  it("reads literal, tagged, concatenated and bound paths with their methods", () => {
    const src = [
      "async sendClientRequest(path, options) { return this.sendServerRequest(path, { ...options }); }",
      'a() { return this.sendClientRequest("/teams?user_id=me", {}, s); }',
      'b() { return this.sendServerRequest(u.urlString`/users/${id}`, { method: "PATCH" }, s); }',
      'c() { return this.sendClientRequest(u.urlString`/x/${i}/accept` + "?" + q, { method: "POST" }, s); }',
      "d() { const path = u.urlString`/payments/products/${a}/${b}`;",
      '  return (t ? this.sendClientRequest : this.sendServerRequest).bind(this)(`${path}${q ? `?${q}` : ""}`, {}, s); }',
      'e() { return this.sendAdminRequest(`/internal/metrics${qs ? `?${qs}` : ""}`, { method: "GET" }); }',
      'f(type) { return this.sendClientRequestAndCatchKnownError(`/${type}-api-keys/check`, { method: "POST" }); }',
      'g() { return fetch(`${base}/api/latest/internal/feedback`, { method: "POST" }); }',
    ].join("\n");
    expect(callsInSource(src, "f").map((c) => `${c.method} ${c.path}`)).toEqual([
      "GET /api/v1/teams",
      "PATCH /api/v1/users/{p}",
      "POST /api/v1/x/{p}/accept",
      "GET /api/v1/payments/products/{p}/{p}",
      "GET /api/v1/internal/metrics",
      "POST /api/v1/user-api-keys/check",
      "POST /api/v1/team-api-keys/check",
      "POST /api/latest/internal/feedback",
    ]);
  });

  it("matches {param} route segments and nothing else", () => {
    expect(routeMatches("/api/v1/users/{user_id}", "/api/v1/users/me")).toBe(true);
    expect(routeMatches("/api/v1/users/{user_id}", "/api/v1/users/{p}")).toBe(true);
    expect(routeMatches("/api/v1/team-invitations/accept", "/api/v1/team-invitations/{p}")).toBe(false);
    expect(routeMatches("/api/v1/users", "/api/v1/users/me")).toBe(false);
  });
});
