// createTestServer(): a complete app on a fresh copy of the migrated test database, with a clock the test moves,
// the internal project seeded, and helpers to make projects, keys, tokens and requests.
import { randomUUID } from "node:crypto";
import { createApp } from "../app.ts";
import { createFixedClock } from "../clock.ts";
import { generateApiKey } from "../crypto/random.ts";
import { inTransaction } from "../db/client.ts";
import type { AudienceKind } from "../db/schema.ts";
import { createDeps } from "../deps.ts";
import { tokenIssuerAndAudience } from "../http/caller.ts";
import { type Logger, silentLogger } from "../logger.ts";
import type { NewProject } from "../services/projects.ts";
import { INTERNAL_PROJECT_ID, seedInternalProject } from "../services/seed.ts";
import { openTestDatabase } from "./test-database.ts";

export const TEST_BASE_URL = "http://localhost:8102";

export type ProjectKeys = { projectId: string; pck: string; ssk: string; sak: string };

export async function createTestServer(options: { logger?: Logger; development?: boolean } = {}) {
  const database = await openTestDatabase();
  const clock = createFixedClock(new Date());
  const deps = createDeps({
    database,
    secret: "test-secret-0123456789abcdef0123456789abcdef",
    baseUrl: TEST_BASE_URL,
    development: options.development ?? false,
    clock,
    logger: options.logger ?? silentLogger,
  });
  const internalKeys = {
    publishableClientKey: generateApiKey("pck"),
    secretServerKey: generateApiKey("ssk"),
    superSecretAdminKey: generateApiKey("sak"),
  };
  await seedInternalProject({ ...deps, seed: {}, keys: internalKeys });
  const app = createApp(deps);

  /** A project with one key set; `expiresAt` in the past makes keys that are already expired. */
  async function createProject(input: Partial<NewProject> = {}, keySet: { expiresAt?: Date } = {}) {
    const project = await deps.projects.create({ displayName: "Test project", ...input });
    const { keys } = await inTransaction(deps.db, (tx) =>
      deps.apiKeys.save(tx, project.id, {
        description: "test keys",
        expiresAt: keySet.expiresAt ?? new Date(clock.now().getTime() + 24 * 3600 * 1000),
        keys: { pck: true, ssk: true, sak: true },
      }),
    );
    const projectKeys: ProjectKeys = {
      projectId: project.id,
      pck: keys.pck!,
      ssk: keys.ssk!,
      sak: keys.sak!,
    };
    return { project, keys: projectKeys };
  }

  /** An access token as the sign-in flows mint them (WIRE.md §3.1), for a user id that need not exist. */
  async function mintAccessToken(
    projectId: string,
    opts: { userId?: string; audience?: AudienceKind; expiresInSeconds?: number } = {},
  ) {
    const audience = opts.audience ?? "default";
    const now = Math.floor(clock.now().getTime() / 1000);
    const restricted = audience !== "default";
    return deps.signingKeys.sign(projectId, audience, {
      ...tokenIssuerAndAudience(TEST_BASE_URL, projectId, audience),
      iat: now,
      exp: now + (opts.expiresInSeconds ?? 600),
      sub: opts.userId ?? randomUUID(),
      project_id: projectId,
      branch_id: "main",
      refresh_token_id: randomUUID(),
      role: "authenticated",
      name: null,
      email: null,
      email_verified: false,
      selected_team_id: null,
      signed_up_at: now,
      is_anonymous: audience === "anonymous",
      is_restricted: restricted,
      restricted_reason: restricted
        ? { type: audience === "anonymous" ? "anonymous" : "restricted_by_administrator" }
        : null,
      requires_totp_mfa: false,
    });
  }

  const internal: ProjectKeys = {
    projectId: INTERNAL_PROJECT_ID,
    pck: internalKeys.publishableClientKey,
    ssk: internalKeys.secretServerKey,
    sak: internalKeys.superSecretAdminKey,
  };

  return {
    app,
    deps,
    clock,
    internal,
    createProject,
    mintAccessToken,
    /** `app.request` with a path relative to the server origin. */
    request: (path: string, init?: RequestInit) => app.request(path, init),
    close: () => database.close(),
  };
}

export type TestServer = Awaited<ReturnType<typeof createTestServer>>;

/** Headers for an access type, with the keys of `keys` (x-stack-* spelling unless `prefix` says otherwise). */
export function accessHeaders(
  type: "client" | "server" | "admin",
  keys: ProjectKeys,
  prefix: "x-stack-" | "x-hexclave-" = "x-stack-",
): Record<string, string> {
  const key = {
    client: ["publishable-client-key", keys.pck],
    server: ["secret-server-key", keys.ssk],
    admin: ["super-secret-admin-key", keys.sak],
  }[type];
  return {
    [`${prefix}access-type`]: type,
    [`${prefix}project-id`]: keys.projectId,
    [`${prefix}${key[0]}`]: key[1] as string,
  };
}
