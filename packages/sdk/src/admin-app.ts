// StackAdminApp: a project administrator's app, with the super secret admin key or, for the dashboard, an internal
// user's access token ("owned" admin apps, which have no token store of their own). Project settings, API keys,
// permission definitions, e-mail templates and the webhook token (WIRE.md §4.12–§4.16).
import type { AuditEntry, ImportJob, ImportJobDetail, ImportProvider, OidcClient } from "@gatehouse/contract";
import { resolveSuperSecretAdminKey } from "./app-options.ts";
import type { Project } from "./client-app.ts";
import { configCalls, createConfigChanges } from "./config-calls.ts";
import { defined, del, jsonBody, patch } from "./context.ts";
import { adminAppPaymentCalls } from "./customer-apps.ts";
import { emailTsxCalls, outboxCalls } from "./emails.ts";
import type { Result } from "./errors.ts";
import { outsideServiceAdminCalls } from "./outside-services.ts";
import {
  type PermissionDefinition,
  type PermissionDefinitionCreateOptions,
  type PermissionDefinitionUpdateOptions,
  permissionDefinitionCalls,
} from "./permission-definitions.ts";
import { type ServerAppOptions, StackServerApp } from "./server-app.ts";
import { sessionReplayCalls } from "./session-replays.ts";

/** [GO] What registering an OAuth client takes (POST /oidc-provider/clients). */
export type OidcClientCreateOptions = {
  display_name: string;
  type: "confidential" | "public";
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  allowed_scopes?: string[];
  logo_url?: string | null;
  first_party?: boolean;
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
  /** private_key_jwt: the client's public keys, or where to fetch them. */
  jwks?: { keys: Record<string, unknown>[] } | null;
  jwks_uri?: string | null;
  id_token_signed_response_alg?: "ES256" | "RS256";
  backchannel_logout_uri?: string | null;
};

export type AdminAppOptions = Omit<ServerAppOptions, "secretServerKey"> & {
  secretServerKey?: string;
  superSecretAdminKey?: string;
  /** Owned admin app: the internal project's user whose access token administers this project. */
  projectOwnerSession?: { getTokens(): Promise<{ accessToken: string | null }> };
  /** Project data the app starts from (e.g. from a project list); it must be this app's project. */
  projectJson?: { id: string };
};

type Json = Record<string, unknown>;

/** `snake_case` keys of the wire ↔ `camelCase` keys of the SDK, recursively (configuration objects). */
const toCamel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const isLocalhostHost = (host: string) =>
  host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1" || host === "[::1]";

/** The production-mode problems of an admin view, in Stack's SDK wording and order, each with its fix page. */
function productionModeErrors(json: Json): { message: string; relativeFixUrl: string }[] {
  const config = json.config as { allow_localhost: boolean; domains: { domain: string }[] };
  const relativeFixUrl = `/projects/${json.id}/domains`;
  const errors: string[] = [];
  if (config.allow_localhost) {
    errors.push(
      "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
    );
  }
  for (const { domain } of config.domains) {
    const url = new URL(domain);
    if (isLocalhostHost(url.hostname))
      errors.push(`Localhost domains are not allowed to be trusted in production mode: ${domain}`);
    else if (/^\d+(\.\d+)*$/.test(url.hostname))
      errors.push(`Direct IPs are not valid for trusted domains in production mode: ${domain}`);
    else if (url.protocol !== "https:") errors.push(`Trusted domains should be HTTPS: ${domain}`);
  }
  return errors.map((message) => ({ message, relativeFixUrl }));
}

function mapKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, rename));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), mapKeys(v, rename)]));
}

export type AdminProjectUpdateOptions = {
  displayName?: string;
  description?: string | null;
  isProductionMode?: boolean;
  /** Stack's project logos: an https URL or a `data:image/…;base64,` URL; null removes one. */
  logoUrl?: string | null;
  logoFullUrl?: string | null;
  logoDarkModeUrl?: string | null;
  logoFullDarkModeUrl?: string | null;
  /** Any writable configuration key of WIRE.md §4.13, in camelCase (e.g. `signUpEnabled`, `domains`). */
  config?: Json;
};

