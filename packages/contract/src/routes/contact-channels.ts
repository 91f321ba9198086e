// Routes of WIRE.md (filled in by the users-and-teams issue).
import type { RouteDefinition } from "../route.ts";

export const contactChannelRoutes = [] as const satisfies readonly RouteDefinition[];
