// The database schema (drizzle). SQL migrations are generated from it with `npm run db:generate` and committed.
import type { ProjectConfig, PublicJwk } from "@gatehouse/contract";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

/** The owning project: everything of a project goes when the project is deleted. */
const projectIdColumn = () =>
  text("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" });

export const projects = pgTable("projects", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull(),
  description: text("description"),
  createdAt: createdAt(),
  isProductionMode: boolean("is_production_mode").notNull().default(false),
  /** A team of project `internal` whose members administer this project (teams arrive with the users issue). */
  ownerTeamId: uuid("owner_team_id"),
  config: jsonb("config").$type<ProjectConfig>().notNull(),
  /**
   * The domains whose addresses must sign in through SSO (verified, `enforce_sso`), sorted: kept by a trigger on
   * sso_domains (migration 0025), whatever changes them (a cascade included), so a password sign-in or sign-up checks
   * the project row its request read instead of sending a query of its own.
   */
  ssoEnforcedDomains: text("sso_enforced_domains").array().notNull().default(sql`'{}'::text[]`),
  /**
   * The internal project only: when its first operator's seat was taken (the first full sign-up joined the owner
   * team, or found an operator already in it). From then on no sign-up joins the owner team, even if it is emptied
   * later (migration 0026). Null on every other project.
   */
  firstOperatorAt: timestamp("first_operator_at", { withTimezone: true, mode: "date" }),
});

/**
 * A set of up to three project keys sharing description, expiry and revocation. Only SHA-256 hashes and the
 * last four characters are kept: a database leak does not leak working keys.
 */
export const apiKeySets = pgTable(
  "api_key_sets",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    description: text("description").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    manuallyRevokedAt: timestamp("manually_revoked_at", { withTimezone: true, mode: "date" }),
    publishableClientKeyHash: text("publishable_client_key_hash"),
    publishableClientKeyLastFour: text("publishable_client_key_last_four"),
    secretServerKeyHash: text("secret_server_key_hash"),
    secretServerKeyLastFour: text("secret_server_key_last_four"),
    superSecretAdminKeyHash: text("super_secret_admin_key_hash"),
    superSecretAdminKeyLastFour: text("super_secret_admin_key_last_four"),
  },
  (t) => [
    index("api_key_sets_project_idx").on(t.projectId),
    uniqueIndex("api_key_sets_pck_hash_idx").on(t.publishableClientKeyHash),
    uniqueIndex("api_key_sets_ssk_hash_idx").on(t.secretServerKeyHash),
    uniqueIndex("api_key_sets_sak_hash_idx").on(t.superSecretAdminKeyHash),
  ],
);

/**
 * API keys held by a user or a team (exactly one of them) of a project, which the app's back end checks. Like the
 * project keys, only the SHA-256 hash and the last four characters are kept.
 */
export const ownedApiKeys = pgTable(
  "owned_api_keys",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    teamId: uuid("team_id").references(() => teams.id, { onDelete: "cascade" }),
    description: text("description").notNull(),
    isPublic: boolean("is_public").notNull(),
    keyHash: text("key_hash").notNull(),
    lastFour: text("last_four").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    manuallyRevokedAt: timestamp("manually_revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("owned_api_keys_hash_idx").on(t.keyHash),
    index("owned_api_keys_user_idx").on(t.projectId, t.userId),
    index("owned_api_keys_team_idx").on(t.projectId, t.teamId),
    check("owned_api_keys_one_owner", sql`(${t.userId} is null) <> (${t.teamId} is null)`),
  ],
);

/** Token audiences: normal users, restricted users and anonymous users each have their own keys (WIRE.md §3.2). */
export const AUDIENCE_KINDS = ["default", "restricted", "anonymous"] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];

/** The credential an impersonation session was created with (sessions.impersonated_by). */
export type ImpersonatorKind = "operator" | "admin_key" | "server_key";

/**
 * Per-project ES256 signing keys. A key is published from `created_at`, signs from `signs_from` (at least the
 * JWKS cache time later, so verifiers already have it), and leaves the JWKS once `retired_at` is set.
 */