export type ApiKeySet = {
  id: string;
  description: string;
  expiresAt: Date;
  manuallyRevokedAt: Date | null;
  createdAt: Date;
  publishableClientKey: { lastFour: string } | null;
  secretServerKey: { lastFour: string } | null;
  superSecretAdminKey: { lastFour: string } | null;
  revoke(): Promise<void>;
  whyInvalid(): "expired" | "manually-revoked" | null;
  isValid(): boolean;
};

export type SentEmail = {
  id: string;
  to: string;
  subject: string;
  text: string | null;
  html: string | null;
  templateType: string | null;
  /** `paused` and `skipped`: e-mails apps sent with `sendEmail` (see `listOutboxEmails` for Stack's view). */
  status: "queued" | "sent" | "failed" | "kept" | "paused" | "skipped";
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
};

export type ProjectMetrics = {
  totalUsers: number;
  totalAnonymousUsers: number;
  totalTeams: number;
  activeSessions: number;
  dailySignUps: { date: string; count: number }[];
  /** Full users last active in the 24 hours before now. */
  dailyActiveUsers: number;
  /** Full users last active in the 30 days before now. */
  monthlyActiveUsers: number;
  /** Full users who have each way to sign in (a user with several counts under each). */
  usersBySignInMethod: {
    password: number;
    otp: number;
    passkey: number;
    oauth: { providerId: string; users: number }[];
    none: number;
  };
  /** From Stack's browser event tracker, over the events kept (`retentionDays`); anonymous visitors included. */
  analytics: {
    retentionDays: number;
    /** Page views per UTC day, the same days as `dailySignUps`. */
    dailyPageViews: { date: string; count: number }[];
    /** Distinct users who sent events in the 24 hours before now. */
    dailyActiveUsers: number;
    /** Distinct users who sent events over the days of `dailyPageViews`. */
    monthlyActiveUsers: number;
  };
};

export type WebhookEndpointOptions = {
  url?: string;
  description?: string | null;
  /** Event types the endpoint receives; null for all. */
  filterTypes?: string[] | null;
  enabled?: boolean;
};

export type WebhookEndpoint = {
  id: string;
  url: string;
  description: string | null;
  filterTypes: string[] | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
};

export type WebhookAttempt = {
  id: string;
  endpointId: string;
  messageId: string;
  eventType: string;
  attemptNumber: number;
  status: "succeeded" | "failed" | "pending";
  responseStatusCode: number | null;
  responseBodyExcerpt: string | null;
  error: string | null;
  attemptedAt: Date;
  durationMillis: number;
  nextAttemptAt: Date | null;
};

const webhookEndpointJson = (data: WebhookEndpointOptions & { url?: string }) =>
  defined({
    url: data.url,
    description: data.description,
    filter_types: data.filterTypes,
    enabled: data.enabled,
  });

const webhookEndpointOf = (json: Json): WebhookEndpoint => ({
  id: json.id as string,
  url: json.url as string,
  description: (json.description as string | null) ?? null,
  filterTypes: (json.filter_types as string[] | null) ?? null,
  enabled: json.enabled as boolean,
  createdAt: new Date(json.created_at_millis as number),
  updatedAt: new Date(json.updated_at_millis as number),
});

const webhookAttemptOf = (json: Json): WebhookAttempt => ({
  id: json.id as string,
  endpointId: json.endpoint_id as string,
  messageId: json.message_id as string,
  eventType: json.event_type as string,
  attemptNumber: json.attempt_number as number,
  status: json.status as WebhookAttempt["status"],
  responseStatusCode: (json.response_status_code as number | null) ?? null,
  responseBodyExcerpt: (json.response_body_excerpt as string | null) ?? null,
  error: (json.error as string | null) ?? null,
  attemptedAt: new Date(json.attempted_at_millis as number),
  durationMillis: json.duration_millis as number,
  nextAttemptAt:
    typeof json.next_attempt_at_millis === "number" ? new Date(json.next_attempt_at_millis) : null,
});

