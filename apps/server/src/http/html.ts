// Every HTML answer the server sends (API reference, development provider page, dashboard) goes out through here,
// so each one carries a content security policy that forbids framing and <base>, and sends no Referer.
import { createHash } from "node:crypto";
import type { ReactElement } from "react";

/**
 * Directives no page may loosen: never framed by another site (clickjacking of a sign-in or admin page), and no
 * <base> element that could re-point relative links and form targets after an injection.
 */
const ALWAYS = { "frame-ancestors": "'none'", "base-uri": "'none'" } as const;

/**
 * Nothing on these pages needs the Referer, and their URLs can carry an OAuth state or a project's ids: other sites
 * never learn them. (The server does not rely on the Origin header of same-origin requests, which this also blanks.)
 */
export const REFERRER_POLICY = "no-referrer";

/**
 * A policy from a page's own directives plus ALWAYS. `default-src` is required so no page forgets to close what it
 * does not list; `form-action` defaults to 'none' (pages with forms say where they post, and where that redirects).
 */
export function contentSecurityPolicy(
  directives: { "default-src": string } & Record<string, string>,
): string {
  // The page's directives in its own order, then the fixed ones, which override any it tried to set.
  const own = Object.entries(directives).filter(([name]) => !(name in ALWAYS));
  if (!("form-action" in directives)) own.push(["form-action", "'none'"]);
  return [...own, ...Object.entries(ALWAYS)].map(([name, value]) => `${name} ${value}`).join("; ");
}

/**
 * The CSP sources allowing exactly the <style> elements of a rendered page, by hash: the page's own styles apply,
 * while a style injected some day would not.
 */
export function inlineStyleSources(html: string): string {
  const hashes = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    ([, css]) =>
      `'sha256-${createHash("sha256")
        .update(css ?? "")
        .digest("base64")}'`,
  );
  return [...new Set(hashes)].join(" ") || "'none'";
}

export function htmlResponse(
  body: string | Uint8Array<ArrayBuffer>,
  options: { csp: string; status?: number; headers?: Record<string, string> },
): Response {
  return new Response(body, {
    status: options.status ?? 200,
    headers: {
      ...options.headers,
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": options.csp,
      "referrer-policy": REFERRER_POLICY,
    },
  });
}

/**
 * A page rendered with React as a whole HTML document. react-dom/server loads with the first page asked for, not at
 * start: most requests are JSON, and a server that never shows a page never needs it.
 */
export async function renderDocument(page: ReactElement): Promise<string> {
  const { renderToStaticMarkup } = await import("react-dom/server");
  return `<!doctype html>${renderToStaticMarkup(page)}`;
}