export const signingKeys = pgTable(
  "signing_keys",
  {
    id: text("id").primaryKey(),
    projectId: projectIdColumn(),
    audience: text("audience").$type<AudienceKind>().notNull(),
    publicJwk: jsonb("public_jwk").$type<PublicJwk>().notNull(),
    /** The private JWK sealed with the server secret. */
    sealedPrivateJwk: text("sealed_private_jwk").notNull(),
    createdAt: createdAt(),
    signsFrom: timestamp("signs_from", { withTimezone: true, mode: "date" }).notNull(),
    retiredAt: timestamp("retired_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("signing_keys_project_idx").on(t.projectId).where(sql`${t.retiredAt} is null`)],
);

/** Users of a project. Passwords are argon2id PHC strings (or imported hashes until the next sign-in). */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    displayName: text("display_name"),
    profileImageUrl: text("profile_image_url"),
    clientMetadata: jsonb("client_metadata"),
    clientReadOnlyMetadata: jsonb("client_read_only_metadata"),
    serverMetadata: jsonb("server_metadata"),
    passwordHash: text("password_hash"),
    otpAuthEnabled: boolean("otp_auth_enabled").notNull().default(false),
    /** The TOTP secret sealed with the server secret. */
    sealedTotpSecret: text("sealed_totp_secret"),
    /** The last TOTP time step that signed this user in: each TOTP value is accepted once (WIRE.md §4.3 [GF]). */
    totpLastUsedStep: bigint("totp_last_used_step", { mode: "number" }),
    isAnonymous: boolean("is_anonymous").notNull().default(false),
    restrictedByAdmin: boolean("restricted_by_admin").notNull().default(false),
    restrictedByAdminReason: text("restricted_by_admin_reason"),
    restrictedByAdminPrivateDetails: text("restricted_by_admin_private_details"),
    countryCode: text("country_code"),
    riskScores: jsonb("risk_scores").$type<{ sign_up: { bot: number; free_trial_abuse: number } }>(),
    /** Cleared when the membership or the team goes (teams.ts clears it; the foreign key is a safety net). */
    /**
     * What `GET /users?query=` searches: the lower-cased display name and contact-channel values, one per line,
     * kept current by database triggers (migration 0005) and indexed by trigrams.
     */
    searchText: text("search_text").notNull().default(""),
    selectedTeamId: uuid("selected_team_id").references((): AnyPgColumn => teams.id, {
      onDelete: "set null",
    }),
    signedUpAt: timestamp("signed_up_at", { withTimezone: true, mode: "date" }).notNull(),
    lastActiveAt: timestamp("last_active_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("users_project_signed_up_idx").on(t.projectId, t.signedUpAt, t.id),
    index("users_project_last_active_idx").on(t.projectId, t.lastActiveAt, t.id),
    index("users_search_idx").using("gin", t.searchText.op("gin_trgm_ops")),
    /**
     * Imported users by their source's id and provider: what makes a bulk import idempotent (issue 23). The source id
     * leads: with the project first, PostgreSQL (its statistics not yet aware of a fresh million imported rows) read
     * every imported user of the project and filtered the batch's ids after (1.8 s per batch at 800,000 users,
     * against 5 ms with the id first).
     */
    index("users_imported_from_idx")
      .on(
        sql`(${t.serverMetadata} #>> '{imported_from,id}')`,
        sql`(${t.serverMetadata} #>> '{imported_from,provider}')`,
        t.projectId,
      )
      .where(sql`(${t.serverMetadata} -> 'imported_from') is not null`),
  ],
);

/** Accounts at OAuth providers linked to a user (`oauth_providers` of the user object). */
export const oauthAccounts = pgTable(
  "oauth_accounts",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    providerId: text("provider_id").notNull(),
    accountId: text("account_id").notNull(),
    email: text("email"),
    /**
     * The provider's tokens, kept for connected accounts (WIRE.md §4.17), sealed with the server secret [GF]. Null
     * for accounts linked by `POST /users` or signed in through the development provider.
     */
    sealedAccessToken: text("sealed_access_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true, mode: "date" }),
    sealedRefreshToken: text("sealed_refresh_token"),
    /** The scopes the provider granted, as it reported them (space-separated), or null when it did not say. */
    grantedScopes: text("granted_scopes"),
    /** Whether the account signs its user in; off, it is only a connected account (Stack's `allow_sign_in`). */
    allowSignIn: boolean("allow_sign_in").notNull().default(true),
    /** Whether apps may get provider tokens for it (Stack's `allow_connected_accounts`). */
    allowConnectedAccounts: boolean("allow_connected_accounts").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    // Only one account signs in as a given provider account; others (connected only) may repeat it, as in Stack.
    uniqueIndex("oauth_accounts_provider_account_idx")
      .on(t.projectId, t.providerId, t.accountId)
      .where(sql`${t.allowSignIn}`),
    index("oauth_accounts_user_idx").on(t.userId),
  ],
);

/**
 * A user's passkey (WIRE.md §4.4): at most one per user, so registering again replaces it. The credential id is
 * unique per project, so a discoverable sign-in finds exactly one user.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** base64url, as WebAuthn's JSON encodes it. */
    credentialId: text("credential_id").notNull(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    /** The authenticator's signature counter; a sign-in must bring a larger one unless both are 0. */
    counter: bigint("counter", { mode: "number" }).notNull(),
    transports: jsonb("transports").$type<string[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("passkeys_user_idx").on(t.userId),
    uniqueIndex("passkeys_credential_idx").on(t.projectId, t.credentialId),
  ],
);

/**
 * Single-use recovery codes of a user's TOTP second factor [GO], stored as SHA-256 hashes. They belong to the secret
 * they were made for (`totp_secret_hash`, the hash of the sealed secret): replacing or removing the secret voids them.
 */
export const mfaRecoveryCodes = pgTable(
  "mfa_recovery_codes",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    totpSecretHash: text("totp_secret_hash").notNull(),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("mfa_recovery_codes_user_idx").on(t.userId)],
);