/** The project as its admin app sees it (Stack's AdminProject): settings, counts, config calls, update, delete. */
export type AdminProject = Awaited<ReturnType<StackAdminApp["getProject"]>>;

export class StackAdminApp extends StackServerApp {
  constructor(options: AdminAppOptions) {
    if (
      options.projectJson &&
      options.projectId !== undefined &&
      options.projectJson.id !== options.projectId
    ) {
      throw new Error(
        `The project data given (${options.projectJson.id}) is not this app's project (${options.projectId}).`,
      );
    }
    const owner = options.projectOwnerSession;
    if (owner && options.tokenStore) {
      throw new Error("An admin app owned by a project owner's session has no token store of its own.");
    }
    super(options, {
      accessType: "admin",
      superSecretAdminKey: owner ? undefined : resolveSuperSecretAdminKey(options.superSecretAdminKey),
      adminAccessToken: owner ? async () => (await owner.getTokens()).accessToken : undefined,
    });
  }

  /** Who hears config writes through any project object of this app (`project.onConfigChange`). */
  private readonly configChanges = createConfigChanges();

  private adminRequest<T>(path: string, options = {}): Promise<T> {
    return this.transport.request<T>(path, options);
  }

  /** The project in the admin view (Stack's AdminProject): settings, counts, and calls to change it. */
  override async getProject() {
    const json = await this.adminRequest<Json>("/internal/projects/current");
    return this.adminProjectOf(json);
  }

  private adminProjectOf(json: Json) {
    const view = mapKeys(json, toCamel) as Json & {
      id: string;
      displayName: string;
      createdAtMillis: number;
      description?: string | null;
      isProductionMode?: boolean;
      ownerTeamId?: string | null;
      logoUrl?: string | null;
      logoFullUrl?: string | null;
      logoDarkModeUrl?: string | null;
      logoFullDarkModeUrl?: string | null;
    };
    // The admin view holds every key of the client view's config, and more.
    const config = view.config as Project["config"] & Json;
    return {
      ...view,
      id: view.id,
      displayName: view.displayName,
      createdAt: new Date(view.createdAtMillis),
      description: view.description ?? null,
      isProductionMode: view.isProductionMode ?? false,
      ownerTeamId: view.ownerTeamId ?? null,
      logoUrl: view.logoUrl ?? null,
      logoFullUrl: view.logoFullUrl ?? null,
      logoDarkModeUrl: view.logoDarkModeUrl ?? null,
      logoFullDarkModeUrl: view.logoFullDarkModeUrl ?? null,
      // Stack's cloud onboarding: Gatehouse projects need none.
      isDevelopmentEnvironment: false,
      onboardingStatus: "completed" as const,
      config,
      /** What would block production mode, computed here as Stack's SDK does (WIRE.md §7). */
      getProductionModeErrors: async () => productionModeErrors(json),
      ...configCalls((path, options) => this.adminRequest(path, options), this.configChanges),
      update: async (update: AdminProjectUpdateOptions) => {
        await this.adminRequest(
          "/internal/projects/current",
          patch(
            defined({
              display_name: update.displayName,
              description: update.description,
              is_production_mode: update.isProductionMode,
              logo_url: update.logoUrl,
              logo_full_url: update.logoFullUrl,
              logo_dark_mode_url: update.logoDarkModeUrl,
              logo_full_dark_mode_url: update.logoFullDarkModeUrl,
              config: update.config && mapKeys(update.config, toSnake),
            }),
          ),
        );
        if (update.config) this.configChanges.notify();
      },
      delete: async () => {
        await this.adminRequest("/internal/projects/current", del);
      },
    };
  }

