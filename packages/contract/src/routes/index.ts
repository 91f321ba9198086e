// The route table: every route of the wire, in the order the API reference lists them.
import { apiRootRoute, checkFeatureSupportRoute, docsRoute, healthRoute, openApiRoute } from "./meta.ts";
import { anonymousJwksRoute, getCurrentProjectRoute, jwksRoute, restrictedJwksRoute } from "./projects.ts";

export * from "./meta.ts";
export * from "./projects.ts";

export const allRoutes = [
  healthRoute,
  apiRootRoute,
  checkFeatureSupportRoute,
  openApiRoute,
  docsRoute,
  getCurrentProjectRoute,
  jwksRoute,
  anonymousJwksRoute,
  restrictedJwksRoute,
] as const;
