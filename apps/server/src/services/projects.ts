// Projects: creation with their defaults, signing keys and permission definitions; settings changes checked against
// WIRE.md §4.13 and §7; deletion; the projects a dashboard user owns; the admin view. OAuth client secrets and the
// SMTP password are stored sealed with the server secret and opened only where they are used.
import { randomUUID } from "node:crypto";
import {
  DEFAULT_PROJECT_CONFIG,
  type ProjectAdminView,
  type ProjectConfig,
  type ProjectConfigUpdate,
  type ProjectLogos,
} from "@gatehouse/contract";
import type { AuditLog } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import { createSecretBox } from "../crypto/secret-box.ts";
import { type Db, inTransaction } from "../db/client.ts";
import type { ProjectRow, ProjectsRepo } from "../db/projects-repo.ts";
import { TextError } from "../text-error.ts";
import type { PermissionDefinition, PermissionService } from "./permissions.ts";
import {
  assertKnownReferences,
  mergeConfig,
  productionModeErrors,
  projectAdminView,
} from "./project-settings.ts";
import { INTERNAL_PROJECT_ID } from "./seed.ts";
import type { SigningKeyService } from "./signing-keys.ts";

export type Project = ProjectRow;

export type NewProject = {
  id?: string;
  displayName: string;
  description?: string | null;
  isProductionMode?: boolean;
  config?: Partial<ProjectConfig>;
  /** The team of project `internal` whose members administer it (WIRE.md §8); absent: none yet. */
  ownerTeamId?: string;
};

/** A change of settings (`PATCH /projects/current`); fields left undefined keep their values. */
export type ProjectSettings = {
  displayName?: string;
  description?: string | null;
  isProductionMode?: boolean;
  /** Stack's `logo_url` family; a key sent as null removes that logo. Stored in the configuration. */
  logos?: Partial<ProjectLogos>;
  config?: ProjectConfigUpdate;
};

/**
 * Seals and opens the secrets inside a project configuration: every OAuth `client_secret`, the standard SMTP
 * `password` and the bot-protection secret. What is stored is always sealed; code that sends mail or talks to a provider opens the config first.
 */
export type ProjectSecrets = {
  seal(config: ProjectConfig): ProjectConfig;
  open(config: ProjectConfig): ProjectConfig;
};

function mapSecrets(config: ProjectConfig, f: (value: string) => string): ProjectConfig {
  const email = config.email_config;
  return {
    ...config,
    oauth_providers: config.oauth_providers.map((p) =>
      p.client_secret === undefined ? p : { ...p, client_secret: f(p.client_secret) },
    ),
    email_config: email.type === "standard" ? { ...email, password: f(email.password) } : email,
    // Absent in configurations stored before bot protection existed.
    ...(typeof config.bot_protection_secret === "string"
      ? { bot_protection_secret: f(config.bot_protection_secret) }
      : {}),
  };
}

/** deps.ts builds this once from the server secret and hands it to the project service and the e-mail worker. */
export function createProjectSecrets(serverSecret: string): ProjectSecrets {
  const box = createSecretBox(serverSecret, "project-config");
  return {
    seal: (config) => mapSecrets(config, box.seal),
    open: (config) => mapSecrets(config, box.open),
  };
}

const definedOnly = (values: object = {}) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));

