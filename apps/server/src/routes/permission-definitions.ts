// Routes of WIRE.md (filled in by the project-administration issue).
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/bind.ts";

export function registerPermissionDefinitionRoutes(_app: Hono<AppEnv>, _deps: Deps): void {}
