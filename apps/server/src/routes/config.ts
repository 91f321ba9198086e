// Config-as-code routes (Stack's `/internal/config`, admin only): thin handlers over services/config-overrides.ts.
import {
  getConfigOverrideRoute,
  getConfigRoute,
  getConfigSourceRoute,
  replaceConfigOverrideRoute,
  resetConfigOverrideKeysRoute,
  unlinkConfigSourceRoute,
  updateConfigOverrideRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { projectOf } from "./auth.ts";

export function registerConfigRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const { configOverrides: config } = deps;
  bindRoute(app, deps, getConfigRoute, async (_input, { caller }) => config.render(projectOf(caller)));
  bindRoute(app, deps, getConfigOverrideRoute, async ({ params }, { caller }) =>
    config.getOverride(projectOf(caller), params.level),
  );
  bindRoute(app, deps, replaceConfigOverrideRoute, async ({ params, body }, { caller }) =>
    config.replace(projectOf(caller), params.level, body.config_string, body.source),
  );
  bindRoute(app, deps, updateConfigOverrideRoute, async ({ params, body }, { caller }) =>
    config.update(projectOf(caller), params.level, body.config_override_string),
  );
  bindRoute(app, deps, resetConfigOverrideKeysRoute, async ({ params, body }, { caller }) =>
    config.resetKeys(projectOf(caller), params.level, body.keys),
  );
  bindRoute(app, deps, getConfigSourceRoute, async (_input, { caller }) => config.source(projectOf(caller)));
  bindRoute(app, deps, unlinkConfigSourceRoute, async (_input, { caller }) =>
    config.unlink(projectOf(caller)),
  );
}