export const teams = pgTable(
  "teams",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    displayName: text("display_name").notNull(),
    profileImageUrl: text("profile_image_url"),
    clientMetadata: jsonb("client_metadata"),
    clientReadOnlyMetadata: jsonb("client_read_only_metadata"),
    serverMetadata: jsonb("server_metadata"),
    createdAt: createdAt(),
  },
  (t) => [index("teams_project_created_idx").on(t.projectId, t.createdAt, t.id)],
);

/** Memberships, with the member's per-team display name and image (null: the user's own). */
export const teamMembers = pgTable(
  "team_members",
  {
    projectId: projectIdColumn(),
    teamId: uuid("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    displayName: text("display_name"),
    profileImageUrl: text("profile_image_url"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("team_members_user_idx").on(t.userId)],
);

/** Direct grants of team permissions (WIRE.md §6): contained permissions are expanded when read, never stored. */
export const teamPermissionGrants = pgTable(
  "team_permission_grants",
  {
    projectId: projectIdColumn(),
    teamId: uuid("team_id").notNull(),
    userId: uuid("user_id").notNull(),
    permissionId: text("permission_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId, t.permissionId] }),
    foreignKey({ columns: [t.teamId, t.userId], foreignColumns: [teamMembers.teamId, teamMembers.userId] })
      .onDelete("cascade")
      .onUpdate("cascade"),
    index("team_permission_grants_user_idx").on(t.userId),
    index("team_permission_grants_permission_idx").on(t.projectId, t.permissionId),
  ],
);

/**
 * A project's own permission definitions; the `$` system permissions are built in, not stored. Team and project
 * definitions share one id space, as in Stack (an id names one definition of one scope).
 */
export const permissionDefinitions = pgTable(
  "permission_definitions",
  {
    projectId: projectIdColumn(),
    id: text("id").notNull(),
    scope: text("scope").$type<"team" | "project">().notNull().default("team"),
    description: text("description"),
    containedPermissionIds: jsonb("contained_permission_ids").$type<string[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

/** Direct grants of project permissions to users; contained permissions are expanded when read, never stored. */
export const projectPermissionGrants = pgTable(
  "project_permission_grants",
  {
    projectId: projectIdColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    permissionId: text("permission_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.permissionId] }),
    index("project_permission_grants_permission_idx").on(t.projectId, t.permissionId),
  ],
);

/**
 * The webhook outbox (WIRE.md §4.16): every change records its event here in its own transaction; delivery reads
 * it from here.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: uuid("id").primaryKey(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    projectId: projectIdColumn(),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    /** Set once the event has been fanned out into one delivery per matching endpoint. */
    dispatchedAt: timestamp("dispatched_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("webhook_events_project_idx").on(t.projectId, t.seq),
    index("webhook_events_undispatched_idx").on(t.seq).where(sql`${t.dispatchedAt} is null`),
  ],
);

/** Where a project's webhooks go. The signing secret is sealed with the server secret; the previous one signs too
 * for 24 hours after a rotation. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    url: text("url").notNull(),
    description: text("description"),
    /** Event types delivered; null: all. */
    filterTypes: jsonb("filter_types").$type<string[] | null>(),
    enabled: boolean("enabled").notNull().default(true),
    sealedSecret: text("sealed_secret").notNull(),
    sealedPreviousSecret: text("sealed_previous_secret"),
    secretRotatedAt: timestamp("secret_rotated_at", { withTimezone: true, mode: "date" }),
    /** The first failure of an unbroken run of failures; an endpoint failing for 5 days is disabled. */
    failingSince: timestamp("failing_since", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("webhook_endpoints_project_idx").on(t.projectId)],
);

/** One event to one endpoint: retried with backoff until it succeeds or runs out of attempts. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").references(() => webhookEvents.id, { onDelete: "cascade" }),
    /** `msg_…`: the same on every attempt, so receivers can dedupe. */
    messageId: text("message_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The exact body sent on every attempt. */
    body: text("body").notNull(),
    status: text("status").$type<"pending" | "succeeded" | "failed">().notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    uniqueIndex("webhook_deliveries_event_endpoint_idx").on(t.eventId, t.endpointId),
  ],
);

/** Every delivery attempt, for the management API (last 100 per endpoint shown, kept 30 days). */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    deliveryId: uuid("delivery_id").references(() => webhookDeliveries.id, { onDelete: "set null" }),
    messageId: text("message_id").notNull(),
    eventType: text("event_type").notNull(),
    attemptNumber: integer("attempt_number").notNull(),
    status: text("status").$type<"succeeded" | "failed" | "pending">().notNull(),
    responseStatusCode: integer("response_status_code"),
    responseBodyExcerpt: text("response_body_excerpt"),
    error: text("error"),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, mode: "date" }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("webhook_attempts_endpoint_idx").on(t.endpointId, t.attemptedAt)],
);

/** Edited e-mail templates; a type without a row uses its default (WIRE.md §4.15). */
export const emailTemplates = pgTable(
  "email_templates",
  {
    projectId: projectIdColumn(),
    type: text("type").notNull(),
    subject: text("subject").notNull(),
    content: text("content").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.type] })],
);

