// The database schema (drizzle). SQL migrations are generated from it with `npm run db:generate` and committed.
import type { ProjectConfig, PublicJwk } from "@gatehouse/contract";
import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const projects = pgTable("projects", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull(),
  description: text("description"),
  createdAt: createdAt(),
  isProductionMode: boolean("is_production_mode").notNull().default(false),
  /** A team of project `internal` whose members administer this project (teams arrive with the users issue). */
  ownerTeamId: uuid("owner_team_id"),
  config: jsonb("config").$type<ProjectConfig>().notNull(),
});

/**
 * A set of up to three project keys sharing description, expiry and revocation. Only SHA-256 hashes and the
 * last four characters are kept: a database leak does not leak working keys.
 */
export const apiKeySets = pgTable(
  "api_key_sets",
  {
    id: uuid("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
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

/** Token audiences: normal users, restricted users and anonymous users each have their own keys (WIRE.md §3.2). */
export const AUDIENCE_KINDS = ["default", "restricted", "anonymous"] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];

/**
 * Per-project ES256 signing keys. A key is published from `created_at`, signs from `signs_from` (at least the
 * JWKS cache time later, so verifiers already have it), and leaves the JWKS once `retired_at` is set.
 */
export const signingKeys = pgTable(
  "signing_keys",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
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
