/** @jsxRuntime automatic @jsxImportSource react */
// The API reference page (/api/v1/docs): Scalar's API reference over /api/v1/openapi.json, its script served by this
// server (server-assets.ts), never a CDN: an instance may have no internet and its pages depend on no third party.
import { readFileSync } from "node:fs";
import { contentSecurityPolicy, renderDocument } from "../http/html.ts";
import { API_REFERENCE_INIT_PATH, apiReferenceScriptPath } from "../http/server-assets.ts";
import { resources } from "../resources.ts";

/**
 * Scalar's default theme with its greys and method colours darkened (lightened in dark mode) where they fall short of
 * WCAG AA contrast (4.5:1) on its backgrounds; and the authentication box's title kept whole beside its long picker.
 */
const CONTRAST_CSS = `
.light-mode {
  --scalar-color-2: #5e5e5e; --scalar-color-3: #666666; --scalar-color-blue: #00619e;
  --scalar-color-green: #00703f; --scalar-color-orange: #a14400; --scalar-color-red: #b3261e;
  --scalar-color-purple: #5c2bb5; --scalar-color-yellow: #7a5a00;
}
.dark-mode { --scalar-color-3: #9a9a9a; --scalar-color-red: #ff6b62; }
.scalar-app button.group:has(> h2):has(+ div button[id^="headlessui-popover-button"]) { flex: none; }
`;

/**
 * Scalar's settings. Everything that would reach another site is off: its fonts (loaded from its CDN otherwise),
 * telemetry, its agent chat and MCP integration. Keys typed into try-it stay in the page: never kept in the browser's
 * storage (persistAuth off), where they would outlive the tab.
 */
export function apiReferenceConfig(openApiUrl: string) {
  return {
    url: openApiUrl,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    persistAuth: false,
    showDeveloperTools: "never",
    documentDownloadType: "json",
    hideClientButton: true,
    customCss: CONTRAST_CSS,
    // Client access preselected: with a project id and its publishable key, most endpoints can be tried.
    authentication: { preferredSecurityScheme: [["projectId", "publishableClientKey"]] },
  };
}

/** The script that starts the reference (a file beside this one, so the page's policy allows no inline script). */
export const apiReferenceInitScript = () => readFileSync(resources.apiReferenceInit, "utf8");

/** JSON in a <script type="application/json">: `<` escaped so no `</script>` in it can end the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

function DocsPage({ openApiUrl }: { openApiUrl: string }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Gatehouse API reference</title>
        <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
      </head>
      <body>
        <noscript>
          The API reference needs JavaScript. The OpenAPI document is at{" "}
          <a href="openapi.json">openapi.json</a>.
        </noscript>
        {/* Not "api-reference": the bundle mounts itself, without our settings, on an element of that id. */}
        <div id="reference" />
        <script
          id="reference-config"
          type="application/json"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON data, not markup; escaped by scriptJson.
          dangerouslySetInnerHTML={{ __html: scriptJson(apiReferenceConfig(openApiUrl)) }}
        />
        <script src={apiReferenceScriptPath()} />
        <script src={API_REFERENCE_INIT_PATH} />
      </body>
    </html>
  );
}

/**
 * The page and its policy. Scripts only from this server (the renderer and its start): no inline script, no eval.
 * Requests only to this server (the document and try-it). Inline styles are allowed: the renderer (Vue) sets style
 * attributes and adds <style> elements, some without the nonce it offers. A style cannot run code, and the page
 * shows nothing but the server's own document. Images from here or inline (icons); no forms; never framed.
 */
export async function renderDocsPage(openApiUrl: string): Promise<{ html: string; csp: string }> {
  return {
    html: await renderDocument(<DocsPage openApiUrl={openApiUrl} />),
    csp: contentSecurityPolicy({
      "default-src": "'none'",
      "script-src": "'self'",
      "style-src": "'self' 'unsafe-inline'",
      "connect-src": "'self'",
      "img-src": "'self' data:",
      "font-src": "'self' data:",
    }),
  };
}