/**
 * E-mail addresses of users. `normalized` is the lower-cased value: addresses are stored as given and matched
 * case-insensitively. An address used for sign-in belongs to at most one user of a project.
 */
export const contactChannels = pgTable(
  "contact_channels",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").$type<"email">().notNull().default("email"),
    value: text("value").notNull(),
    normalized: text("normalized").notNull(),
    isVerified: boolean("is_verified").notNull().default(false),
    isPrimary: boolean("is_primary").notNull().default(false),
    usedForAuth: boolean("used_for_auth").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("contact_channels_auth_idx")
      .on(t.projectId, t.type, t.normalized)
      .where(sql`${t.usedForAuth}`),
    uniqueIndex("contact_channels_user_value_idx").on(t.userId, t.type, t.normalized),
    uniqueIndex("contact_channels_primary_idx").on(t.userId, t.type).where(sql`${t.isPrimary}`),
  ],
);

/** Sessions: one per sign-in. The refresh token is stored only as its SHA-256 hash. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    refreshTokenHash: text("refresh_token_hash").notNull(),
    isImpersonation: boolean("is_impersonation").notNull().default(false),
    /**
     * [GF] Who started an impersonation session, kept for the audit log (null otherwise): the credential
     * (`operator`: an admin access token; `admin_key`; `server_key`) and, for an operator, their user id in the
     * internal project. No foreign key: the record outlives the operator's account.
     */
    impersonatedBy: text("impersonated_by").$type<ImpersonatorKind>(),
    impersonatorUserId: uuid("impersonator_user_id"),
    /**
     * [GO] How the user proved who they are when the session began, as RFC 8176 method references (pwd, otp, hwk,
     * mfa; fed for OAuth and SSO): the OpenID Provider hands them to apps as the id_token's amr and acr.
     */
    amr: text("amr").array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    uniqueIndex("sessions_refresh_hash_idx").on(t.refreshTokenHash),
    index("sessions_user_idx").on(t.userId),
    /** The overview's count of a project's active (unexpired) sessions. */
    index("sessions_project_expires_idx").on(t.projectId, t.expiresAt),
  ],
);

/**
 * Every e-mailed code and challenge (WIRE.md §5.1), stored as hashes: of the whole code, and of its last 39
 * characters (the nonce), so attempts can be counted per nonce.
 */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    purpose: text("purpose").notNull(),
    codeHash: text("code_hash").notNull(),
    nonceHash: text("nonce_hash").notNull(),
    redirectUrl: text("redirect_url"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("verification_codes_code_idx").on(t.codeHash),
    index("verification_codes_nonce_idx").on(t.projectId, t.nonceHash),
  ],
);

