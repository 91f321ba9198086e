// createTestServer(): a complete app on a fresh copy of the migrated test database, with a clock the test moves,
// the internal project seeded, and helpers to make projects, keys, tokens and requests.
import { createApp } from "../app.ts";
import { createFixedClock } from "../clock.ts";
import { generateApiKey } from "../crypto/random.ts";
import { inTransaction } from "../db/client.ts";
import type { AudienceKind } from "../db/schema.ts";
import { createDeps } from "../deps.ts";
import { type Logger, silentLogger } from "../logger.ts";
import type { NewProject } from "../services/projects.ts";
import type { RateLimitSettings } from "../services/rate-limits.ts";
import { INTERNAL_PROJECT_ID, seedInternalProject } from "../services/seed.ts";
import { openTestDatabase } from "./test-database.ts";

export const TEST_BASE_URL = "http://localhost:8102";

export type ProjectKeys = { projectId: string; pck: string; ssk: string; sak: string };

/** The server secret of test servers (tests that build their own sealing boxes need it). */
export const TEST_SECRET = "test-secret-0123456789abcdef0123456789abcdef";

export async function createTestServer(
  options: {
    logger?: Logger;
    development?: boolean;
    rateLimits?: RateLimitSettings;
    webhookAllowPrivateUrls?: boolean;
    /** GATEHOUSE_SSO_ALLOW_PRIVATE_URLS (default true: the test identity providers listen on 127.0.0.1). */
    ssoAllowPrivateUrls?: boolean;
    /** The dashboard build to serve under /dashboard (default: the repository's apps/dashboard/dist). */
    dashboardDir?: string;
    /** GATEHOUSE_DEVELOPMENT_OAUTH: projects (or `*`) whose shared providers use the development provider. */
    developmentOAuth?: string[];
    /** Resolvers for SSO domain verification (a local DNS server). */
    ssoDnsServers?: string[];
    /** The public base URL (default TEST_BASE_URL): a suite that serves the app on a real port names that port. */
    baseUrl?: string;
  } = {},
) {
  const database = await openTestDatabase();
  const clock = createFixedClock(new Date());
  const deps = createDeps({
    database,
    secret: TEST_SECRET,
    baseUrl: options.baseUrl ?? TEST_BASE_URL,
    development: options.development ?? false,
    clock,
    logger: options.logger ?? silentLogger,
    // Limits stay on in tests (each suite proves its bucket fires); requests name their IP in X-Forwarded-For.
    rateLimits: options.rateLimits ?? { enabled: true },
    trustProxy: true,
    // Webhook receivers in tests listen on 127.0.0.1.
    webhookAllowPrivateUrls: options.webhookAllowPrivateUrls ?? true,
    dashboardDir: options.dashboardDir,
    developmentOAuth: options.developmentOAuth,
    ssoDnsServers: options.ssoDnsServers,
    // The test identity providers listen on 127.0.0.1 too.
    ssoAllowPrivateUrls: options.ssoAllowPrivateUrls ?? true,
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

  /**
   * Signs a new user in directly through the services: anonymous for the `anonymous` audience, restricted by an
   * administrator for `restricted`. `expiresInSeconds` shortens the access token's lifetime.
   */
  async function signIn(
    projectId: string,
    opts: { audience?: AudienceKind; expiresInSeconds?: number; email?: string } = {},
  ) {
    const audience = opts.audience ?? "default";
    const project = await deps.projects.find(projectId);
    if (!project) throw new Error(`No project ${projectId}`);
    const signedIn = await deps.sessions.signInNew(
      (tx) =>
        deps.users.createRecord(tx, {
          project,
          isAnonymous: audience === "anonymous",
          ...(opts.email ? { email: { value: opts.email, verified: true, usedForAuth: true } } : {}),
        }),
      "test",
    );
    const { sessionId, refreshToken } = signedIn;
    let { user } = signedIn;
    if (audience === "restricted") {
      // A restricted user cannot sign in (a ban refuses it): restricted after the session opened, as by a ban
      // racing the sign-in, without the ban's sign-out.
      await deps.usersRepo.update(deps.db, user.id, { restrictedByAdmin: true });
      user = (await deps.usersRepo.find(projectId, user.id)) ?? user;
    }
    const lifetimeMs = opts.expiresInSeconds === undefined ? undefined : opts.expiresInSeconds * 1000;
    const accessToken = await deps.sessions.mintAccessToken(user, sessionId, lifetimeMs);
    return { accessToken, refreshToken, userId: user.id, sessionId };
  }

  const mintAccessToken = async (projectId: string, opts: Parameters<typeof signIn>[1] = {}) =>
    (await signIn(projectId, opts)).accessToken;

  const internal: ProjectKeys = {
    projectId: INTERNAL_PROJECT_ID,
    pck: internalKeys.publishableClientKey,
    ssk: internalKeys.secretServerKey,
    sak: internalKeys.superSecretAdminKey,
  };

  return {
    app,
    deps,
    database,
    clock,
    internal,
    createProject,
    signIn,
    mintAccessToken,
    /** `app.request` with a path relative to the server origin. */
    request: (path: string, init?: RequestInit) => app.request(path, init),
    close: () => database.close(),
  };
}

export type TestServer = Awaited<ReturnType<typeof createTestServer>>;

export type AccessType = "client" | "server" | "admin";

/** Headers for an access type, with the keys of `keys` (x-stack-* spelling unless `prefix` says otherwise). */
export function accessHeaders(
  type: AccessType,
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

let addresses = 0;
/** A new client address per request, for tests that are not about the per-IP rate limit. */
export function uniqueIp(): string {
  addresses++;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

/** The header of a signed-in user's access token, with `extra` headers. */
export const withToken = (token: string, extra: Record<string, string> = {}) => ({
  "x-stack-access-token": token,
  ...extra,
});

/**
 * A suite's `post(path, body, headers?, type = "client", keys = the suite's keys)`: a JSON POST with the access
 * headers of `type`, each from a new client address unless `headers` names one, so the per-IP limits stay out of
 * the way. `suite` is a getter, since suites create their server and keys in beforeAll.
 */
export function jsonPost(suite: () => { server: TestServer; keys: ProjectKeys }) {
  return (
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
    type: AccessType = "client",
    keys: ProjectKeys = suite().keys,
  ) =>
    suite().server.request(path, {
      method: "POST",
      headers: {
        ...accessHeaders(type, keys),
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
        ...headers,
      },
      body: JSON.stringify(body),
    });
}

/**
 * A suite's `request(path, { method = "GET", body?, type = "server" })`: a request with the access headers of `type`,
 * a JSON body when one is given, from a new client address each time (the per-IP limits stay out of the way).
 * `suite` is a getter, since suites create their server and keys in beforeAll.
 */
export function apiRequest(suite: () => { server: TestServer; keys: ProjectKeys }) {
  return (path: string, init: { method?: string; body?: unknown; type?: AccessType } = {}) =>
    suite().server.request(path, {
      method: init.method ?? "GET",
      headers: {
        ...accessHeaders(init.type ?? "server", suite().keys),
        "x-forwarded-for": uniqueIp(),
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
}

let emails = 0;
/** An address no other test of the process uses. */
export const uniqueEmail = (prefix = "user") => `${prefix}-${++emails}@example.com`;

/** The HTTP status of a password sign-in, sent as a browser would (client access, an address of its own). */
export async function passwordSignInStatus(
  server: TestServer,
  keys: ProjectKeys,
  email: string,
  password: string,
): Promise<number> {
  const res = await server.request("/api/v1/auth/password/sign-in", {
    method: "POST",
    headers: {
      ...accessHeaders("client", keys),
      "content-type": "application/json",
      "x-forwarded-for": uniqueIp(),
    },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}
