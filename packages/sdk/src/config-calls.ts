// Config as code on the admin project (Stack's AdminProject config methods): the rendered config, the environment
// override (`updateConfig`), the pushed branch config and its source, and the raw overrides per level.
import { jsonBody, patch } from "./context.ts";
import type { RequestOptions } from "./transport.ts";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;
type Json = Record<string, unknown>;
export type ConfigOverrideLevel = "branch" | "environment";

/** Where the pushed config came from, in the SDK's camelCase (Stack's PushedConfigSource). */
export type PushedConfigSource =
  | {
      type: "pushed-from-github";
      owner: string;
      repo: string;
      branch: string;
      commitHash: string;
      configFilePath: string;
      workflowPath?: string;
    }
  | { type: "pushed-from-unknown" }
  | { type: "unlinked" };

type SourceJson = {
  type: string;
  commit_hash?: string;
  config_file_path?: string;
  workflow_path?: string;
} & Json;

function sourceToWire(source: PushedConfigSource): Json {
  if (source.type !== "pushed-from-github") return { type: source.type };
  return {
    type: source.type,
    owner: source.owner,
    repo: source.repo,
    branch: source.branch,
    commit_hash: source.commitHash,
    config_file_path: source.configFilePath,
    ...(source.workflowPath !== undefined && { workflow_path: source.workflowPath }),
  };
}

function sourceFromWire(json: SourceJson): PushedConfigSource {
  if (json.type !== "pushed-from-github") return { type: json.type } as PushedConfigSource;
  return {
    type: "pushed-from-github",
    owner: json.owner as string,
    repo: json.repo as string,
    branch: json.branch as string,
    commitHash: json.commit_hash as string,
    configFilePath: json.config_file_path as string,
    ...(json.workflow_path !== undefined && { workflowPath: json.workflow_path }),
  };
}

/**
 * Who hears an admin app's config writes: every write through any of its project objects (the config calls, a
 * project update) tells them, as Stack's SDK refreshes the config its `useConfig` hook shows.
 */
export function createConfigChanges() {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify(): void {
      for (const listener of [...listeners]) listener();
    },
  };
}

export type ConfigChanges = ReturnType<typeof createConfigChanges>;

/** The config calls of one admin app's project; `changes` is the app's. */
export function configCalls(request: Request, changes: ConfigChanges) {
  const override = (level: string) => `/internal/config/override/${level}`;
  const changed = changes.notify;
  const put = async (level: string, config: Json, source?: Json) => {
    await request(override(level), {
      method: "PUT",
      body: { config_string: JSON.stringify(config), ...(source && { source }) },
    });
    changed();
  };
  const update = async (level: string, config: Json) => {
    await request(override(level), patch({ config_override_string: JSON.stringify(config) }));
    changed();
  };
  const wireSource = async () => (await request<{ source: SourceJson }>("/internal/config/source")).source;

  return {
    /** The rendered config (Stack's CompleteConfig shape; keys Gatehouse does not act on are kept as stored). */
    async getConfig(): Promise<Json> {
      return JSON.parse((await request<{ config_string: string }>("/internal/config")).config_string) as Json;
    },
    /** Merges into the environment override, which wins over the pushed config. */
    async updateConfig(config: Json): Promise<void> {
      await update("environment", config);
    },
    /** Replaces the pushed (branch) config, recording where it came from. */
    async pushConfig(config: Json, options: { source: PushedConfigSource }): Promise<void> {
      await put("branch", config, sourceToWire(options.source));
    },
    async updatePushedConfig(config: Json): Promise<void> {
      await update("branch", config);
    },
    async getPushedConfigSource(): Promise<PushedConfigSource> {
      return sourceFromWire(await wireSource());
    },
    async unlinkPushedConfigSource(): Promise<void> {
      await request("/internal/config/source", { method: "DELETE", body: {} });
      changed();
    },
    async resetConfigOverrideKeys(level: ConfigOverrideLevel, keys: string[]): Promise<void> {
      await request(`${override(level)}/reset-keys`, jsonBody({ keys }));
      changed();
    },
    async getConfigOverride(level: ConfigOverrideLevel): Promise<Json> {
      return JSON.parse((await request<{ config_string: string }>(override(level))).config_string) as Json;
    },
    /** Replaces a level's override; the branch level keeps its recorded source. */
    async replaceConfigOverride(level: ConfigOverrideLevel, config: Json): Promise<void> {
      await put(level, config, level === "branch" ? await wireSource() : undefined);
    },
    /** [GO] Hears every config write through this app (for UI bindings: @gatehouse/react's `useConfig`). */
    onConfigChange: changes.subscribe,
  };
}
