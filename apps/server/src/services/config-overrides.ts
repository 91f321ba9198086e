// Config as code (Stack's `/internal/config`): overrides per level are stored (sealed: they may carry provider
// secrets and SMTP passwords) and merged project < branch < environment, as Stack does. A write that changes a key
// Gatehouse supports changes the project's configuration in the same transaction, so it takes effect at once;
// other keys are kept, rendered and reported as unsupported. The project's configuration stays the source of truth
// for supported keys, so dashboard changes show in the rendered config too.
import type { ConfigLevel, ConfigSource } from "@gatehouse/contract";
import type { AuditLog } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { type Db, inTransaction } from "../db/client.ts";
import type { ConfigOverridesRepo } from "../db/config-overrides-repo.ts";
import type { ProjectsRepo } from "../db/projects-repo.ts";
import { TextError } from "../text-error.ts";
import {
  applyOverride,
  type ConfigObject,
  deepMerge,
  leafPaths,
  normalize,
  parseConfigString,
  removeKeys,
} from "./config-format.ts";
import { changesBetween, isSupportedKey, renderSupported } from "./config-mapping.ts";
import type { Project, ProjectSecrets, ProjectService } from "./projects.ts";

const LEVEL_ORDER: readonly ConfigLevel[] = ["project", "branch", "environment"];
const UNLINKED: ConfigSource = { type: "unlinked" };

/** Stack's defaults for keys we render but do not act on, so SDK readers find the shape they expect. */
const STACK_BASE: ConfigObject = {
  sourceOfTruth: { type: "hosted" },
  apiKeys: { enabled: { team: false, user: false } },
  onboarding: { requireEmailVerification: false },
  auth: { signUpRules: {}, signUpRulesDefaultAction: "allow" },
  apps: { installed: {} },
};

type Levels = Partial<Record<ConfigLevel, ConfigObject>>;
type Write = { success: true; unsupported_keys: string[] };

export function createConfigOverrideService(deps: {
  db: Db;
  clock: Clock;
  repo: ConfigOverridesRepo;
  projects: ProjectService;
  projectsRepo: ProjectsRepo;
  secrets: ProjectSecrets;
  box: SecretBox;
  audit: AuditLog;
}) {
  async function readLevels(executor: Db, projectId: string) {
    const rows = await deps.repo.list(executor, projectId);
    const levels: Levels = {};
    for (const row of rows) levels[row.level] = JSON.parse(deps.box.open(row.sealedConfig)) as ConfigObject;
    const source = rows.find((r) => r.level === "branch")?.source as ConfigSource | null | undefined;
    return { levels, source: source ?? UNLINKED };
  }

  /** The levels merged in Stack's order, in nested form. */
  const merged = (levels: Levels) =>
    normalize(LEVEL_ORDER.reduce<ConfigObject>((acc, level) => applyOverride(acc, levels[level] ?? {}), {}));

  const unsupportedKeys = (config: ConfigObject) => leafPaths(config).filter((key) => !isSupportedKey(key));

  /**
   * Stores `level`'s new override and applies what it changes to the project, all in one transaction with the
   * project row locked (concurrent writes queue up and never apply a stale merge).
   */
  function write(
    project: Project,
    level: ConfigLevel,
    change: (current: ConfigObject) => ConfigObject,
    source?: ConfigSource,
  ): Promise<Write> {
    return inTransaction(deps.db, async (tx) => {
      const locked = await deps.projectsRepo.lock(tx, project.id);
      if (!locked) throw new Error(`Project ${project.id} vanished before its config write`);
      const { levels } = await readLevels(tx, project.id);
      const next = change(levels[level] ?? {});
      const before = merged(levels);
      const after = merged({ ...levels, [level]: next });
      const rendered = renderSupported(deps.secrets.open(locked.config), before);
      const update = changesBetween(before, after, rendered);
      await deps.repo.save(
        tx,
        { projectId: project.id, level, sealedConfig: deps.box.seal(JSON.stringify(next)), source },
        deps.clock.now(),
      );
      if (Object.keys(update).length > 0)
        await deps.projects.updateIn(tx, project.id, { config: update }, false);
      await deps.audit.record(tx, project.id, {
        type: "config.updated",
        target: { type: "project", id: project.id },
        details: { level, keys: leafPaths(next).slice(0, 50) },
      });
      return { success: true as const, unsupported_keys: unsupportedKeys(after) };
    });
  }

  function parse(text: string): ConfigObject {
    const parsed = parseConfigString(text);
    if (!parsed) throw new TextError(400, "Invalid config JSON");
    return parsed;
  }

  return {
    /** The rendered config: Stack's defaults, the merged overrides, and the project's own values on top. */
    async render(project: Project) {
      const { levels } = await readLevels(deps.db, project.id);
      const overrides = merged(levels);
      const rendered = renderSupported(
        deps.secrets.open(project.config),
        overrides,
        // A copy: the supported keys are written into it, and STACK_BASE is shared by every project.
        deepMerge(structuredClone(STACK_BASE), overrides) as ConfigObject,
      );
      return { config_string: JSON.stringify(rendered), unsupported_keys: unsupportedKeys(overrides) };
    },

    async getOverride(project: Project, level: ConfigLevel) {
      const { levels } = await readLevels(deps.db, project.id);
      return { config_string: JSON.stringify(levels[level] ?? {}) };
    },

    /** PUT: the branch level is a push, and says where it came from (Stack's rule). */
    replace(project: Project, level: ConfigLevel, text: string, source: ConfigSource | undefined) {
      const config = parse(text);
      if (level === "branch" && !source)
        throw new TextError(400, "source is required for branch level config");
      return write(project, level, () => config, level === "branch" ? source : undefined);
    },

    update(project: Project, level: ConfigLevel, text: string) {
      const delta = parse(text);
      return write(project, level, (current) => applyOverride(current, delta));
    },

    resetKeys(project: Project, level: ConfigLevel, keys: readonly string[]) {
      return write(project, level, (current) => removeKeys(current, keys));
    },

    async source(project: Project) {
      return { source: (await readLevels(deps.db, project.id)).source };
    },

    async unlink(project: Project) {
      await inTransaction(deps.db, async (tx) => {
        const { levels } = await readLevels(tx, project.id);
        const sealedConfig = deps.box.seal(JSON.stringify(levels.branch ?? {}));
        await deps.repo.save(
          tx,
          { projectId: project.id, level: "branch", sealedConfig, source: UNLINKED },
          deps.clock.now(),
        );
      });
      return { success: true as const };
    },
  };
}

export type ConfigOverrideService = ReturnType<typeof createConfigOverrideService>;
