// The dashboard under /dashboard: the redirect, hashed assets with a long cache, index.html for the app's own
// routes, HEAD, the page's security headers, refused path traversal, and the 503 page of an unbuilt dashboard.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../testing/test-server.ts";
import { DASHBOARD_CSP } from "./dashboard.ts";

const INDEX =
  '<!doctype html><html><head><script type="module" src="/dashboard/assets/index-Ab12.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = "console.log('dashboard');";
const STYLE = "body{margin:0}";
const SECRET = "outside the dashboard folder";

let folder: string;
let server: TestServer;
let unbuilt: TestServer;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "gatehouse-dashboard-"));
  const dist = join(folder, "dist");
  mkdirSync(join(dist, "assets"), { recursive: true });
  writeFileSync(join(dist, "index.html"), INDEX);
  writeFileSync(join(dist, "assets", "index-Ab12.js"), SCRIPT);
  writeFileSync(join(dist, "assets", "index-Cd34.css"), STYLE);
  writeFileSync(join(dist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  // Files beside the build that no path may reach.
  writeFileSync(join(folder, "secret.txt"), SECRET);
  writeFileSync(join(folder, "index.html"), SECRET);
  mkdirSync(join(folder, "empty"));
  server = await createTestServer({ dashboardDir: dist });
  unbuilt = await createTestServer({ dashboardDir: join(folder, "empty") });
});
afterAll(async () => {
  await server.close();
  await unbuilt.close();
  rmSync(folder, { recursive: true, force: true });
});

async function expectIndex(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.headers.get("cache-control")).toBe("no-cache");
  expect(res.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(await res.text()).toBe(INDEX);
}

async function expectNotFound(res: Response) {
  expect(res.status).toBe(404);
  const text = await res.text();
  expect(text).toBe("Not found.");
  expect(text).not.toContain(SECRET);
}

describe("GET /dashboard", () => {
  it("redirects to /dashboard/, keeping the query", async () => {
    const res = await server.request("/dashboard");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard/");
    const withQuery = await server.request("/dashboard?after=sign-in");
    expect(withQuery.headers.get("location")).toBe("/dashboard/?after=sign-in");
  });

  it("answers index.html for the root and every route of the app, never cached", async () => {
    for (const path of [
      "/dashboard/",
      "/dashboard/index.html",
      "/dashboard/projects/abc/users",
      "/dashboard/handler/sign-in?after_auth_return_to=%2Fdashboard%2F",
      "/dashboard/missing.html",
    ]) {
      await expectIndex(await server.request(path));
    }
  });

  it("sends the CSP the dashboard needs: own scripts and API, inline styles, images, own forms, no framing", () => {
    expect(DASHBOARD_CSP).toBe(
      "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  });

  it("serves hashed assets with their content type and an immutable year-long cache", async () => {
    const script = await server.request("/dashboard/assets/index-Ab12.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(script.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await script.text()).toBe(SCRIPT);
    const style = await server.request("/dashboard/assets/index-Cd34.css");
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await style.text()).toBe(STYLE);
  });

  it("serves a file at the top of the build (Vite's public folder) without a long cache", async () => {
    const res = await server.request("/dashboard/favicon.svg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("cache-control")).toBe("no-cache");
  });

  it("answers 404, not the page, for a missing asset", async () => {
    await expectNotFound(await server.request("/dashboard/assets/index-Zz99.js"));
    await expectNotFound(await server.request("/dashboard/assets"));
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const page = await server.request("/dashboard/projects", { method: "HEAD" });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
    expect(await page.text()).toBe("");
    const asset = await server.request("/dashboard/assets/index-Ab12.js", { method: "HEAD" });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await asset.text()).toBe("");
  });

  it("never serves a file outside the build folder", async () => {
    for (const path of [
      "/dashboard/assets/../../secret.txt",
      "/dashboard/assets/%2e%2e/%2e%2e/secret.txt",
      "/dashboard/assets/..%2f..%2fsecret.txt",
      "/dashboard/assets/%2e%2e%2f%2e%2e%2fsecret.txt",
      "/dashboard/..%2fsecret.txt",
      "/dashboard/..%5csecret.txt",
      `/dashboard/assets/%2f${encodeURIComponent(join(folder, "secret.txt")).slice(3)}`,
      "/dashboard//etc/passwd",
      "/dashboard/assets//etc/passwd",
      "/dashboard/assets/%00",
      "/dashboard/assets/%E0%A4%A",
    ]) {
      const res = await server.request(path);
      // The URL parser turns some of these into /secret.txt, which is no route at all: 404 either way.
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(await res.text()).not.toContain(SECRET);
    }
  });

  it("does not answer other methods", async () => {
    const res = await server.request("/dashboard/projects", { method: "POST" });
    expect(res.status).toBe(404);
  });
});

describe("an unbuilt dashboard", () => {
  it("answers 503 with a page that says how to build it, for pages and assets alike", async () => {
    for (const path of ["/dashboard/", "/dashboard/projects", "/dashboard/assets/index-Ab12.js"]) {
      const res = await unbuilt.request(path);
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
      const text = await res.text();
      expect(text).toContain("not built");
      expect(text).toContain("npm run build:dashboard");
      expect(text).toContain("npm start");
    }
  });
});
