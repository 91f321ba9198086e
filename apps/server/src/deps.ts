// The composition root: every repository and service is built here once and passed down. No module singletons.
import { hkdfSync } from "node:crypto";
import { createAnalyticsEventsRepo } from "./analytics/events-repo.ts";
import { createAnalyticsService } from "./analytics/service.ts";
import { createAuditLog } from "./audit/log.ts";
import { createAuditScope } from "./audit/scope.ts";
import { type Clock, systemClock } from "./clock.ts";
import { DEFAULT_DASHBOARD_DIR } from "./config.ts";
import { createPasswordHasher, type PasswordHasher } from "./crypto/password.ts";
import { createSecretBox } from "./crypto/secret-box.ts";
import { createApiKeysRepo } from "./db/api-keys-repo.ts";
import { createCliAuthRepo } from "./db/cli-auth-repo.ts";
import type { Database } from "./db/client.ts";
import { createConfigOverridesRepo } from "./db/config-overrides-repo.ts";
import { createMetricsRepo } from "./db/metrics-repo.ts";
import { createOAuthAccountsRepo } from "./db/oauth-accounts-repo.ts";
import { createProjectPermissionsRepo } from "./db/project-permissions-repo.ts";
import { createProjectsRepo } from "./db/projects-repo.ts";
import { createRequestRepo } from "./db/request-repo.ts";
import { createSessionsRepo } from "./db/sessions-repo.ts";
import { createSigningKeysRepo } from "./db/signing-keys-repo.ts";
import { createTeamsRepo } from "./db/teams-repo.ts";
import { createUsersRepo } from "./db/users-repo.ts";
import { createMailer, type SmtpSettings, smtpFromEmailConfig } from "./email/mailer.ts";
import { createNotificationPreferences } from "./email/notification-preferences.ts";
import { createEmailOutbox } from "./email/outbox.ts";
import { createStackOutbox } from "./email/outbox-stack.ts";
import { createSendEmail } from "./email/send-email.ts";
import { createUnsubscribeTokens } from "./email/unsubscribe.ts";
import { createEmailWorker } from "./email/worker.ts";
import { createImportJobs } from "./import-jobs/service.ts";
import { createImportJobWorker } from "./import-jobs/worker.ts";
import { createBulkImport } from "./importers/bulk.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createConnectedAccounts } from "./oauth/connected-accounts.ts";
import { createCrossDomainHandOff } from "./oauth/cross-domain.ts";
import { createDevelopmentProvider } from "./oauth/development-provider.ts";
import { createProviderDirectory, type OAuthCredentials } from "./oauth/directory.ts";
import { createOAuthFlow } from "./oauth/flow.ts";
import { createObservability, type ObservabilityOptions } from "./observability/index.ts";
import { tracedMailer, tracedWebhookSender } from "./observability/traced.ts";
import { createOidcProvider } from "./oidc-provider/index.ts";
import { createActivityRecorder } from "./services/activity.ts";
import { createApiKeyService } from "./services/api-keys.ts";
import { createCliAuthService } from "./services/cli-auth.ts";
import { createConfigOverrideService } from "./services/config-overrides.ts";
import { createEmailVerification } from "./services/email-verification.ts";
import { createEmailService } from "./services/emails.ts";
import { createMetricsService } from "./services/metrics.ts";
import { createMfaService } from "./services/mfa.ts";
import { createOtpAuth } from "./services/otp-auth.ts";
import { createPasskeyService } from "./services/passkeys.ts";
import { createPasswordAuth } from "./services/password-auth.ts";
import { createPermissionService } from "./services/permissions.ts";
import { createProjectPermissionService } from "./services/project-permissions.ts";
import { createProjectSecrets, createProjectService } from "./services/projects.ts";
import { createDatabaseStore, type RateLimitStore } from "./services/rate-limit-stores.ts";
import { createRateLimiter, type RateLimitSettings } from "./services/rate-limits.ts";
import { createSessionService } from "./services/sessions.ts";
import { createSigningKeyService } from "./services/signing-keys.ts";
import { createTeamService } from "./services/teams.ts";
import { createUserUpdates } from "./services/user-updates.ts";
import { createUserService } from "./services/users.ts";
import { createVerificationCodeService } from "./services/verification-codes.ts";
import { createSso } from "./sso/index.ts";
import { createBotChallenge } from "./trust/bot-challenge.ts";
import { createNewDeviceNotice } from "./trust/new-device.ts";
import { createPasswordPolicy } from "./trust/password-policy.ts";
import { createTokenClaims } from "./trust/token-claims.ts";
import { createOwnedApiKeysRepo } from "./user-api-keys/repo.ts";
import { createOwnedApiKeyService } from "./user-api-keys/service.ts";
import { createWebhookEvents } from "./webhooks/events.ts";
import { createWebhookSender } from "./webhooks/sender.ts";
import { createWebhookService } from "./webhooks/service.ts";
import type { SvixSettings } from "./webhooks/svix.ts";
import { createWebhookWorker } from "./webhooks/worker.ts";

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
  /** The instance's SMTP server for projects on the shared e-mail config; none keeps e-mails as a dev inbox. */
  defaultSmtp?: SmtpSettings;
  rateLimits?: RateLimitSettings;
  /**
   * REDIS_URL: the store that counts rate limits in Redis instead of the database (main.ts makes it, loading ioredis
   * only then: about 15 MiB that an install without Redis never needs).
   */
  rateLimitStore?: RateLimitStore;
  trustProxy?: boolean;
  /** Webhooks may go to loopback, private and link-local addresses (GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS). */
  webhookAllowPrivateUrls?: boolean;
  /** Forward webhook events to this Svix server instead of delivering them. */
  svix?: SvixSettings;
  /** The instance's credentials for shared OAuth providers. */
  sharedOAuth?: Record<string, OAuthCredentials>;
  /** GATEHOUSE_DEVELOPMENT_OAUTH: projects (or `*`) whose shared providers without credentials use test identities. */
  developmentOAuth?: readonly string[];
  /** GATEHOUSE_SSO_DNS_SERVERS: resolvers for SSO domain verification (the system's when empty). */
  ssoDnsServers?: readonly string[];
  /** GATEHOUSE_SSO_ALLOW_PRIVATE_URLS: SSO identity providers may be loopback or private addresses (tests, development). */
  ssoAllowPrivateUrls?: boolean;
  /** The dashboard's built files (GATEHOUSE_DASHBOARD_DIR), served under /dashboard. */
  dashboardDir?: string;
  /** GATEHOUSE_ANALYTICS_RETENTION_DAYS: how long analytics events are kept (default 30). */
  analyticsRetentionDays?: number;
  /** Metrics, traces and the /metrics token (main.ts); a metrics registry of its own otherwise. */
  observability?: ObservabilityOptions;
};