/**
 * The e-mail outbox: written in the transaction of the change that causes the e-mail, delivered by a worker with
 * retries. With no SMTP server configured, e-mails stay here as the development inbox (`kept`).
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey(),
    /** Insertion order: ids are random and many e-mails share a millisecond, so "newest first" needs this. */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    projectId: projectIdColumn(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    html: text("html"),
    text: text("text"),
    templateType: text("template_type").notNull(),
    /**
     * `paused` and `skipped` rows are never claimed by the worker (it takes `queued` only): an admin paused or
     * cancelled them, or the recipient had unsubscribed (`skipped_reason`, Stack's reasons).
     */
    status: text("status").$type<"queued" | "sent" | "failed" | "kept" | "paused" | "skipped">().notNull(),
    skippedReason: text("skipped_reason"),
    /** The user an app's `POST /emails/send-email` wrote to (no foreign key: the record outlives the user). */
    userId: uuid("user_id"),
    /** Stack's notification category of the e-mail; null for our own transactional e-mails. */
    notificationCategoryId: text("notification_category_id"),
    /** The one-click unsubscribe URL sent as the `List-Unsubscribe` header (marketing e-mail). */
    listUnsubscribeUrl: text("list_unsubscribe_url"),
    /** Stack's template id an app sent with, and its variables, as `GET /emails/outbox` reports them. */
    stackTemplateId: text("stack_template_id"),
    variables: jsonb("variables").$type<Record<string, unknown>>(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    lastError: text("last_error"),
  },
  (t) => [
    index("email_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
    index("email_outbox_project_idx").on(t.projectId, t.createdAt),
  ],
);

/** A user's choice per notification category (Stack's fixed categories); no row means the category's default. */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    projectId: projectIdColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    categoryId: text("category_id").notNull(),
    enabled: boolean("enabled").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.categoryId] })],
);

/**
 * Rate-limit buckets in the database, so every server process shares them: one row per bucket key holding the
 * times (epoch ms) of the attempts inside the bucket's sliding window, and whether the last attempt got a slot
 * (the one upsert that takes a slot answers with it, services/rate-limits.ts).
 */
export const rateLimitHits = pgTable("rate_limit_hits", {
  key: text("key").primaryKey(),
  hits: bigint("hits", { mode: "number" }).array().notNull(),
  lastAllowed: boolean("last_allowed").notNull(),
});

/**
 * The per-IP request buckets on PostgreSQL (services/rate-limit-stores.ts): one row per client IP with its current
 * fixed window's count and the previous window's, from which a sliding count is weighted. A counter, not a log of
 * times, because it is written on every request. Unlogged (in the migration): losing counts in a crash is harmless.
 */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  windowStart: bigint("window_start", { mode: "number" }).notNull(),
  count: integer("count").notNull(),
  previous: integer("previous").notNull(),
  lastAllowed: boolean("last_allowed").notNull(),
});

/**
 * Refresh tokens a session issued before its current one (refresh-token rotation, WIRE.md §3.4), kept as hashes
 * until the session ends so that a replayed old token is recognised as reuse.
 */
export const retiredRefreshTokens = pgTable(
  "retired_refresh_tokens",
  {
    hash: text("hash").primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    retiredAt: timestamp("retired_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("retired_refresh_tokens_session_idx").on(t.sessionId)],
);

/**
 * CLI login attempts (Stack's `/auth/cli`): the CLI holds the polling code, the browser the login code; both are
 * kept only as SHA-256 hashes. `completed` names the user who confirmed (the CLI's session is opened when it polls,
 * so no refresh token is ever stored); `anonUserId` is the CLI's anonymous user, when it sent one.
 */
export const cliAuthAttempts = pgTable(
  "cli_auth_attempts",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    pollingCodeHash: text("polling_code_hash").notNull(),
    loginCodeHash: text("login_code_hash").notNull(),
    anonUserId: uuid("anon_user_id"),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("cli_auth_attempts_polling_idx").on(t.pollingCodeHash),
    uniqueIndex("cli_auth_attempts_login_idx").on(t.loginCodeHash),
  ],
);

/**
 * Config-as-code overrides (Stack's `/internal/config/override/{level}`), one row per project and level. The
 * override is sealed with the server secret (it may hold provider secrets or SMTP passwords); `source` is where a
 * pushed (branch) config came from.
 */
export const configOverrides = pgTable(
  "config_overrides",
  {
    projectId: projectIdColumn(),
    level: text("level").$type<"project" | "branch" | "environment">().notNull(),
    sealedConfig: text("sealed_config").notNull(),
    source: jsonb("source").$type<Record<string, unknown>>(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.level] })],
);