  /** Sends the sign-in invitation e-mail (the `sign_in_invitation` template) to an address. */
  async sendSignInInvitationEmail(email: string, callbackUrl: string): Promise<void> {
    await this.adminRequest(
      "/internal/send-sign-in-invitation",
      jsonBody({ email, callback_url: callbackUrl }),
    );
  }

  async createInternalApiKey(options: {
    description: string;
    expiresAt: Date;
    hasPublishableClientKey: boolean;
    hasSecretServerKey: boolean;
    hasSuperSecretAdminKey: boolean;
  }) {
    const json = await this.adminRequest<Json>(
      "/internal/api-keys",
      jsonBody({
        description: options.description,
        expires_at_millis: options.expiresAt.getTime(),
        has_publishable_client_key: options.hasPublishableClientKey,
        has_secret_server_key: options.hasSecretServerKey,
        has_super_secret_admin_key: options.hasSuperSecretAdminKey,
      }),
    );
    return {
      ...this.apiKeySet(json),
      publishableClientKey: json.publishable_client_key as string | undefined,
      secretServerKey: json.secret_server_key as string | undefined,
      superSecretAdminKey: json.super_secret_admin_key as string | undefined,
    };
  }

  /** [GO] The project's OAuth/OIDC clients (Gatehouse as an OpenID Provider), in the wire's shape. */
  async listOidcClients(): Promise<OidcClient[]> {
    return (await this.adminRequest<{ items: OidcClient[] }>("/oidc-provider/clients")).items;
  }

  /** [GO] Registers a client; a confidential client's `client_secret` is in this answer only. */
  async createOidcClient(
    options: OidcClientCreateOptions,
  ): Promise<OidcClient & { client_secret: string | null }> {
    return this.adminRequest("/oidc-provider/clients", { method: "POST", body: options });
  }

  async updateOidcClient(
    clientId: string,
    changes: Partial<Omit<OidcClientCreateOptions, "type">>,
  ): Promise<OidcClient> {
    return this.adminRequest(`/oidc-provider/clients/${encodeURIComponent(clientId)}`, {
      method: "PATCH",
      body: changes,
    });
  }

  async deleteOidcClient(clientId: string): Promise<void> {
    await this.adminRequest(`/oidc-provider/clients/${encodeURIComponent(clientId)}`, { method: "DELETE" });
  }

  async listInternalApiKeys(): Promise<ApiKeySet[]> {
    const list = await this.adminRequest<{ items: Json[] }>("/internal/api-keys");
    return list.items.map((item) => this.apiKeySet(item));
  }

  private apiKeySet(json: Json): ApiKeySet {
    const revokedAt = json.manually_revoked_at_millis as number | undefined;
    const expiresAt = new Date(json.expires_at_millis as number);
    const whyInvalid = () =>
      revokedAt !== undefined
        ? ("manually-revoked" as const)
        : expiresAt.getTime() < Date.now()
          ? ("expired" as const)
          : null;
    // A key type the set lacks is null, as in Stack's SDK.
    const lastFour = (key: string) => {
      const value = json[key] as { last_four: string } | undefined;
      return value ? { lastFour: value.last_four } : null;
    };
    return {
      id: json.id as string,
      description: json.description as string,
      expiresAt,
      manuallyRevokedAt: revokedAt === undefined ? null : new Date(revokedAt),
      createdAt: new Date(json.created_at_millis as number),
      publishableClientKey: lastFour("publishable_client_key"),
      secretServerKey: lastFour("secret_server_key"),
      superSecretAdminKey: lastFour("super_secret_admin_key"),
      revoke: async () => {
        await this.adminRequest(`/internal/api-keys/${json.id}`, patch({ revoked: true }));
      },
      whyInvalid,
      isValid: () => whyInvalid() === null,
    };
  }

