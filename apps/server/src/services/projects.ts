// Projects: creation with their defaults and first signing keys, reading, and the views callers see.
import { randomUUID } from "node:crypto";
import { DEFAULT_PROJECT_CONFIG, type ProjectClientView, type ProjectConfig } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import { type Db, inTransaction } from "../db/client.ts";
import type { ProjectRow, ProjectsRepo } from "../db/projects-repo.ts";
import type { PermissionDefinition, PermissionService } from "./permissions.ts";
import type { SigningKeyService } from "./signing-keys.ts";

export type Project = ProjectRow;

export type NewProject = {
  id?: string;
  displayName: string;
  description?: string | null;
  isProductionMode?: boolean;
  config?: Partial<ProjectConfig>;
};

export function createProjectService(deps: {
  db: Db;
  repo: ProjectsRepo;
  signingKeys: SigningKeyService;
  permissions: PermissionService;
  clock: Clock;
}) {
  return {
    find: (id: string) => deps.repo.find(id),

    /**
     * Inserts the project with the default configuration, its signing keys and its permission definitions (the
     * defaults unless given), all or nothing.
     */
    create(input: NewProject, definitions?: PermissionDefinition[]): Promise<Project> {
      return inTransaction(deps.db, async (tx) => {
        const project = await deps.repo.insert(tx, {
          id: input.id ?? randomUUID(),
          displayName: input.displayName,
          description: input.description ?? null,
          createdAt: deps.clock.now(),
          isProductionMode: input.isProductionMode ?? false,
          config: { ...DEFAULT_PROJECT_CONFIG, ...input.config },
        });
        await deps.signingKeys.createInitialKeys(tx, project.id);
        await deps.permissions.createDefaults(tx, project.id, definitions, project.createdAt);
        return project;
      });
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;

/** The client view (WIRE.md §4.13): only what sign-in screens need. Disabled providers are not revealed. */
export function projectClientView(project: Project): ProjectClientView {
  const c = project.config;
  const enabled = c.oauth_providers.filter((p) => p.enabled).map((p) => ({ id: p.id }));
  return {
    id: project.id,
    display_name: project.displayName,
    config: {
      sign_up_enabled: c.sign_up_enabled,
      credential_enabled: c.credential_enabled,
      magic_link_enabled: c.magic_link_enabled,
      passkey_enabled: c.passkey_enabled,
      client_team_creation_enabled: c.client_team_creation_enabled,
      client_user_deletion_enabled: c.client_user_deletion_enabled,
      allow_user_api_keys: false,
      allow_team_api_keys: false,
      oauth_providers: enabled,
      enabled_oauth_providers: enabled,
      domains: c.domains.map((d) => ({ domain: d.domain, handler_path: d.handler_path })),
    },
  };
}