/**
 * Page views and clicks from Stack's browser event tracker (POST /analytics/events/batch), kept for the retention
 * period (GATEHOUSE_ANALYTICS_RETENTION_DAYS) and counted on the overview. Times are the server's receipt time
 * (`created_at`, trusted: retention and counts use it) and the browser's (`event_at`, as sent).
 */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: projectIdColumn(),
    /** The signed-in (or anonymous) user who sent it; their events go with them. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The session (refresh token) of the access token; kept, as null, after the session ends. */
    sessionId: uuid("session_id").references(() => sessions.id, { onDelete: "set null" }),
    eventType: text("event_type").notNull(),
    data: jsonb("data").notNull(),
    batchId: uuid("batch_id").notNull(),
    segmentId: uuid("segment_id").notNull(),
    eventAt: timestamp("event_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    /** The overview's counts of a project's recent events. */
    index("analytics_events_project_created_idx").on(t.projectId, t.createdAt),
    /** Pruning past the retention period, over every project. */
    index("analytics_events_created_idx").on(t.createdAt),
    index("analytics_events_user_idx").on(t.userId),
    index("analytics_events_session_idx").on(t.sessionId),
  ],
);

/** Messages of the dashboard's AI chat threads (`/internal/ai-chat/{thread}`), stored as the dashboard sends them. */
export const aiChatMessages = pgTable(
  "ai_chat_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Insertion order: several messages can share a millisecond, and the thread is read oldest first. */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    projectId: projectIdColumn(),
    threadId: text("thread_id").notNull(),
    content: jsonb("content").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("ai_chat_messages_thread_idx").on(t.projectId, t.threadId, t.seq)],
);

/** A project's e-mail capacity boost (`POST /emails/capacity-boost`): one row, replaced when a new boost starts. */
export const emailCapacityBoosts = pgTable("email_capacity_boosts", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
});

/**
 * Data vault values (`/data-vault/stores/{id}/…`): the SDK hashes the key and encrypts the value with the app's
 * secret before sending; the server seals that ciphertext again with its own secret, like Stack's KMS layer.
 */
export const dataVaultEntries = pgTable(
  "data_vault_entries",
  {
    projectId: projectIdColumn(),
    storeId: text("store_id").notNull(),
    hashedKey: text("hashed_key").notNull(),
    sealedValue: text("sealed_value").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.storeId, t.hashedKey] })],
);

/**
 * [GO] A team's enterprise identity provider (sso/). `settings` holds the protocol's own values (OIDC: issuer and
 * client, the secret sealed; SAML: the IdP's entity id, sign-in URL and certificates), read through sso/settings.ts.
 */
export const ssoConnections = pgTable(
  "sso_connections",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    teamId: uuid("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    protocol: text("protocol").notNull(),
    displayName: text("display_name").notNull(),
    enabled: boolean("enabled").notNull(),
    settings: jsonb("settings").notNull(),
    attributeMapping: jsonb("attribute_mapping").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("sso_connections_team_idx").on(t.projectId, t.teamId, t.createdAt),
    check("sso_connections_protocol", sql`${t.protocol} in ('oidc', 'saml')`),
  ],
);

/** Who an identity provider says a user is (`sub` or NameID), per connection, and the user it signs in. */
export const ssoIdentities = pgTable(
  "sso_identities",
  {
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => ssoConnections.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    projectId: projectIdColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.subject] }),
    index("sso_identities_user_idx").on(t.userId),
  ],
);

/**
 * SAML assertion ids already accepted, until they expire: a replayed assertion is refused in every process, since
 * they all share this table. Rows past `expires_at` are useless (the assertion itself has expired) and are swept.
 */
export const ssoAssertionIds = pgTable(
  "sso_assertion_ids",
  {
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => ssoConnections.id, { onDelete: "cascade" }),
    assertionId: text("assertion_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.assertionId] }),
    index("sso_assertion_ids_expiry_idx").on(t.expiresAt),
  ],
);

/**
 * E-mail domains a team claims, proven by a DNS TXT record holding `verification_token`. A domain is verified for
 * one team of a project at most (the unique partial index): that team's connection signs in its addresses.
 */
export const ssoDomains = pgTable(
  "sso_domains",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    teamId: uuid("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    verificationToken: text("verification_token").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true, mode: "date" }),
    connectionId: uuid("connection_id").references(() => ssoConnections.id, { onDelete: "set null" }),
    enforceSso: boolean("enforce_sso").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("sso_domains_team_domain_idx").on(t.teamId, t.domain),
    uniqueIndex("sso_domains_verified_idx").on(t.projectId, t.domain).where(sql`${t.verifiedAt} is not null`),
  ],
);

/**
 * [GO] A team's SCIM bearer tokens (sso/scim/): shown once, stored as SHA-256 hashes, looked up by hash. Revoking
 * deletes the row, so a revoked token is unknown at once in every process.
 */