  async listTeamPermissionDefinitions() {
    const list = await this.adminRequest<{ items: Json[] }>("/team-permission-definitions");
    return list.items.map((d) => ({
      id: d.id as string,
      description: d.description as string | undefined,
      containedPermissionIds: d.contained_permission_ids as string[],
    }));
  }

  async createTeamPermissionDefinition(data: {
    id: string;
    description?: string;
    containedPermissionIds: string[];
  }) {
    await this.adminRequest(
      "/team-permission-definitions",
      jsonBody(
        defined({
          id: data.id,
          description: data.description,
          contained_permission_ids: data.containedPermissionIds,
        }),
      ),
    );
  }

  async updateTeamPermissionDefinition(
    permissionId: string,
    data: { id?: string; description?: string; containedPermissionIds?: string[] },
  ) {
    await this.adminRequest(
      `/team-permission-definitions/${encodeURIComponent(permissionId)}`,
      patch(
        defined({
          id: data.id,
          description: data.description,
          contained_permission_ids: data.containedPermissionIds,
        }),
      ),
    );
  }

  async deleteTeamPermissionDefinition(permissionId: string) {
    await this.adminRequest(`/team-permission-definitions/${encodeURIComponent(permissionId)}`, del);
  }

  /** A page of team permission definitions, in id order; `query` matches ids and descriptions. */
  listTeamPermissionDefinitionsPaginated(options: { limit: number; cursor?: string; query?: string }) {
    const calls = permissionDefinitionCalls(
      (path, opts) => this.adminRequest(path, opts),
      "/team-permission-definitions",
    );
    return calls.listPage(options);
  }

  /** Project permission definitions (Stack's names); the calls are shared with team definitions. */
  private get projectDefinitions() {
    return permissionDefinitionCalls(
      (path, options) => this.adminRequest(path, options),
      "/project-permission-definitions",
    );
  }

  listProjectPermissionDefinitions(): Promise<PermissionDefinition[]> {
    return this.projectDefinitions.list();
  }

  createProjectPermissionDefinition(data: PermissionDefinitionCreateOptions): Promise<PermissionDefinition> {
    return this.projectDefinitions.create(data);
  }

  updateProjectPermissionDefinition(
    permissionId: string,
    data: PermissionDefinitionUpdateOptions,
  ): Promise<void> {
    return this.projectDefinitions.update(permissionId, data);
  }

  deleteProjectPermissionDefinition(permissionId: string): Promise<void> {
    return this.projectDefinitions.delete(permissionId);
  }

  // Stack's e-mail methods (emails.ts): the outbox, and the TSX templates, themes and drafts it names.
  private readonly outbox = outboxCalls((path, options) => this.adminRequest(path, options));
  private readonly emailTsx = emailTsxCalls((path, options) => this.adminRequest(path, options));
  readonly listOutboxEmails = this.outbox.listOutboxEmails;
  readonly getOutboxEmail = this.outbox.getOutboxEmail;
  readonly updateOutboxEmail = this.outbox.updateOutboxEmail;
  readonly pauseOutboxEmail = this.outbox.pauseOutboxEmail;
  readonly unpauseOutboxEmail = this.outbox.unpauseOutboxEmail;
  readonly cancelOutboxEmail = this.outbox.cancelOutboxEmail;
  readonly listStackEmailTemplates = this.emailTsx.listStackEmailTemplates;
  readonly createEmailTemplate = this.emailTsx.createEmailTemplate;
  readonly deleteEmailTemplate = this.emailTsx.deleteEmailTemplate;
  readonly listEmailThemes = this.emailTsx.listEmailThemes;
  readonly createEmailTheme = this.emailTsx.createEmailTheme;
  readonly updateEmailTheme = this.emailTsx.updateEmailTheme;
  readonly deleteEmailTheme = this.emailTsx.deleteEmailTheme;
  readonly listEmailDrafts = this.emailTsx.listEmailDrafts;
  readonly createEmailDraft = this.emailTsx.createEmailDraft;
  readonly updateEmailDraft = this.emailTsx.updateEmailDraft;
  readonly deleteEmailDraft = this.emailTsx.deleteEmailDraft;
  readonly getEmailPreview = this.emailTsx.getEmailPreview;
  /**
   * Stack's SDK re-reads its cached drafts here (for its hooks). This SDK keeps no drafts cache: every
   * listEmailDrafts() reads the server, so there is nothing to refresh.
   */
  async refreshEmailDrafts(): Promise<void> {}
  readonly createItemQuantityChange = adminAppPaymentCalls((path, opts) =>
    this.adminRequest(path, opts),
  ).createItemQuantityChange;

