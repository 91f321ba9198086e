// Every HTML answer the server sends carries a content security policy that forbids framing and <base>, allows only
// what the page needs, and a Referrer-Policy: the page at /, the API reference, the development provider's page, the
// dashboard and its "not built" page. Also the policy builder's rules, which no page can loosen.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pkcePair } from "../testing/oauth-client.ts";
import { accessHeaders, createTestServer, type TestServer } from "../testing/test-server.ts";
import { contentSecurityPolicy, inlineStyleSources } from "./html.ts";

let folder: string;
let server: TestServer;
let unbuilt: TestServer;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "gatehouse-html-"));
  writeFileSync(join(folder, "index.html"), "<!doctype html><title>Dashboard</title>");
  server = await createTestServer({ dashboardDir: folder, developmentOAuth: ["*"] });
  unbuilt = await createTestServer({ dashboardDir: join(folder, "missing") });
});
afterAll(async () => {
  await server?.close();
  await unbuilt?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The development provider's page of a fresh flow, as the browser is sent to it. */
async function developmentPage(): Promise<string> {
  const { keys } = await server.createProject({
    config: {
      oauth_providers: [{ id: "github", type: "shared", enabled: true }],
      domains: [{ domain: "https://app.example.com", handler_path: "/handler" }],
    },
  });
  const query = new URLSearchParams({
    client_id: keys.projectId,
    client_secret: keys.pck,
    redirect_uri: "https://app.example.com/handler/oauth-callback",
    scope: "legacy",
    state: "s",
    grant_type: "authorization_code",
    code_challenge: pkcePair().challenge,
    code_challenge_method: "S256",
    response_type: "code",
    stack_response_mode: "json",
  });
  const res = await server.request(`/api/v1/auth/oauth/authorize/github?${query}`, {
    headers: accessHeaders("client", keys),
  });
  const { location } = (await res.json()) as { location: string };
  const url = new URL(location);
  return url.pathname + url.search;
}

/** The directives of a policy, by name. */
const directives = (csp: string) =>
  Object.fromEntries(csp.split("; ").map((d) => [d.split(" ")[0], d.slice(d.indexOf(" ") + 1)]));

describe("HTML answers", () => {
  it("each carry a CSP without framing or <base>, closed by default, and no referrer", async () => {
    const answers = {
      landing: await server.request("/"),
      docs: await server.request("/api/v1/docs"),
      development: await server.request(await developmentPage()),
      dashboard: await server.request("/dashboard/"),
      dashboardRoute: await server.request("/dashboard/projects/x"),
      notBuilt: await unbuilt.request("/dashboard/"),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.headers.get("content-type"), name).toBe("text/html; charset=utf-8");
      const csp = directives(res.headers.get("content-security-policy") ?? "");
      expect(csp["frame-ancestors"], name).toBe("'none'");
      expect(csp["base-uri"], name).toBe("'none'");
      expect(["'none'", "'self'"], name).toContain(csp["default-src"]);
      expect(csp["form-action"], name).toBeDefined();
      expect(res.headers.get("referrer-policy"), name).toBe("no-referrer");
    }
    expect(answers.notBuilt.status).toBe(503);
  });

  it("let the API reference run only this server's scripts and talk only to this server", async () => {
    const res = await server.request("/api/v1/docs");
    expect(directives(res.headers.get("content-security-policy") ?? "")).toEqual({
      "default-src": "'none'",
      "script-src": "'self'",
      "style-src": "'self' 'unsafe-inline'",
      "connect-src": "'self'",
      "img-src": "'self' data:",
      "font-src": "'self' data:",
      "form-action": "'none'",
      "frame-ancestors": "'none'",
      "base-uri": "'none'",
    });
  });

  it("let the page at / apply its own style and show its icon, and nothing else", async () => {
    const res = await server.request("/");
    const html = await res.text();
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    const hash = createHash("sha256").update(style).digest("base64");
    expect(directives(res.headers.get("content-security-policy") ?? "")).toEqual({
      "default-src": "'none'",
      "style-src": `'sha256-${hash}'`,
      "img-src": "'self'",
      "form-action": "'none'",
      "frame-ancestors": "'none'",
      "base-uri": "'none'",
    });
  });
});

describe("contentSecurityPolicy", () => {
  it("always forbids framing and <base>, whatever a page asks, and closes forms unless told", () => {
    expect(
      contentSecurityPolicy({ "default-src": "'self'", "frame-ancestors": "*", "base-uri": "'self'" }),
    ).toBe("default-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'");
    expect(contentSecurityPolicy({ "default-src": "'none'", "form-action": "'self'" })).toBe(
      "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  });

  it("hashes exactly the page's style elements", () => {
    const css = "body { margin: 0 }";
    const hash = `'sha256-${createHash("sha256").update(css).digest("base64")}'`;
    expect(inlineStyleSources(`<style>${css}</style><p>x</p><style>${css}</style>`)).toBe(hash);
    expect(inlineStyleSources("<p>no style</p>")).toBe("'none'");
  });
});
