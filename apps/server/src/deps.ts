// The composition root: every repository and service is built here once and passed down. No module singletons.
import { type Clock, systemClock } from "./clock.ts";
import { createPasswordHasher, type PasswordHasher } from "./crypto/password.ts";
import { createSecretBox } from "./crypto/secret-box.ts";
import { createApiKeysRepo } from "./db/api-keys-repo.ts";
import type { Database } from "./db/client.ts";
import { createProjectsRepo } from "./db/projects-repo.ts";
import { createSessionsRepo } from "./db/sessions-repo.ts";
import { createSigningKeysRepo } from "./db/signing-keys-repo.ts";
import { createUsersRepo } from "./db/users-repo.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createApiKeyService } from "./services/api-keys.ts";
import { createPasswordAuth } from "./services/password-auth.ts";
import { createProjectService } from "./services/projects.ts";
import { createSessionService } from "./services/sessions.ts";
import { createSigningKeyService } from "./services/signing-keys.ts";
import { createUserService } from "./services/users.ts";

/** Access tokens live 10 minutes by default (WIRE.md §3.1). */
export const DEFAULT_ACCESS_TOKEN_LIFETIME_MS = 10 * 60 * 1000;

export type DepsOptions = {
  database: Database;
  /** The server secret: all at-rest encryption keys derive from it. */
  secret: string;
  baseUrl: string;
  development?: boolean;
  clock?: Clock;
  logger?: Logger;
  accessTokenLifetimeMs?: number;
  hasher?: PasswordHasher;
};

export function createDeps(options: DepsOptions) {
  const { database } = options;
  const db = database.db;
  const clock = options.clock ?? systemClock;
  const accessTokenLifetimeMs = options.accessTokenLifetimeMs ?? DEFAULT_ACCESS_TOKEN_LIFETIME_MS;
  const projectsRepo = createProjectsRepo(db);
  const signingKeys = createSigningKeyService({
    repo: createSigningKeysRepo(db),
    box: createSecretBox(options.secret, "signing-keys"),
    clock,
    accessTokenLifetimeMs,
  });
  const usersRepo = createUsersRepo(db);
  const users = createUserService({ repo: usersRepo, clock });
  const sessions = createSessionService({
    db,
    repo: createSessionsRepo(db),
    users: usersRepo,
    signingKeys,
    clock,
    baseUrl: options.baseUrl,
    accessTokenLifetimeMs,
  });
  const hasher = options.hasher ?? createPasswordHasher();
  return {
    database,
    db,
    clock,
    logger: options.logger ?? createLogger(),
    baseUrl: options.baseUrl,
    development: options.development ?? false,
    accessTokenLifetimeMs,
    projectsRepo,
    projects: createProjectService({ db, repo: projectsRepo, signingKeys, clock }),
    apiKeys: createApiKeyService({ repo: createApiKeysRepo(db), clock }),
    signingKeys,
    usersRepo,
    users,
    sessions,
    hasher,
    passwordAuth: createPasswordAuth({ db, hasher, users, usersRepo, sessions }),
  };
}

export type Deps = ReturnType<typeof createDeps>;
