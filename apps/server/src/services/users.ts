// Users: creation with their primary e-mail, and the user objects of the wire (server and client shapes).
import { randomUUID } from "node:crypto";
import type { ClientUser, ServerUser } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import type { AudienceKind } from "../db/schema.ts";
import type { UserRecord, UsersRepo } from "../db/users-repo.ts";

export type NewUser = {
  projectId: string;
  email?: { value: string; verified: boolean; usedForAuth: boolean };
  passwordHash?: string | null;
  otpAuthEnabled?: boolean;
  isAnonymous?: boolean;
  displayName?: string | null;
};

/** Which token audience a user's tokens carry (WIRE.md §3.2). */
export function audienceOf(user: UserRecord): AudienceKind {
  if (user.isAnonymous) return "anonymous";
  return user.restrictedByAdmin ? "restricted" : "default";
}

function restrictedReason(user: UserRecord) {
  if (user.isAnonymous) return { type: "anonymous" as const };
  return user.restrictedByAdmin ? { type: "restricted_by_administrator" as const } : null;
}

export function toServerUser(user: UserRecord): ServerUser {
  const email = user.primaryEmail;
  const hasPassword = user.passwordHash !== null;
  const reason = restrictedReason(user);
  return {
    id: user.id,
    primary_email: email?.value ?? null,
    primary_email_verified: email?.isVerified ?? false,
    primary_email_auth_enabled: email?.usedForAuth ?? false,
    display_name: user.displayName,
    selected_team: null,
    selected_team_id: user.selectedTeamId,
    profile_image_url: user.profileImageUrl,
    signed_up_at_millis: user.signedUpAt.getTime(),
    has_password: hasPassword,
    otp_auth_enabled: user.otpAuthEnabled,
    passkey_auth_enabled: false,
    client_metadata: user.clientMetadata ?? null,
    client_read_only_metadata: user.clientReadOnlyMetadata ?? null,
    server_metadata: user.serverMetadata ?? null,
    last_active_at_millis: user.lastActiveAt.getTime(),
    is_anonymous: user.isAnonymous,
    is_restricted: reason !== null,
    restricted_reason: reason,
    restricted_by_admin: user.restrictedByAdmin,
    restricted_by_admin_reason: user.restrictedByAdminReason,
    restricted_by_admin_private_details: user.restrictedByAdminPrivateDetails,
    country_code: user.countryCode,
    risk_scores: user.riskScores ?? { sign_up: { bot: 0, free_trial_abuse: 0 } },
    oauth_providers: [],
    auth_with_email: (email?.usedForAuth ?? false) && (hasPassword || user.otpAuthEnabled),
    requires_totp_mfa: user.sealedTotpSecret !== null,
  };
}

/** The client shape: the server shape without server-only fields (the route's response schema strips them too). */
export function toClientUser(user: UserRecord): ClientUser {
  const {
    primary_email_auth_enabled: _a,
    server_metadata: _s,
    last_active_at_millis: _l,
    restricted_by_admin_private_details: _p,
    country_code: _c,
    risk_scores: _r,
    ...client
  } = toServerUser(user);
  return client;
}

export function createUserService(deps: { repo: UsersRepo; clock: Clock }) {
  return {
    /** Inserts the user and its primary e-mail in the caller's transaction; returns the new id. */
    async create(tx: Db, input: NewUser): Promise<string> {
      const id = randomUUID();
      const now = deps.clock.now();
      await deps.repo.insert(tx, {
        id,
        projectId: input.projectId,
        displayName: input.displayName || null,
        passwordHash: input.passwordHash ?? null,
        otpAuthEnabled: input.otpAuthEnabled ?? false,
        isAnonymous: input.isAnonymous ?? false,
        signedUpAt: now,
        lastActiveAt: now,
      });
      if (input.email) await this.addPrimaryEmail(tx, input.projectId, id, input.email);
      return id;
    },

    async addPrimaryEmail(tx: Db, projectId: string, userId: string, email: NonNullable<NewUser["email"]>) {
      await deps.repo.insertChannel(tx, {
        id: randomUUID(),
        projectId,
        userId,
        value: email.value,
        normalized: email.value.toLowerCase(),
        isVerified: email.verified,
        isPrimary: true,
        usedForAuth: email.usedForAuth,
        createdAt: deps.clock.now(),
      });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
