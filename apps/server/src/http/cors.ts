// CORS for browsers calling the API directly (WIRE.md §1.4). Credentials are never allowed: the SDK sends tokens
// in headers, so any origin may call, and no cookie of ours rides along.
import {
  bothSpellings,
  componentVersionsLatestRoute,
  HEADER_PREFIXES,
  REQUEST_HEADER_SUFFIXES,
  sendFeedbackRoute,
} from "@gatehouse/contract";

const allowedHeaders = [
  ...REQUEST_HEADER_SUFFIXES.flatMap((suffix) => bothSpellings(suffix)),
  "content-type",
  "authorization",
  "baggage",
  "sentry-trace",
  "ngrok-skip-browser-warning",
  "x-vercel-protection-bypass",
].join(", ");

const exposedHeaders = [
  "content-type",
  "retry-after",
  ...HEADER_PREFIXES.flatMap((prefix) =>
    ["actual-status", "known-error", "request-id"].map((s) => prefix + s),
  ),
].join(", ");

export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": exposedHeaders,
};

export const PREFLIGHT_HEADERS: Record<string, string> = {
  ...CORS_HEADERS,
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers": allowedHeaders,
  "access-control-max-age": "86400",
};

/** The API and health paths carry CORS headers; other paths (the dashboard, later) do not. */
export function isCorsPath(path: string): boolean {
  return (
    path === "/health" ||
    path === "/api/v1" ||
    path.startsWith("/api/v1/") ||
    // Stack's dev tool asks here from the app's page (its backend's name for the current API version).
    path === componentVersionsLatestRoute.path ||
    // The dev tool's feedback form and AI assistant post there too (answered as not available, but readable).
    path === sendFeedbackRoute.path ||
    path.startsWith("/api/latest/ai/query/")
  );
}
