// Routes of WIRE.md (filled in by the project-administration issue).
import type { RouteDefinition } from "../route.ts";

export const apiKeyRoutes = [] as const satisfies readonly RouteDefinition[];