export const scimTokens = pgTable(
  "scim_tokens",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    teamId: uuid("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    description: text("description").notNull(),
    tokenHash: text("token_hash").notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("scim_tokens_hash_idx").on(t.tokenHash),
    index("scim_tokens_team_idx").on(t.projectId, t.teamId, t.createdAt),
  ],
);

/**
 * The users a team's identity provider provisioned through SCIM: the SCIM User's id is the user's id. `user_name` is
 * unique per team ignoring case (RFC 7643 §4.1.1: userName is not case-exact); `active` false is a deactivation.
 */
export const scimUsers = pgTable(
  "scim_users",
  {
    teamId: uuid("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    projectId: projectIdColumn(),
    userName: text("user_name").notNull(),
    externalId: text("external_id"),
    active: boolean("active").notNull(),
    /** The SCIM attributes as the client last sent them (name, emails, …), answered back as they were. */
    attributes: jsonb("attributes").notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    uniqueIndex("scim_users_user_name_idx").on(t.teamId, sql`lower(${t.userName})`),
  ],
);

/** A team's SCIM groups; a group's display name maps to team permissions through the team's SSO attribute mapping. */
export const scimGroups = pgTable(
  "scim_groups",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    teamId: uuid("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    displayName: text("display_name").notNull(),
    externalId: text("external_id"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [uniqueIndex("scim_groups_display_name_idx").on(t.teamId, sql`lower(${t.displayName})`)],
);

export const scimGroupMembers = pgTable(
  "scim_group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => scimGroups.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("scim_group_members_user_idx").on(t.userId)],
);

/**
 * [GO] Apps that sign users in with a project as their OpenID Provider (oidc-provider/). Confidential clients hold a
 * secret shown once at creation and kept only as its SHA-256 hash; public clients have none and must use PKCE.
 */
export const oidcClients = pgTable(
  "oidc_clients",
  {
    clientId: text("client_id").primaryKey(),
    projectId: projectIdColumn(),
    displayName: text("display_name").notNull(),
    clientType: text("client_type").$type<"confidential" | "public">().notNull(),
    secretHash: text("secret_hash"),
    redirectUris: jsonb("redirect_uris").$type<string[]>().notNull(),
    postLogoutRedirectUris: jsonb("post_logout_redirect_uris").$type<string[]>().notNull(),
    allowedScopes: jsonb("allowed_scopes").$type<string[]>().notNull(),
    logoUrl: text("logo_url"),
    firstParty: boolean("first_party").notNull().default(false),
    // How a confidential client authenticates at the token endpoint; public clients use none (PKCE only).
    tokenEndpointAuthMethod: text("token_endpoint_auth_method")
      .$type<"client_secret_basic" | "client_secret_post" | "private_key_jwt">()
      .notNull()
      .default("client_secret_basic"),
    /** [GO] private_key_jwt: the client's public keys, inline or at a URL (fetched through the public-address guard). */
    jwks: jsonb("jwks").$type<{ keys: Record<string, unknown>[] }>(),
    jwksUri: text("jwks_uri"),
    /** [GO] ES256 (the project's keys) or RS256 (the project's OpenID Provider RSA key) for this client's id_tokens. */
    idTokenSignedResponseAlg: text("id_token_signed_response_alg")
      .$type<"ES256" | "RS256">()
      .notNull()
      .default("ES256"),
    /** [GO] Where the client hears that a user's session ended (OpenID Connect Back-Channel Logout 1.0). */
    backchannelLogoutUri: text("backchannel_logout_uri"),
    createdAt: createdAt(),
  },
  (t) => [
    index("oidc_clients_project_idx").on(t.projectId, t.createdAt),
    check("oidc_clients_type", sql`${t.clientType} in ('confidential', 'public')`),
  ],
);

/**
 * [GO] oidc-provider's own records (sessions, interactions, codes, tokens, grants), one row each, through our storage
 * adapter. `account_id` ties a record to the user, so ending a user's sessions or deleting them ends their grants.
 */
export const oidcPayloads = pgTable(
  "oidc_payloads",
  {
    projectId: projectIdColumn(),
    model: text("model").notNull(),
    id: text("id").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    accountId: uuid("account_id").references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id"),
    grantId: text("grant_id"),
    uid: text("uid"),
    /**
     * [GO] The Gatehouse session an OP session was signed in from: signing out of it ends the OP session and tells
     * the apps (back-channel logout). No foreign key: the link is read in the transaction that ends the session.
     */
    gatehouseSessionId: uuid("gatehouse_session_id"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    consumedAt: timestamp("consumed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.model, t.id] }),
    index("oidc_payloads_grant_idx").on(t.projectId, t.grantId),
    index("oidc_payloads_uid_idx").on(t.projectId, t.uid),
    index("oidc_payloads_account_idx").on(t.projectId, t.accountId, t.clientId),
    index("oidc_payloads_expiry_idx").on(t.expiresAt),
    index("oidc_payloads_gatehouse_session_idx").on(t.gatehouseSessionId),
  ],
);

/**
 * [GO] The RS256 keys of a project's OpenID Provider, for clients that cannot verify ES256 id_tokens. Sealed with the
 * server secret like the ES256 keys; published in the provider's JWKS beside them. Rotated with them: a new key
 * signs from `signs_from` (an hour after it is published); the project's first key signs from the epoch, and the
 * unique (project, signs_from) makes two processes creating it at once end with one.
 */
export const oidcRsaKeys = pgTable(
  "oidc_rsa_keys",
  {
    kid: text("kid").primaryKey(),
    projectId: projectIdColumn(),
    sealedPrivateJwk: text("sealed_private_jwk").notNull(),
    createdAt: createdAt(),
    signsFrom: timestamp("signs_from", { withTimezone: true, mode: "date" }).notNull().default(new Date(0)),
  },
  (t) => [uniqueIndex("oidc_rsa_keys_project_signs_from_idx").on(t.projectId, t.signsFrom)],
);

/**
 * The audit log (issue 21): append-only, one row per security-relevant action, written in the transaction of the
 * change it records. Every index leads with (project_id, filter) and ends in (created_at, id), so a filtered page
 * is one index range scan in the order the list pages in, however many rows the project has.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    type: text("type").notNull(),
    /** `user`, `server_key`, `admin_key`, `admin_token`, `anonymous` or `system`. */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    targetType: text("target_type"),
    targetId: text("target_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    requestId: text("request_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_project_time_idx").on(t.projectId, t.createdAt, t.id),
    index("audit_log_project_type_idx").on(t.projectId, t.type, t.createdAt, t.id),
    index("audit_log_project_actor_idx").on(t.projectId, t.actorId, t.createdAt, t.id),
    index("audit_log_project_target_idx").on(t.projectId, t.targetId, t.createdAt, t.id),
    // A team's entries (its members' permissions, SSO connections, API keys) name it in `details.team_id`; only
    // those rows are in the index, so it costs nothing for the rest.
    index("audit_log_project_team_idx")
      .on(t.projectId, sql`(${t.details} ->> 'team_id')`, t.createdAt, t.id)
      .where(sql`${t.details} ? 'team_id'`),
  ],
);

/**
 * [GO] The devices each user has signed in from (issue 21): a SHA-256 of browser, OS and IP network, so a sign-in
 * from one not listed e-mails the user a new-device notice (trust/new-device.ts). Only the hash is kept: the list
 * need not reveal where a user has been.
 */
export const knownDevices = pgTable(
  "known_devices",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceHash: text("device_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] })],
);

/**
 * [GO] Import jobs (issue 23): an export file uploaded through the admin API, imported in the background. The file is
 * read at upload into `import_job_records`, so any server process can run the job; the one running it holds a lease
 * (`claimed_by` until `lease_until`) it renews each batch, and a job whose lease ran out (its process died) is taken
 * up again from `processed`.
 */
export const importJobs = pgTable(
  "import_jobs",
  {
    id: uuid("id").primaryKey(),
    projectId: projectIdColumn(),
    provider: text("provider").notNull(),
    fileName: text("file_name").notNull(),
    dryRun: boolean("dry_run").notNull(),
    status: text("status").$type<"queued" | "running" | "succeeded" | "failed" | "cancelled">().notNull(),
    total: integer("total").notNull(),
    /** Records handled, in `seq` order: the next batch starts after this one. */
    processed: integer("processed").notNull().default(0),
    created: integer("created").notNull().default(0),
    existing: integer("existing").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    error: text("error"),
    claimedBy: uuid("claimed_by"),
    leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("import_jobs_project_idx").on(t.projectId, t.createdAt),
    index("import_jobs_pending_idx").on(t.createdAt).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/**
 * The records of a job's file, in file order (`seq` from 1): a generic import record to write, or the reason it is
 * not one. Written records are deleted when the job ends (they hold password hashes); skipped ones stay, with why.
 */
export const importJobRecords = pgTable(
  "import_job_records",
  {
    jobId: uuid("job_id")
      .notNull()
      .references(() => importJobs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    line: integer("line").notNull(),
    sourceId: text("source_id"),
    record: jsonb("record"),
    /** Set when the record is not imported: when the file was read, or when the server answered it as skipped. */
    skipReason: text("skip_reason"),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq] })],
);
