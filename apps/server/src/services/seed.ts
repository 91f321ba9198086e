// Seeding of the internal project (WIRE.md §8) and, under `npm start`, the demo project: runs at every start and is
// idempotent. Settings given in the environment are applied every time; the rest keep what the operator changed.
import type { ProjectConfig } from "@gatehouse/contract";
import type { SeedSettings } from "../config.ts";
import type { PasswordHasher } from "../crypto/password.ts";
import type { InternalKeys, ProjectKeys } from "../data-dir.ts";
import { type Db, inTransaction } from "../db/client.ts";
import type { ProjectsRepo } from "../db/projects-repo.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import type { ProviderDirectory } from "../oauth/directory.ts";
import type { ApiKeyService } from "./api-keys.ts";
import type { PermissionDefinition } from "./permissions.ts";
import type { Project, ProjectService } from "./projects.ts";
import type { TeamService } from "./teams.ts";
import type { UserService } from "./users.ts";

export const INTERNAL_PROJECT_ID = "internal";
/** The seeded key set has a fixed id so each start rewrites it instead of adding another. */
export const SEEDED_KEY_SET_ID = "00000000-0000-4000-8000-00000000c0de";
/** The demo's own fixed id: key set ids are global, and saving a set under another project's id would move it. */
export const SEEDED_DEMO_KEY_SET_ID = "00000000-0000-4000-8000-00000000de70";
const SEEDED_KEYS_EXPIRE = new Date("2099-12-31T00:00:00Z");

/** The internal project's own definitions: dashboard teams are for sharing projects, not for managing members. */
export const INTERNAL_PERMISSION_DEFINITIONS: PermissionDefinition[] = [
  { id: "team_member", contained_permission_ids: ["$read_members"] },
  { id: "team_admin", contained_permission_ids: ["$read_members", "$remove_members", "$update_team"] },
];

/**
 * The shared providers offered by default: on the internal project (STACK_SEED_INTERNAL_PROJECT_OAUTH_PROVIDERS
 * unset) only those the instance can serve it, and on the demo project.
 */
export const DEFAULT_INTERNAL_OAUTH_PROVIDERS = ["github", "google"];

const sharedProvider = (id: string) => ({ id, type: "shared" as const, enabled: true });

function settingsFromEnvironment(seed: SeedSettings): Partial<ProjectConfig> {
  const config: Partial<ProjectConfig> = {};
  if (seed.signUpEnabled !== undefined) config.sign_up_enabled = seed.signUpEnabled;
  if (seed.otpEnabled !== undefined) config.magic_link_enabled = seed.otpEnabled;
  if (seed.allowLocalhost !== undefined) config.allow_localhost = seed.allowLocalhost;
  if (seed.oauthProviders !== undefined) {
    config.oauth_providers = seed.oauthProviders.map(sharedProvider);
  }
  return config;
}

export async function seedInternalProject(deps: {
  db: Db;
  projects: ProjectService;
  teams: TeamService;
  users: UserService;
  usersRepo: UsersRepo;
  hasher: PasswordHasher;
  projectsRepo: ProjectsRepo;
  apiKeys: ApiKeyService;
  oauthDirectory: Pick<ProviderDirectory, "sharedUsable">;
  baseUrl: string;
  seed: SeedSettings;
  keys: InternalKeys;
}): Promise<void> {
  const fromEnv = settingsFromEnvironment(deps.seed);
  // Hashed before the transaction: argon2id takes a while and needs no database.
  const password = deps.seed.user?.password;
  const passwordHash = password ? await deps.hasher.hash(password) : null;
  const existing = await deps.projects.find(INTERNAL_PROJECT_ID);
  if (!existing) {
    await deps.projects.create(
      {
        id: INTERNAL_PROJECT_ID,
        displayName: "Gatehouse Dashboard",
        description: "The Gatehouse dashboard's own project: its users are the operators and project owners.",
        config: {
          credential_enabled: true,
          create_team_on_sign_up: true,
          client_team_creation_enabled: true,
          domains: [{ domain: new URL(deps.baseUrl).origin, handler_path: "/dashboard/handler" }],
          // GitHub and Google only where they work: with the instance's keys, or test identities the operator
          // turned on for this project by name. No button leads nowhere, and none to a stand-in page where anyone
          // could sign up as anyone: the internal project's first user becomes the operator.
          oauth_providers: DEFAULT_INTERNAL_OAUTH_PROVIDERS.filter((id) =>
            deps.oauthDirectory.sharedUsable({ id: INTERNAL_PROJECT_ID, isProductionMode: false }, id),
          ).map(sharedProvider),
          ...fromEnv,
        },
      },
      INTERNAL_PERMISSION_DEFINITIONS,
    );
  }
  await inTransaction(deps.db, async (tx) => {
    if (existing && Object.keys(fromEnv).length > 0) {
      await deps.projectsRepo.updateConfig(tx, INTERNAL_PROJECT_ID, { ...existing.config, ...fromEnv });
    }
    const project = await deps.projectsRepo.find(INTERNAL_PROJECT_ID, tx);
    if (!project) throw new Error("The internal project vanished while seeding");
    const ownerTeamId = project.ownerTeamId ?? (await createOwnerTeam(deps, tx, project));
    if (deps.seed.user) await seedOperator(deps, tx, project, ownerTeamId, deps.seed.user, passwordHash);
    await saveSeededKeys(deps.apiKeys, tx, INTERNAL_PROJECT_ID, SEEDED_KEY_SET_ID, deps.keys);
  });
}

