// Files the server's own pages load, served by the server itself: the favicon (every HTML page, the dashboard's
// too), and the API reference's renderer, Scalar's browser bundle from its npm package, with the script starting it.
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { Hono } from "hono";
import { resources } from "../resources.ts";
import type { AppEnv } from "./bind.ts";

/** Its version is in the bundle's URL: a new version is a new URL, so the file can be cached for good. */
export const apiReferenceScriptPath = () => `/static/api-reference-${resources.apiReference().version}.js`;
export const API_REFERENCE_INIT_PATH = "/static/api-reference-init.js";

/** The Gatehouse mark: a gate on a blue tile, the dashboard's icon too. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>Gatehouse</title>' +
  '<rect width="32" height="32" rx="7" fill="#2f54eb"/>' +
  '<path d="M8 26V12l8-6 8 6v14h-5v-7a3 3 0 0 0-6 0v7z" fill="#fff"/></svg>';

const JAVASCRIPT = "text/javascript; charset=utf-8";

/**
 * Registers GET (and HEAD) /favicon.svg, /favicon.ico and the API reference's two scripts. `initScript` is the
 * reference's start (routes/docs-page.tsx makes it).
 */
export function registerServerAssets(app: Hono<AppEnv>, initScript: string): void {
  // The bundle (4 MB) is read and compressed at its first request, then kept: most servers never serve it.
  let bundle: Promise<{ plain: Buffer; gzipped: Buffer }> | undefined;
  const loadBundle = () => {
    bundle ??= readFile(resources.apiReference().file).then(async (plain) => ({
      plain,
      gzipped: await promisify(gzip)(plain),
    }));
    return bundle;
  };

  const icon = () =>
    new Response(FAVICON_SVG, {
      headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" },
    });
  app.get("/favicon.svg", icon);
  // Asked for by browsers on any page that names no icon (the text answers, other pages): the same SVG, so none of
  // them logs a 404.
  app.get("/favicon.ico", icon);

  app.get(apiReferenceScriptPath(), async (c) => {
    const { plain, gzipped } = await loadBundle();
    const compressed = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
    const body = compressed ? gzipped : plain;
    // A view of the kept buffer (file and zlib buffers are plain ArrayBuffers), not a copy of 4 MB per request.
    return new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), {
      headers: {
        "content-type": JAVASCRIPT,
        "cache-control": "public, max-age=31536000, immutable",
        vary: "accept-encoding",
        ...(compressed ? { "content-encoding": "gzip" } : {}),
      },
    });
  });

  app.get(
    API_REFERENCE_INIT_PATH,
    () => new Response(initScript, { headers: { "content-type": JAVASCRIPT, "cache-control": "no-cache" } }),
  );
}