export function createProjectService(deps: {
  db: Db;
  repo: ProjectsRepo;
  signingKeys: SigningKeyService;
  permissions: PermissionService;
  clock: Clock;
  secrets: ProjectSecrets;
  audit: AuditLog;
}) {
  const { repo } = deps;

  /** The audit entries of a settings change: the project's own fields, and its configuration (keys only). */
  function auditSettings(tx: Db, projectId: string, settings: ProjectSettings) {
    const fields = [
      ...(["displayName", "description", "isProductionMode"] as const).filter(
        (f) => settings[f] !== undefined,
      ),
      ...Object.keys(definedOnly(settings.logos)),
    ];
    const target = { type: "project", id: projectId };
    const configKeys = Object.keys(settings.config ?? {});
    return deps.audit.record(
      tx,
      projectId,
      ...(fields.length > 0 ? [{ type: "project.updated" as const, target, details: { fields } }] : []),
      ...(configKeys.length > 0
        ? [{ type: "config.updated" as const, target, details: { keys: configKeys } }]
        : []),
    );
  }
  const { secrets } = deps;

  /** The project, its signing keys and its permission definitions (the defaults unless given). */
  async function insert(tx: Db, input: NewProject, definitions?: PermissionDefinition[]): Promise<Project> {
    const project = await repo.insert(tx, {
      id: input.id ?? randomUUID(),
      displayName: input.displayName,
      description: input.description ?? null,
      createdAt: deps.clock.now(),
      isProductionMode: input.isProductionMode ?? false,
      ownerTeamId: input.ownerTeamId ?? null,
      config: secrets.seal({ ...DEFAULT_PROJECT_CONFIG, ...input.config }),
    });
    await deps.signingKeys.createInitialKeys(tx, project.id);
    await deps.permissions.createDefaults(tx, project.id, definitions, project.createdAt);
    return project;
  }

  /**
   * Checks a change against the rules the schema cannot know (provider ids, permission ids, and the production
   * rules on the result: 400 text, one violated rule per line) and stores it.
   */
  async function applySettings(tx: Db, project: Project, settings: ProjectSettings): Promise<Project> {
    if (settings.config) {
      const defined = await deps.permissions.definitionMap(project.id, tx);
      const projectDefined = await deps.permissions.definitionMap(project.id, tx, "project");
      assertKnownReferences(settings.config, new Set(defined.keys()), new Set(projectDefined.keys()));
    }
    const config = {
      ...mergeConfig(secrets.open(project.config), settings.config),
      ...definedOnly(settings.logos),
    };
    const isProductionMode = settings.isProductionMode ?? project.isProductionMode;
    const violations = isProductionMode ? productionModeErrors(config) : [];
    if (violations.length > 0) throw new TextError(400, violations.join("\n"));
    return repo.update(tx, project.id, {
      displayName: settings.displayName,
      description: settings.description,
      isProductionMode,
      config: secrets.seal(config),
    });
  }

  async function adminViews(projects: Project[]): Promise<ProjectAdminView[]> {
    const counts = await repo.countUsers(projects.map((p) => p.id));
    return projects.map((p) => projectAdminView(p, secrets.open(p.config), counts.get(p.id) ?? 0));
  }

  return {
    find: (id: string) => repo.find(id),

    /** Inserts the project with the default configuration, its signing keys and definitions, all or nothing. */
    create(input: NewProject, definitions?: PermissionDefinition[]): Promise<Project> {
      return inTransaction(deps.db, (tx) => insert(tx, input, definitions));
    },

    /**
     * A project created from the dashboard (`POST /internal/projects`): defaults, keys and definitions, owned by
     * `ownerTeamId`, then the settings of the request, checked as a change would be. All or nothing.
     */
    createOwned(ownerTeamId: string, settings: ProjectSettings & { displayName: string }): Promise<Project> {
      return inTransaction(deps.db, async (tx) => {
        const project = await insert(tx, { displayName: settings.displayName, ownerTeamId });
        const applied = await applySettings(tx, project, settings);
        await deps.audit.record(tx, project.id, {
          type: "project.created",
          target: { type: "project", id: project.id },
          details: { owner_team_id: ownerTeamId },
        });
        return applied;
      });
    },

    /** Changes the project's settings; the row stays locked meanwhile, so concurrent changes do not lose keys. */
    update(projectId: string, settings: ProjectSettings): Promise<Project> {
      return inTransaction(deps.db, (tx) => this.updateIn(tx, projectId, settings));
    },

    /** `update` inside the caller's transaction (config as code stores its override with the change). */
    async updateIn(tx: Db, projectId: string, settings: ProjectSettings, audited = true): Promise<Project> {
      const project = await repo.lock(tx, projectId);
      if (!project) throw new Error(`Project ${projectId} vanished before its update`);
      const updated = await applySettings(tx, project, settings);
      if (audited) await auditSettings(tx, projectId, settings);
      return updated;
    },

    /** Deletes the project and, through the cascades, everything it owns. The internal project stays. */
    async delete(projectId: string): Promise<void> {
      if (projectId === INTERNAL_PROJECT_ID)
        throw new TextError(400, "The internal project cannot be deleted.");
      // The project's own entries go with it (cascade), so its deletion is recorded in the internal project's log.
      await inTransaction(deps.db, async (tx) => {
        if (!(await repo.delete(projectId, tx))) return;
        await deps.audit.record(tx, INTERNAL_PROJECT_ID, {
          type: "project.deleted",
          target: { type: "project", id: projectId },
        });
      });
    },

    /** The projects owned by the teams the user belongs to, as admin views. */
    async listOwnedBy(userId: string): Promise<ProjectAdminView[]> {
      return adminViews(await repo.listOwnedBy(userId));
    },

    async adminView(project: Project): Promise<ProjectAdminView> {
      const [view] = await adminViews([project]);
      if (!view) throw new Error("No admin view for a project");
      return view;
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
