// Config as code (Stack's `/internal/config`): the project's rendered config in Stack's format, the overrides per
// level (project < branch < environment), resetting keys of an override, and where a pushed config came from.
// Configs travel as JSON strings, as in Stack. Keys Gatehouse does not act on are kept and listed in
// `unsupported_keys`.
import { z } from "zod";
import { defineRoute } from "../route.ts";

const ADMIN_ACCESS = ["admin"] as const;
const TAG = "Config";

export const CONFIG_LEVELS = ["project", "branch", "environment"] as const;
export type ConfigLevel = (typeof CONFIG_LEVELS)[number];

/** Where the branch config was pushed from (Stack's `branchConfigSourceSchema`). */
export const configSourceSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("pushed-from-github"),
    owner: z.string(),
    repo: z.string(),
    branch: z.string(),
    commit_hash: z.string(),
    config_file_path: z.string(),
    workflow_path: z.string().optional(),
  }),
  z.strictObject({ type: z.literal("pushed-from-unknown") }),
  z.strictObject({ type: z.literal("unlinked") }),
]);
export type ConfigSource = z.output<typeof configSourceSchema>;

/** A config as a JSON string of an object (1 MB at most). */
const configString = z.string().max(1_000_000);
const levelParams = z.strictObject({ level: z.enum(CONFIG_LEVELS) });
const unsupportedKeys = z.array(z.string()).optional();
const writeAnswer = z.object({ success: z.literal(true), unsupported_keys: unsupportedKeys });

export const getConfigRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/config",
  access: ADMIN_ACCESS,
  summary: "The project's rendered config in Stack Auth's format",
  tag: TAG,
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ config_string: z.string(), unsupported_keys: unsupportedKeys }),
  },
});

export const getConfigOverrideRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/config/override/{level}",
  access: ADMIN_ACCESS,
  summary: "The config override stored at a level",
  tag: TAG,
  params: levelParams,
  response: { status: 200, kind: "json", schema: z.object({ config_string: z.string() }) },
});

export const replaceConfigOverrideRoute = defineRoute({
  method: "PUT",
  path: "/api/v1/internal/config/override/{level}",
  access: ADMIN_ACCESS,
  summary: "Replaces the config override of a level (the branch level needs the push's `source`)",
  tag: TAG,
  params: levelParams,
  body: z.strictObject({ config_string: configString, source: configSourceSchema.optional() }),
  response: { status: 200, kind: "json", schema: writeAnswer },
});

export const updateConfigOverrideRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/internal/config/override/{level}",
  access: ADMIN_ACCESS,
  summary: "Merges keys into the config override of a level (a key replaces itself and every key below it)",
  tag: TAG,
  params: levelParams,
  body: z.strictObject({ config_override_string: configString }),
  response: { status: 200, kind: "json", schema: writeAnswer },
});

export const resetConfigOverrideKeysRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/config/override/{level}/reset-keys",
  access: ADMIN_ACCESS,
  summary: "Removes keys (and the keys below them) from the branch or environment override",
  tag: TAG,
  params: z.strictObject({ level: z.enum(["branch", "environment"]) }),
  body: z.strictObject({ keys: z.array(z.string().max(1000)).max(1000) }),
  response: { status: 200, kind: "json", schema: writeAnswer },
});

export const getConfigSourceRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/config/source",
  access: ADMIN_ACCESS,
  summary: "Where the pushed (branch) config came from; `unlinked` when it may be edited directly",
  tag: TAG,
  response: { status: 200, kind: "json", schema: z.object({ source: configSourceSchema }) },
});

export const unlinkConfigSourceRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/internal/config/source",
  access: ADMIN_ACCESS,
  summary: "Marks the pushed config as unlinked, so the dashboard may edit it",
  tag: TAG,
  response: { status: 200, kind: "json", schema: z.object({ success: z.literal(true) }) },
});

export const configRoutes = [
  getConfigRoute,
  getConfigOverrideRoute,
  replaceConfigOverrideRoute,
  updateConfigOverrideRoute,
  resetConfigOverrideKeysRoute,
  getConfigSourceRoute,
  unlinkConfigSourceRoute,
] as const;