export function createDeps(options: DepsOptions) {
  const { database } = options;
  const db = database.db;
  const clock = options.clock ?? systemClock;
  const accessTokenLifetimeMs = options.accessTokenLifetimeMs ?? DEFAULT_ACCESS_TOKEN_LIFETIME_MS;
  const projectsRepo = createProjectsRepo(db);
  const projectSecrets = createProjectSecrets(options.secret);
  const logger = options.logger ?? createLogger();
  const auditScope = createAuditScope();
  const audit = createAuditLog({ db, clock, scope: auditScope, logger });
  const signingKeys = createSigningKeyService({
    repo: createSigningKeysRepo(db),
    box: createSecretBox(options.secret, "signing-keys"),
    clock,
    accessTokenLifetimeMs,
    changes: database.changes,
    audit,
  });
  const usersRepo = createUsersRepo(db);
  const teamsRepo = createTeamsRepo(db);
  const events = createWebhookEvents({ db, clock });
  const teams = createTeamService({ teamsRepo, usersRepo, events, clock, audit });
  const permissions = createPermissionService({ teamsRepo });
  const projectPermissionsRepo = createProjectPermissionsRepo(db);
  const projectPermissions = createProjectPermissionService({
    teamsRepo,
    grants: projectPermissionsRepo,
    usersRepo,
    events,
    clock,
    audit,
  });
  const oauthAccounts = createOAuthAccountsRepo(db);
  const sessionsRepo = createSessionsRepo(db, () => clock.now());
  const users = createUserService({
    repo: usersRepo,
    projects: projectsRepo,
    oauthAccounts,
    sessions: sessionsRepo,
    teams,
    projectPermissions,
    events,
    clock,
  });
  const activity = createActivityRecorder({ repo: sessionsRepo, logger });
  const outbox = createEmailOutbox({ db, clock });
  const newDevice = createNewDeviceNotice({ outbox, scope: auditScope, clock });
  const sessions = createSessionService({
    db,
    repo: sessionsRepo,
    users: usersRepo,
    signingKeys,
    clock,
    baseUrl: options.baseUrl,
    accessTokenLifetimeMs,
    activity,
    audit,
    rotationKey: Buffer.from(hkdfSync("sha256", options.secret, "gatehouse", "refresh-token-rotation", 32)),
    customClaims: createTokenClaims({ db, projectsRepo, teamsRepo, permissions, projectPermissions }).forUser,
    newDevice,
  });
  const hasher = options.hasher ?? createPasswordHasher();
  const rateLimitStore = options.rateLimitStore ?? createDatabaseStore(database);
  const rateLimits = createRateLimiter({
    store: rateLimitStore,
    clock,
    settings: options.rateLimits ?? { enabled: true },
  });
  const codes = createVerificationCodeService({ db, clock });
  const emails = createEmailService({ outbox });
  const emailVerification = createEmailVerification({ codes, emails, usersRepo });
  const totpBox = createSecretBox(options.secret, "totp");
  const mfa = createMfaService({ db, clock, codes, sessions, usersRepo, totpBox, rateLimits, audit });
  const notificationPreferences = createNotificationPreferences({ db, clock });
  const unsubscribeTokens = createUnsubscribeTokens({
    key: Buffer.from(hkdfSync("sha256", options.secret, "gatehouse", "email-unsubscribe", 32)),
    now: () => clock.now().getTime(),
  });
  const tracing = options.observability?.tracing;
  const emailWorker = createEmailWorker({
    db,
    clock,
    logger,
    changes: database.changes,
    ...(tracing ? { mailer: tracedMailer(createMailer(), tracing) } : {}),
    defaultSmtp: options.defaultSmtp,
    // A user who unsubscribed after an app queued (or scheduled) the e-mail is skipped at send time, as in Stack.
    skipReason: (row) => notificationPreferences.skipReason(row),
    getProjectEmail: async (projectId) => {
      const project = await projectsRepo.find(projectId);
      return {
        smtp: project && smtpFromEmailConfig(projectSecrets.open(project.config).email_config),
        // An unknown project (deleted since) counts as production: its mail's links are not logged.
        productionMode: project?.isProductionMode ?? true,
      };
    },
  });
  const oauthBox = createSecretBox(options.secret, "oauth");
  const developmentProvider = createDevelopmentProvider({
    box: createSecretBox(options.secret, "oauth-development"),
    baseUrl: options.baseUrl,
    now: () => clock.now().getTime(),
  });
  const oauthDirectory = createProviderDirectory({
    baseUrl: options.baseUrl,
    clock,
    secrets: projectSecrets,
    development: developmentProvider,
    sharedCredentials: options.sharedOAuth ?? {},
    developmentProjects: options.developmentOAuth ?? [],
  });
  const webhookBox = createSecretBox(options.secret, "webhooks");
  const analytics = createAnalyticsService({
    repo: createAnalyticsEventsRepo(db),
    clock,
    logger,
    retentionDays: options.analyticsRetentionDays,
  });
  const allowPrivateUrls = options.webhookAllowPrivateUrls ?? false;
  const projects = createProjectService({
    db,
    repo: projectsRepo,
    signingKeys,
    permissions,
    clock,
    secrets: projectSecrets,
    audit,
  });
  const observability = createObservability(database, () => clock.now(), options.observability);
  const bulkImport = createBulkImport({ db, users, teams });
  return {
    database,
    db,
    audit,
    auditScope,
    observability,
    clock,
    logger,
    baseUrl: options.baseUrl,
    development: options.development ?? false,
    dashboardDir: options.dashboardDir ?? DEFAULT_DASHBOARD_DIR,
    accessTokenLifetimeMs,
    projectsRepo,
    projectSecrets,
    projects,
    /** Seals data vault values at rest (the SDK has already encrypted them with the app's own secret). */
    dataVaultBox: createSecretBox(options.secret, "data-vault"),
    configOverrides: createConfigOverrideService({
      db,
      clock,
      repo: createConfigOverridesRepo(),
      projects,
      projectsRepo,
      secrets: projectSecrets,
      audit,
      box: createSecretBox(options.secret, "config-overrides"),
    }),
    apiKeys: createApiKeyService({ repo: createApiKeysRepo(), audit }),
    ownedApiKeys: createOwnedApiKeyService({
      db,
      repo: createOwnedApiKeysRepo(),
      usersRepo,
      teamsRepo,
      permissions,
      clock,
      audit,
    }),
    metrics: createMetricsService({ repo: createMetricsRepo(db), clock, analytics }),
    analytics,
    botChallenge: createBotChallenge({ secrets: projectSecrets, rateLimits, logger }),
    signingKeys,
    usersRepo,
    teamsRepo,
    teams,
    permissions,
    projectPermissionsRepo,
    projectPermissions,
    oauthAccounts,
    events,
    requestRepo: createRequestRepo(db),
    users,
    bulkImport,
    importJobs: createImportJobs({ db, clock }),
    importJobWorker: createImportJobWorker({ db, clock, logger, bulkImport, projectsRepo }),
    sessions,
    hasher,
    rateLimits,
    rateLimitStore,
    activity,
    trustProxy: options.trustProxy ?? false,
    codes,
    outbox,
    emails,
    emailVerification,
    emailWorker,
    notificationPreferences,
    unsubscribeTokens,
    stackOutbox: createStackOutbox({ db, clock }),
    sendEmail: createSendEmail({
      db,
      clock,
      baseUrl: options.baseUrl,
      templates: emails,
      preferences: notificationPreferences,
      unsubscribeTokens,
    }),
    defaultSmtp: options.defaultSmtp,
    webhooks: createWebhookService({
      db,
      clock,
      box: webhookBox,
      tokenBox: createSecretBox(options.secret, "webhook-tokens"),
      baseUrl: options.baseUrl,
      allowPrivateUrls,
    }),
    webhookWorker: createWebhookWorker({
      db,
      clock,
      logger,
      box: webhookBox,
      allowPrivateUrls,
      svix: options.svix,
      ...(tracing
        ? {
            sender: tracedWebhookSender(
              createWebhookSender({ clock, box: webhookBox, allowPrivateUrls }),
              tracing,
            ),
          }
        : {}),
    }),
    passwordAuth: createPasswordAuth({
      db,
      hasher,
      users,
      usersRepo,
      sessions,
      mfa,
      codes,
      emails,
      emailVerification,
      rateLimits,
      passwordPolicy: createPasswordPolicy({
        onRangeFailure: (error) =>
          logger.warn("breached-password range service unreachable: the shipped list decides", {}, error),
      }),
      audit,
      currentDeviceHash: newDevice.currentDeviceHash,
    }),
    userUpdates: createUserUpdates({
      db,
      repo: usersRepo,
      oauthAccounts,
      users,
      teamsRepo,
      hasher,
      clock,
      totpBox,
      sessions,
      audit,
    }),
    otpAuth: createOtpAuth({ db, codes, emails, users, usersRepo, mfa, rateLimits }),
    passkeys: createPasskeyService({ db, clock, codes, usersRepo, mfa }),
    mfa,
    cliAuth: createCliAuthService({ db, clock, repo: createCliAuthRepo(db), usersRepo, sessions }),
    crossDomain: createCrossDomainHandOff({ db, clock, codes, usersRepo }),
    developmentProvider,
    oauthDirectory,
    oauth: createOAuthFlow({
      db,
      clock,
      codes,
      projectsRepo,
      usersRepo,
      users,
      sessions,
      mfa,
      accounts: oauthAccounts,
      directory: oauthDirectory,
      tokenBox: oauthBox,
    }),
    sso: createSso({
      db,
      clock,
      secret: options.secret,
      baseUrl: options.baseUrl,
      codes,
      projectsRepo,
      teamsRepo,
      usersRepo,
      sessionsRepo,
      users,
      teams,
      events,
      audit,
      // Its own switch (not webhooks'): only tests and development reach their own network.
      allowPrivateUrls: options.ssoAllowPrivateUrls ?? false,
      dnsServers: options.ssoDnsServers ?? [],
    }),
    // [GO] Gatehouse as an OpenID Provider (oidc-provider/).
    oidcProvider: createOidcProvider({
      db,
      clock,
      secret: options.secret,
      baseUrl: options.baseUrl,
      trustProxy: options.trustProxy ?? false,
      usersRepo,
      teamsRepo,
      signingKeys,
      box: createSecretBox(options.secret, "oidc-provider"),
      allowPrivateUrls,
      logger,
      async sessionOf(projectId, sessionId) {
        const session = await sessions.find(projectId, sessionId);
        if (!session) return undefined;
        const user = await usersRepo.find(projectId, session.userId);
        return {
          startedAt: Math.floor(session.createdAt.getTime() / 1000),
          amr: session.amr,
          secondFactor: Boolean(user?.sealedTotpSecret),
        };
      },
      async consentPageUrl(projectId, interactionId) {
        const domain = (await projectsRepo.find(projectId))?.config.domains[0];
        if (!domain) return undefined;
        const query = new URLSearchParams({ interaction_id: interactionId });
        return `${domain.domain}${domain.handler_path.replace(/\/$/, "")}/oidc-consent?${query}`;
      },
    }),
    connectedAccounts: createConnectedAccounts({
      clock,
      accounts: oauthAccounts,
      directory: oauthDirectory,
      tokenBox: oauthBox,
    }),
  };
}

export type Deps = ReturnType<typeof createDeps>;
