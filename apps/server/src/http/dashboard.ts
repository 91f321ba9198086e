// Serves the admin dashboard's static build (apps/dashboard/dist, built with base "/dashboard/") under /dashboard:
// hashed assets with a long cache, and index.html for every other path so the app's own routes load on refresh.
import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import type { Hono } from "hono";
import type { AppEnv } from "./bind.ts";
import { contentSecurityPolicy, htmlResponse } from "./html.ts";
import { textResponse } from "./respond.ts";

/**
 * The dashboard's HTML may load only its own scripts and styles (inline styles: React sets style attributes),
 * talk only to this server, submit forms only to itself, and never be framed (clickjacking of an admin UI).
 */
export const DASHBOARD_CSP = contentSecurityPolicy({
  "default-src": "'self'",
  "img-src": "'self' data: https:",
  "style-src": "'self' 'unsafe-inline'",
  "connect-src": "'self'",
  "form-action": "'self'",
});

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
};

const contentTypeOf = (path: string) =>
  CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body>
<h1>The Gatehouse dashboard is not built</h1>
<p>Run <code>npm run build:dashboard</code> (or <code>npm start</code>, which builds it), then reload this page.</p>
</body>
</html>
`;

function dashboardHtml(status: number, body: string | Uint8Array<ArrayBuffer>): Response {
  return htmlResponse(body, { status, csp: DASHBOARD_CSP, headers: { "cache-control": "no-cache" } });
}

/**
 * The segments of a path below /dashboard/, decoded, or null when one could step outside the folder. The URL parser
 * already removed `..` and `%2e%2e` segments; what remains to refuse is what decoding creates: `%2f`, `%5c`, NUL,
 * and dot segments spelled with them. Empty segments (`a//b`) are refused too: no built file has one.
 */
function safeSegments(rawPath: string): string[] | null {
  const segments: string[] = [];
  for (const raw of rawPath.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === "" || segment === "." || segment === "..") return null;
    if (/[/\\\0:]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}

/** A regular file inside `root`, or null. The resolved path is checked to stay below root, whatever came in. */
async function readInside(root: string, segments: string[]): Promise<Uint8Array<ArrayBuffer> | null> {
  const path = resolve(root, ...segments);
  if (!path.startsWith(root + sep)) return null;
  try {
    if (!(await stat(path)).isFile()) return null;
    return await readFile(path);
  } catch {
    return null;
  }
}

/** Registers GET (and so HEAD) /dashboard and /dashboard/* serving the build in `dir`. */
export function registerDashboard(app: Hono<AppEnv>, dir: string): void {
  const root = resolve(dir);
  const indexPath = join(root, "index.html");

  app.get("/dashboard", (c) => {
    const query = new URL(c.req.url).search;
    return new Response(null, { status: 302, headers: { location: `/dashboard/${query}` } });
  });

  app.get("/dashboard/*", async (c) => {
    // The raw path, not Hono's decoded one: segments are decoded one by one so `%2f` cannot join two of them.
    const rawPath = new URL(c.req.url).pathname.slice("/dashboard/".length);
    // Read at every request, so a rebuild while the server runs is picked up (the page itself is never cached).
    const index = await readFile(indexPath).catch(() => null);
    if (!index) return dashboardHtml(503, NOT_BUILT_PAGE);
    if (rawPath === "" || rawPath === "index.html") return dashboardHtml(200, index);

    const segments = safeSegments(rawPath);
    if (!segments) return textResponse(404, "Not found.");
    if (segments[0] === "assets") {
      const file = await readInside(root, segments);
      if (!file) return textResponse(404, "Not found.");
      // Vite names assets by their content hash: a changed file gets a new name, so this one never changes.
      return new Response(file, {
        status: 200,
        headers: {
          "content-type": contentTypeOf(rawPath),
          "cache-control": "public, max-age=31536000, immutable",
        },
      });
    }
    // A file at the top of the build (Vite copies public/ there: favicon, robots.txt) is served as it is, not
    // cached, since its name carries no hash; any other path is one of the app's own routes.
    if (segments.length === 1 && extname(segments[0] as string) !== "") {
      const file = await readInside(root, segments);
      if (file) {
        const type = contentTypeOf(segments[0] as string);
        if (type.startsWith("text/html")) return dashboardHtml(200, file);
        return new Response(file, {
          status: 200,
          headers: { "content-type": type, "cache-control": "no-cache" },
        });
      }
    }
    return dashboardHtml(200, index);
  });
}
