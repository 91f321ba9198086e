// What Stack's SDK asks of the server on a page load, besides the user: the backend URLs to fail over between, the
// latest versions of the handler pages (its dev tool), and whether the SDK's version is current.
import { z } from "zod";
import { defineRoute } from "../route.ts";

export const backendUrlsSchema = z.object({ urls: z.array(z.string()).min(1) });

export const backendUrlsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/backend-urls",
  access: "none",
  summary: "The API base URLs Stack's SDK sends its requests to, in order of preference (this server's own)",
  tag: "Meta",
  response: { status: 200, kind: "json", schema: backendUrlsSchema },
});

/** Latest version of each page Stack's handler can render, with a changelog per version (its dev tool compares). */
export const componentVersionsSchema = z.object({
  versions: z.record(
    z.string(),
    z.object({ version: z.number().int(), changelogs: z.record(z.string(), z.string()) }),
  ),
});

const componentVersions = {
  method: "GET",
  access: "none",
  summary: "The latest version of each handler page, for Stack's dev tool",
  tag: "Meta",
  response: { status: 200, kind: "json", schema: componentVersionsSchema },
} as const;

export const componentVersionsRoute = defineRoute({
  ...componentVersions,
  path: "/api/v1/internal/component-versions",
});

/** Stack's dev tool asks at `/api/latest/…`, its backend's own name for the current API version. */
export const componentVersionsLatestRoute = defineRoute({
  ...componentVersions,
  path: "/api/latest/internal/component-versions",
});

export const checkVersionSchema = z.union([
  z.object({ upToDate: z.literal(true) }),
  z.object({ upToDate: z.literal(false), error: z.string(), severe: z.boolean() }),
]);

export const checkVersionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/check-version",
  access: "none",
  summary: "Whether a Stack SDK version works with this server, with a warning when it should be updated",
  tag: "Meta",
  body: z.strictObject({ clientVersion: z.string().max(256) }),
  response: { status: 200, kind: "json", schema: checkVersionSchema },
});

export const pageLoadRoutes = [
  backendUrlsRoute,
  componentVersionsRoute,
  componentVersionsLatestRoute,
  checkVersionRoute,
] as const;