  // Stack's payments, AI, analytics, managed-domain and onboarding methods (outside-services.ts).
  private readonly outside = outsideServiceAdminCalls((path, options) => this.adminRequest(path, options));
  readonly setupPayments = this.outside.setupPayments;
  readonly createStripeWidgetAccountSession = this.outside.createStripeWidgetAccountSession;
  readonly getStripeAccountInfo = this.outside.getStripeAccountInfo;
  readonly getPaymentMethodConfigs = this.outside.getPaymentMethodConfigs;
  readonly updatePaymentMethodConfigs = this.outside.updatePaymentMethodConfigs;
  readonly listTransactions = this.outside.listTransactions;
  readonly refundTransaction = this.outside.refundTransaction;
  readonly saveChatMessage = this.outside.saveChatMessage;
  readonly listChatMessages = this.outside.listChatMessages;
  readonly rewriteTemplateSourceWithAI = this.outside.rewriteTemplateSourceWithAI;
  readonly queryAnalytics = this.outside.queryAnalytics;
  readonly listManagedEmailDomains = this.outside.listManagedEmailDomains;
  readonly setupManagedEmailProvider = this.outside.setupManagedEmailProvider;
  readonly checkManagedEmailStatus = this.outside.checkManagedEmailStatus;
  readonly applyManagedEmailProvider = this.outside.applyManagedEmailProvider;
  readonly deleteManagedEmailDomain = this.outside.deleteManagedEmailDomain;
  readonly previewAffectedUsersByOnboardingChange = this.outside.previewAffectedUsersByOnboardingChange;

  // Session replays (session-replays.ts): none are recorded, as on a Stack backend without its replay store.
  private readonly replays = sessionReplayCalls((path, options) => this.adminRequest(path, options));
  readonly listSessionReplays = this.replays.listSessionReplays;
  readonly getSessionReplay = this.replays.getSessionReplay;
  readonly listSessionReplayChunks = this.replays.listSessionReplayChunks;
  readonly getSessionReplayChunkEvents = this.replays.getSessionReplayChunkEvents;
  readonly getSessionReplayEvents = this.replays.getSessionReplayEvents;

  async listEmailTemplates() {
    const list = await this.adminRequest<{ items: Json[] }>("/email-templates");
    return list.items.map((t) => ({
      type: t.type as string,
      subject: t.subject as string,
      content: t.content as string,
      isDefault: t.is_default as boolean,
    }));
  }

  async updateEmailTemplate(type: string, data: { subject?: string; content?: string }) {
    await this.adminRequest(`/email-templates/${type}`, patch(defined(data)));
  }

  async resetEmailTemplate(type: string) {
    await this.adminRequest(`/email-templates/${type}`, del);
  }

  /** [GO] A template rendered with sample values: as saved, or with an unsaved draft of its subject and content. */
  async previewEmailTemplate(type: string, draft: { subject?: string; content?: string } = {}) {
    return this.adminRequest<{ subject: string; html: string; text: string }>(
      `/email-templates/${type}/preview`,
      jsonBody(defined(draft)),
    );
  }