type SeedDeps = Parameters<typeof seedInternalProject>[0];

/** Rewrites a seeded project's key set from `keys` (stored hashed): a restart never rotates them. */
async function saveSeededKeys(
  apiKeys: ApiKeyService,
  tx: Db,
  projectId: string,
  setId: string,
  keys: ProjectKeys,
): Promise<void> {
  await apiKeys.save(tx, projectId, {
    id: setId,
    description: `Seeded keys of the ${projectId} project`,
    expiresAt: SEEDED_KEYS_EXPIRE,
    keys: { pck: keys.publishableClientKey, ssk: keys.secretServerKey, sak: keys.superSecretAdminKey },
  });
}

/** The team that owns the internal project: its members administer Gatehouse itself (WIRE.md §8). */
async function createOwnerTeam(deps: SeedDeps, tx: Db, project: Project): Promise<string> {
  const team = await deps.teams.create(tx, project, { displayName: "Gatehouse operators" });
  await deps.projectsRepo.setOwnerTeam(tx, project.id, team.id);
  return team.id;
}

/**
 * The first operator account: created once with a verified, sign-in e-mail; an existing account is left as it is
 * (its password may have changed since). With internal access it joins the internal project's owner team.
 */
async function seedOperator(
  deps: SeedDeps,
  tx: Db,
  project: Project,
  ownerTeamId: string,
  user: NonNullable<SeedSettings["user"]>,
  passwordHash: string | null,
): Promise<void> {
  const existing = await deps.usersRepo.findByAuthEmail(project.id, user.email, tx);
  const userId =
    existing?.id ??
    (await deps.users.create(tx, {
      project,
      email: { value: user.email, verified: true, usedForAuth: true },
      passwordHash,
      // Joins the owner team below only when given internal access, and then with the member defaults.
      mayBecomeFirstOperator: false,
    }));
  if (user.internalAccess) {
    await deps.teams.addMember(tx, project, ownerTeamId, userId, "member");
    // The instance has its operator: no sign-up becomes the first one, even if this one leaves the team.
    await deps.projectsRepo.takeFirstOperatorSeat(tx, project.id, new Date());
  }
}

/** The project of the demo app (`apps/demo`), which `npm start` runs beside the server. */
export const DEMO_PROJECT_ID = "demo";

/**
 * The demo app's project, created once with every sign-in method on (shared OAuth keys: without instance keys, the
 * development provider, which `npm start` turns on for this project with GATEHOUSE_DEVELOPMENT_OAUTH=demo), teams
 * and self-deletion allowed, localhost trusted. Later starts leave it as the developer changed it. Only `npm start`
 * asks for it (GATEHOUSE_DEMO_PROJECT=on); a production server never has it. Runs after `seedInternalProject`.
 *
 * It belongs to the internal project's owner team, so the instance's operators find it in the dashboard with its
 * users and e-mails. That gives them nothing they lack: the instance made this project for them, and nobody else's
 * project is touched. A demo project from before it had an owner is adopted; an owner chosen since is kept. Its keys,
 * generated once into the data directory, are rewritten at every start like the internal ones, for the banner.
 */
export async function seedDemoProject(deps: {
  db: Db;
  projects: ProjectService;
  projectsRepo: ProjectsRepo;
  apiKeys: ApiKeyService;
  keys: ProjectKeys;
  /** The demo app's origin (GATEHOUSE_DEMO_URL, set by `npm start`), trusted with its /handler pages. */
  appUrl?: string;
}): Promise<void> {
  const ownerTeamId = (await deps.projectsRepo.find(INTERNAL_PROJECT_ID))?.ownerTeamId;
  if (!ownerTeamId)
    throw new Error("The demo project is seeded after the internal project and its owner team");
  if (!(await deps.projects.find(DEMO_PROJECT_ID)))
    await createDemoProject(deps.projects, ownerTeamId, deps.appUrl);
  await inTransaction(deps.db, async (tx) => {
    const demo = await deps.projectsRepo.lock(tx, DEMO_PROJECT_ID);
    if (!demo) throw new Error("The demo project vanished while seeding");
    if (demo.ownerTeamId === null) await deps.projectsRepo.setOwnerTeam(tx, DEMO_PROJECT_ID, ownerTeamId);
    await saveSeededKeys(deps.apiKeys, tx, DEMO_PROJECT_ID, SEEDED_DEMO_KEY_SET_ID, deps.keys);
  });
}

async function createDemoProject(
  projects: ProjectService,
  ownerTeamId: string,
  appUrl?: string,
): Promise<void> {
  await projects.create({
    id: DEMO_PROJECT_ID,
    ownerTeamId,
    displayName: "Gatehouse demo",
    description: "The project of the demo app that `npm start` runs beside the server.",
    config: {
      sign_up_enabled: true,
      credential_enabled: true,
      magic_link_enabled: true,
      passkey_enabled: true,
      client_team_creation_enabled: true,
      client_user_deletion_enabled: true,
      create_team_on_sign_up: true,
      allow_localhost: true,
      domains: appUrl ? [{ domain: appUrl, handler_path: "/handler" }] : [],
      oauth_providers: DEFAULT_INTERNAL_OAUTH_PROVIDERS.map(sharedProvider),
    },
  });
}