  /** Sends one e-mail at once through an SMTP server (before saving it as the project's), and says how it went. */
  async sendTestEmail(options: {
    recipientEmail: string;
    emailConfig: {
      host: string;
      port: number;
      username: string;
      password: string;
      senderName: string;
      senderEmail: string;
    };
  }): Promise<{ status: "ok" } | { status: "error"; errorMessage: string }> {
    const answer = await this.adminRequest<{ success: boolean; error_message?: string }>(
      "/internal/send-test-email",
      jsonBody({
        recipient_email: options.recipientEmail,
        email_config: mapKeys(options.emailConfig, toSnake),
      }),
    );
    return answer.success
      ? { status: "ok" }
      : { status: "error", errorMessage: answer.error_message ?? "The e-mail was not accepted." };
  }

  /** [GO] The project's outbox, newest first: the development inbox when no SMTP server is configured. */
  async listSentEmails(options: { to?: string; limit?: number } = {}): Promise<SentEmail[]> {
    const list = await this.adminRequest<{ items: Json[] }>("/internal/emails", {
      query: defined({ to: options.to, limit: options.limit?.toString() }),
    });
    return list.items.map((item) => {
      const email = mapKeys(item, toCamel) as Json;
      const at = (millis: unknown) => (typeof millis === "number" ? new Date(millis) : null);
      return { ...email, createdAt: at(email.createdAtMillis), sentAt: at(email.sentAtMillis) } as SentEmail;
    });
  }

  /**
   * [GO] The figures of the dashboard's overview: totals, daily and monthly active users, users by sign-in method,
   * and sign-ups per day for the last 30 days.
   */
  async getMetrics(): Promise<ProjectMetrics> {
    return mapKeys(await this.adminRequest<Json>("/internal/metrics"), toCamel) as ProjectMetrics;
  }

  // ---------------------------------------------------------------- webhooks (WIRE.md §4.16, management API)

  async listWebhookEventTypes(): Promise<string[]> {
    const list = await this.adminRequest<{ items: { type: string }[] }>("/internal/webhooks/event-types");
    return list.items.map((item) => item.type);
  }

  /**
   * A page of the project's audit log, newest first (issue 21): filters by type, actor, target and time, and the
   * cursor of the previous page's `nextCursor`.
   */
  async listAuditLog(
    options: {
      type?: string;
      actorId?: string;
      targetId?: string;
      /** Entries about a team (its members' permissions, SSO connections, API keys). */
      teamId?: string;
      fromMillis?: number;
      toMillis?: number;
      limit?: number;
      cursor?: string;
    } = {},
  ): Promise<{ items: AuditEntry[]; nextCursor: string | null }> {
    const query = new URLSearchParams();
    const fields: [string, string | number | undefined][] = [
      ["type", options.type],
      ["actor_id", options.actorId],
      ["target_id", options.targetId],
      ["team_id", options.teamId],
      ["from_millis", options.fromMillis],
      ["to_millis", options.toMillis],
      ["limit", options.limit],
      ["cursor", options.cursor],
    ];
    for (const [name, value] of fields)
      if (value !== undefined && value !== "") query.set(name, String(value));
    const page = await this.adminRequest<{ items: AuditEntry[]; pagination: { next_cursor: string | null } }>(
      `/audit-log?${query}`,
    );
    return { items: page.items, nextCursor: page.pagination.next_cursor };
  }

  // ---------------------------------------------------------------- import jobs (issue 23)

  /** Uploads a provider's export file; the server reads it whole, then imports it in the background. */
  async createImportJob(
    file: Blob,
    options: { provider: ImportProvider; fileName?: string; dryRun?: boolean },
  ): Promise<ImportJobDetail> {
    return this.adminRequest<ImportJobDetail>("/internal/imports/jobs", {
      method: "POST",
      query: { provider: options.provider, file_name: options.fileName, dry_run: options.dryRun },
      file,
      // A large file takes a while to send and read.
      timeoutMs: 10 * 60_000,
    });
  }

  async listImportJobs(): Promise<ImportJob[]> {
    return (await this.adminRequest<{ items: ImportJob[] }>("/internal/imports/jobs")).items;
  }

  async getImportJob(jobId: string): Promise<ImportJobDetail> {
    return this.adminRequest<ImportJobDetail>(`/internal/imports/jobs/${encodeURIComponent(jobId)}`);
  }

  async cancelImportJob(jobId: string): Promise<ImportJobDetail> {
    return this.adminRequest<ImportJobDetail>(`/internal/imports/jobs/${encodeURIComponent(jobId)}/cancel`, {
      method: "POST",
    });
  }

  async listWebhookEndpoints(): Promise<WebhookEndpoint[]> {
    const list = await this.adminRequest<{ items: Json[] }>("/internal/webhooks/endpoints");
    return list.items.map(webhookEndpointOf);
  }

  async createWebhookEndpoint(data: WebhookEndpointOptions & { url: string }): Promise<WebhookEndpoint> {
    return webhookEndpointOf(
      await this.adminRequest<Json>("/internal/webhooks/endpoints", jsonBody(webhookEndpointJson(data))),
    );
  }

  async updateWebhookEndpoint(endpointId: string, data: WebhookEndpointOptions): Promise<WebhookEndpoint> {
    return webhookEndpointOf(
      await this.adminRequest<Json>(
        `/internal/webhooks/endpoints/${encodeURIComponent(endpointId)}`,
        patch(webhookEndpointJson(data)),
      ),
    );
  }

  async deleteWebhookEndpoint(endpointId: string): Promise<void> {
    await this.adminRequest(`/internal/webhooks/endpoints/${encodeURIComponent(endpointId)}`, del);
  }

  async getWebhookEndpointSecret(endpointId: string): Promise<string> {
    const path = `/internal/webhooks/endpoints/${encodeURIComponent(endpointId)}/secret`;
    return (await this.adminRequest<{ secret: string }>(path)).secret;
  }

  /** A new signing secret; the old one stops being used at once. */
  async rotateWebhookEndpointSecret(endpointId: string): Promise<string> {
    const path = `/internal/webhooks/endpoints/${encodeURIComponent(endpointId)}/secret/rotate`;
    return (await this.adminRequest<{ secret: string }>(path, jsonBody({}))).secret;
  }

  /** The endpoint's last 100 delivery attempts, newest first. */
  async listWebhookAttempts(endpointId: string): Promise<WebhookAttempt[]> {
    const path = `/internal/webhooks/endpoints/${encodeURIComponent(endpointId)}/attempts`;
    const list = await this.adminRequest<{ items: Json[] }>(path);
    return list.items.map(webhookAttemptOf);
  }

  /**
   * Sends the `webhook.test` event to the endpoint at once and answers the attempt; with Stack's `{ endpointId }`
   * form, Stack's Result instead (an error carries the reason).
   */
  sendTestWebhook(endpointId: string): Promise<WebhookAttempt>;
  sendTestWebhook(options: { endpointId: string }): Promise<Result<undefined, { errorMessage: string }>>;
  async sendTestWebhook(
    arg: string | { endpointId: string },
  ): Promise<WebhookAttempt | Result<undefined, { errorMessage: string }>> {
    if (typeof arg !== "string") return this.outside.sendTestWebhook(arg);
    const endpointId = arg;
    const path = `/internal/webhooks/endpoints/${encodeURIComponent(endpointId)}/test`;
    return webhookAttemptOf(await this.adminRequest<Json>(path, jsonBody({})));
  }

  /** A short-lived token for the webhook management API (WIRE.md §4.16). */
  async getSvixToken(): Promise<string> {
    return (await this.adminRequest<{ token: string }>("/webhooks/svix-token", jsonBody({}))).token;
  }
}
